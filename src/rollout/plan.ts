import type { Policy } from '../agent/types.js'
import type { Json } from '../json.js'
import type { Observation, Step } from '../trajectory/schema.js'

/** How a rollout answers one step. */
export type StepDirective =
  | { kind: 'sample'; policy?: Policy } // call the policy (or a swapped-in one)
  | { kind: 'hold'; recorded: Step } // return the recorded action
  | { kind: 'force'; action: Json }
  | { kind: 'edit'; edit: (context: Json | undefined) => Json }

/** How a rollout answers one tool call. */
export type ToolDirective =
  { kind: 'live' } | { kind: 'recorded'; recorded: Observation } | { kind: 'replaced'; result: Json }

/**
 * What a rollout does at each step and tool call: the engine's extension point. A plain rollout
 * samples everything; replay builds a plan from a recording and an intervention.
 */
export interface Plan {
  /** The intervention's label, recorded on every trajectory of the run. */
  readonly label: string | undefined
  step(index: number, name: string): StepDirective
  tool(call: ToolCallPosition): ToolDirective
}

/** Where a tool call sits in the run. */
export interface ToolCallPosition {
  /** The index of the step the call follows, or -1 for the preamble. */
  step: number
  /** Its position among the step's tool calls. */
  position: number
  /** Its position among the step's calls of the same tool. */
  positionOfTool: number
  tool: string
}

// Shared directives: the plain ones are answered for every step and tool call of every rollout.
/** Call the step's own policy. */
export const SAMPLE: StepDirective = Object.freeze({ kind: 'sample' })
/** Run the tool. */
export const LIVE: ToolDirective = Object.freeze({ kind: 'live' })

/** The plan of a plain rollout: every step calls its policy, every tool runs. */
export const SAMPLE_EVERYTHING: Plan = {
  label: undefined,
  step: () => SAMPLE,
  tool: () => LIVE,
}
