import { assertJson, type Json } from '../json.js'
import type { Policy } from '../agent/types.js'

/** Picks one tool result of a step: by tool name, by position among the step's tool calls, or both. */
export interface ObservationSelector {
  /** Only tool calls of this tool. */
  tool?: string
  /** Default 0: the first matching tool call of the step. */
  position?: number
}

/**
 * An intervention of the do-algebra, as data. Build them with the helpers below;
 * `replay` turns one into a plan over the recorded trajectory.
 */
export type Intervention =
  | { kind: 'resample'; step: number }
  | { kind: 'force-action'; step: number; action: Json }
  | { kind: 'replace-observation'; step: number; result: Json; select: ObservationSelector }
  | { kind: 'edit-context'; step: number; edit: (context: Json | undefined) => Json }
  | { kind: 'swap-policy'; step: number; policies: Readonly<Record<string, Policy>> }
  | { kind: 'hold'; steps: readonly number[] | 'all' }

/** do_resample: hold steps before `step`, draw `step` afresh from its policy, let the rest run. */
export function resample(step: number): Intervention {
  return { kind: 'resample', step: checkStep(step, 'resample') }
}

/** do_action: hold steps before `step`, force its action to `action`, let the rest run. */
export function forceAction(step: number, action: Json): Intervention {
  assertJson(action, `forceAction(${step}, …): the action`)
  return { kind: 'force-action', step: checkStep(step, 'forceAction'), action }
}

/**
 * do_observation: hold steps up to and including `step`, and answer one of its tool calls with
 * `result` instead of calling the tool (by default the step's first tool call; `select` picks
 * another by tool name and/or position). Later steps run.
 */
export function replaceObservation(
  step: number,
  result: Json,
  select: ObservationSelector = {},
): Intervention {
  assertJson(result, `replaceObservation(${step}, …): the result`)
  if (select.position !== undefined && !(Number.isInteger(select.position) && select.position >= 0)) {
    throw new RangeError(
      `replaceObservation: select.position must be a non-negative integer, got ${select.position}.`,
    )
  }
  return { kind: 'replace-observation', step: checkStep(step, 'replaceObservation'), result, select }
}

/** do_context: hold steps before `step`; `step`'s policy decides from `edit(context)`. Later steps run. */
export function editContext(step: number, edit: (context: Json | undefined) => Json): Intervention {
  return { kind: 'edit-context', step: checkStep(step, 'editContext'), edit }
}

/**
 * do_policy: hold steps before `step`; from `step` on, every step whose name, or whose family
 * (`model` for the numbered step `model#2`), is a key of `policies` decides with that policy
 * instead of its own (adapters: another model).
 */
export function swapPolicy(step: number, policies: Readonly<Record<string, Policy>>): Intervention {
  return { kind: 'swap-policy', step: checkStep(step, 'swapPolicy'), policies }
}

/**
 * A coalition: hold exactly `steps` at their recorded actions and draw every other step afresh
 * (Shapley's v(S)). `hold('all')` replays the whole recording: the attribution baseline.
 */
export function hold(steps: Iterable<number> | 'all'): Intervention {
  if (steps === 'all') return { kind: 'hold', steps: 'all' }
  const list = [...new Set(steps)].sort((a, b) => a - b)
  for (const step of list) checkStep(step, 'hold')
  return { kind: 'hold', steps: list }
}

/** A short label for messages and files: `resample(2)`, `hold([0,1])`, `forceAction(1, "refund")`. */
export function describeIntervention(intervention: Intervention): string {
  switch (intervention.kind) {
    case 'resample':
      return `resample(${intervention.step})`
    case 'force-action':
      return `forceAction(${intervention.step}, ${shorten(JSON.stringify(intervention.action))})`
    case 'replace-observation':
      return `replaceObservation(${intervention.step}, ${shorten(JSON.stringify(intervention.result))})`
    case 'edit-context':
      return `editContext(${intervention.step})`
    case 'swap-policy':
      return `swapPolicy(${intervention.step}, [${Object.keys(intervention.policies).join(', ')}])`
    case 'hold':
      return intervention.steps === 'all' ? 'hold(all)' : `hold([${intervention.steps.join(',')}])`
  }
}

function shorten(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 37)}...`
}

function checkStep(step: number, helper: string): number {
  if (!Number.isInteger(step) || step < 0) {
    throw new RangeError(`${helper}: the step index must be a non-negative integer, got ${step}.`)
  }
  return step
}
