import {
  LIVE,
  SAMPLE,
  type Plan,
  type StepDirective,
  type ToolCallPosition,
  type ToolDirective,
} from '../rollout/plan.js'
import type { Policy } from '../agent/types.js'
import { oneOf } from '../options/fields.js'
import type { Trajectory } from '../trajectory/schema.js'
import { stepFamily } from '../trajectory/step-name.js'
import { describeIntervention, type Intervention, type ObservationSelector } from './interventions.js'

/** Whether replay calls tools of held steps (`live`) or answers them from the recording (`recorded`). */
export type ToolMode = 'live' | 'recorded'

/** Where tool calls of held steps come from, as an option (`replay`, attribution). */
export const ToolModeField = oneOf(['live', 'recorded'])

/** The plan that replays `factual` under `intervention`. */
export function planFor(factual: Trajectory, intervention: Intervention, tools: ToolMode): Plan {
  const isHeld = heldSteps(intervention, factual.steps.length)
  // Made once per step of the plan, not once per rollout: every rollout of a replay asks for them.
  const holds: StepDirective[] = []

  const step = (index: number, name: string): StepDirective => {
    const recorded = factual.steps[index]
    if (recorded !== undefined && isHeld(index)) return (holds[index] ??= { kind: 'hold', recorded })
    switch (intervention.kind) {
      case 'force-action':
        if (index === intervention.step) return { kind: 'force', action: intervention.action }
        break
      case 'edit-context':
        if (index === intervention.step) return { kind: 'edit', edit: intervention.edit }
        break
      case 'swap-policy': {
        const policy = index >= intervention.step ? swappedPolicy(intervention.policies, name) : undefined
        if (policy !== undefined) return { kind: 'sample', policy }
        break
      }
    }
    return SAMPLE
  }

  const tool = (call: ToolCallPosition): ToolDirective => {
    const { step: stepIndex, position, tool: toolName } = call
    if (
      intervention.kind === 'replace-observation' &&
      stepIndex === intervention.step &&
      selects(intervention.select, call)
    ) {
      return { kind: 'replaced', result: intervention.result }
    }
    // Recorded answers only where the run still follows the recording: the preamble and held steps.
    if (tools === 'recorded' && (stepIndex === -1 || isHeld(stepIndex))) {
      const observations = stepIndex === -1 ? factual.preamble : factual.steps[stepIndex]?.observations
      const recorded = observations?.[position]
      if (recorded !== undefined && recorded.tool === toolName && recorded.error === undefined) {
        return { kind: 'recorded', recorded }
      }
    }
    return LIVE
  }

  return { label: describeIntervention(intervention), step, tool }
}

/** Which step indices an intervention holds at their recorded actions. */
function heldSteps(intervention: Intervention, recordedSteps: number): (index: number) => boolean {
  switch (intervention.kind) {
    case 'hold': {
      if (intervention.steps === 'all') return (index) => index < recordedSteps
      const held = new Set(intervention.steps)
      return (index) => held.has(index)
    }
    case 'replace-observation':
      return (index) => index <= intervention.step
    default:
      return (index) => index < intervention.step
  }
}

/**
 * Whether a tool call is the one `select` picks: without `select.tool`, `select.position` counts all
 * of the step's tool calls; with it, only that tool's calls.
 */
function selects(select: ObservationSelector, call: ToolCallPosition): boolean {
  const wanted = select.position ?? 0
  if (select.tool === undefined) return call.position === wanted
  return call.tool === select.tool && call.positionOfTool === wanted
}

/**
 * The policy swapped in for a step named `name`: the one keyed by its name, else by its family
 * (`model` for `model#2`), so a swap reaches every numbered call of a wrapped model. Own keys
 * only: a step named "toString" must not pick up Object.prototype.toString.
 */
function swappedPolicy(policies: Readonly<Record<string, Policy>>, name: string): Policy | undefined {
  if (Object.hasOwn(policies, name)) return policies[name]
  const family = stepFamily(name)
  return Object.hasOwn(policies, family) ? policies[family] : undefined
}
