import { CausalReplayError } from '../errors.js'
import type { Json } from '../json.js'
import type { Observation, Step } from '../trajectory/schema.js'
import { copyStepValue, type PendingStep } from './pending-step.js'
import type { TrajectoryRecorder } from './recorder.js'

/**
 * The record stage: turns a step that has its `action` (the recorder's own copy) into the
 * trajectory's step, and charges what it cost to the rollout and the budget account. Only a policy
 * call (`policyCalled`) costs money; a held, forced or cassette-answered step costs nothing.
 */
export function recordStep<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
  action: Json,
  policyCalled: boolean,
): Step {
  const { index, name, context, contextDigest, options, hit } = pending
  const { source, diverged } = pending.resolution
  const observations = recorder.stepObservations(index)
  if (
    !diverged &&
    hit === undefined &&
    pending.miss === undefined &&
    options.meta === undefined &&
    (options.costUsd === undefined || !policyCalled)
  ) {
    // Most steps have none of the optional fields: one literal with every key, since a key added
    // later moves the object's fields out of line (an allocation and a shape change per step).
    const plain: Step =
      context === undefined
        ? { index, name, action, contextDigest, source, observations }
        : { index, name, action, context, contextDigest, source, observations }
    recorder.completeStep(index, plain)
    if (options.model !== undefined) chargeModelCall(recorder, plain, hit, policyCalled)
    return plain
  }
  // Keys in schema order, so a trajectory prints the same before and after a file round trip.
  const step: Omit<Step, 'observations'> & { observations?: Observation[] } =
    context === undefined
      ? { index, name, action, contextDigest, source }
      : { index, name, action, context, contextDigest, source }
  if (diverged) step.diverged = true
  if (policyCalled && options.costUsd !== undefined) {
    const cost = options.costUsd(action as A)
    if (!(cost >= 0 && cost < Infinity)) {
      throw new CausalReplayError(
        `The costUsd of step ${index} "${name}" must be a non-negative number, got ${cost}.`,
      )
    }
    step.costUsd = cost
    recorder.chargeCost(cost)
  }
  if (hit !== undefined) {
    step.cassette = 'hit'
    // A hit spent nothing; what the call would have cost is what the cassette saved.
    if (options.costUsd !== undefined) {
      const saved = options.costUsd(action as A)
      if (saved >= 0 && saved < Infinity) step.savedUsd = saved
    }
  } else if (pending.miss !== undefined) {
    step.cassette = 'miss'
  }
  const storedMeta = hit?.entry.meta
  if (storedMeta !== undefined) {
    step.meta = copyStepValue(pending, storedMeta, 'stored meta') as Step['meta']
  } else if (options.meta !== undefined) {
    step.meta = copyStepValue(pending, options.meta(action as A), 'meta') as Step['meta']
  }
  step.observations = observations
  recorder.completeStep(index, step as Step)
  if (options.model !== undefined) chargeModelCall(recorder, step as Step, hit, policyCalled)
  return step as Step
}

/**
 * Counts a model step on the budget account, for the verdict's cost: a live call with its tokens
 * (from the meta the adapters record) and its price, or a cassette hit with what it saved. A held
 * or forced step called nothing and is not a model call of this run.
 */
function chargeModelCall(
  recorder: TrajectoryRecorder,
  step: Step,
  hit: PendingStep<Json>['hit'],
  policyCalled: boolean,
): void {
  if (hit !== undefined) {
    recorder.chargeModelCall({ kind: 'cassette-hit', savedUsd: step.savedUsd, reused: hit.reused })
  } else if (policyCalled) {
    recorder.chargeModelCall({
      kind: 'live',
      inputTokens: tokenCount(step.meta?.['inputTokens']),
      outputTokens: tokenCount(step.meta?.['outputTokens']),
      usd: step.costUsd,
    })
  }
}

/** A token count from a step's meta: the adapters record `inputTokens` and `outputTokens` when the provider reports them. */
export function tokenCount(value: Json | undefined): number {
  return typeof value === 'number' && value >= 0 && Number.isFinite(value) ? value : 0
}
