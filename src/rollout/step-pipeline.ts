import type { Policy, StepOptions } from '../agent/types.js'
import type { Cassette } from '../cassette/cassette.js'
import type { StepCallKey } from '../cassette/key.js'
import { entryRebuild } from '../cassette/redact-entry.js'
import { MaxStepsExceededError } from '../errors.js'
import { contextDigest, copyJson, type Json, type JsonObject } from '../json.js'
import { stepStream } from '../random/streams.js'
import { copyStepValue, UNRESOLVED, type PendingStep, type WAIT } from './pending-step.js'
import { PolicyView } from './policy-view.js'
import { modelCallSlots } from './model-call-slots.js'
import type { TrajectoryRecorder } from './recorder.js'
import { recordStep, tokenCount } from './record-step.js'
import { resolveStep, type StepResolution } from './resolve-step.js'
import { isPromiseLike } from './promise-like.js'
import { endLiveCall, runStages, waitFor } from './stage-loop.js'

const NO_OPTIONS: StepOptions = Object.freeze({})

/**
 * `ctx.step`: one step through the stages plan → cassette → limit → policy → record, over one
 * {@link PendingStep}. A held or forced step goes from plan straight to record; a cassette hit
 * from cassette to record.
 *
 * The plan stage runs first, on its own: until it has reserved the step's index there is nothing to
 * give back, and its errors reject the step as they are. From there {@link runStages} drives the
 * rest and gives the step back on any failure; each stage is a plain function that calls the next
 * or names what it waits for (`waitFor`), so a new stage is one function. Errors arrive as
 * rejections, never as synchronous throws.
 */
export function runStep<A extends Json>(
  recorder: TrajectoryRecorder,
  name: string,
  policy: Policy<A>,
  options: StepOptions<A> = NO_OPTIONS,
): Promise<A> {
  let pending: PendingStep<A>
  try {
    pending = plan(recorder, name, policy, options)
  } catch (error) {
    return Promise.reject(error)
  }
  return runStages(recorder, pending, afterPlan)
}

/**
 * The plan stage: checks the rollout may take another step, snapshots its context, asks the plan
 * what to do and resolves that into a given action or a policy call. Reserves the step's index
 * (see the recorder's comment): tool calls from here on attach to this step.
 */
function plan<A extends Json>(
  recorder: TrajectoryRecorder,
  name: string,
  policy: Policy<A>,
  options: StepOptions<A>,
): PendingStep<A> {
  recorder.checkAlive()
  const { settings } = recorder
  const { maxSteps } = settings.execution
  const index = recorder.nextStep
  if (index >= maxSteps) {
    throw new MaxStepsExceededError(
      `The rollout took more than maxSteps (${maxSteps}) steps; the agent seems to loop (last step "${name}").`,
    )
  }
  // A snapshot: agents keep appending to the message list they pass as context.
  const context =
    options.context === undefined
      ? undefined
      : copyJson(options.context, `The context of step ${index} "${name}"`)
  const digest = context === undefined ? null : contextDigest(context)
  const pending: PendingStep<A> = {
    index,
    name,
    policy,
    options,
    agentContext: options.context,
    context,
    contextDigest: digest,
    resolution: UNRESOLVED,
    hit: undefined,
    miss: undefined,
    slot: undefined,
    calling: false,
    returned: undefined,
    waitingOn: undefined,
    resumeAt: undefined,
  }
  const directive = settings.plan.step(index, name)
  // Counted before resolving: a divergence that ends the rollout still counts its step as held.
  if (directive.kind === 'hold') recorder.countHeld()
  pending.resolution = resolveStep(directive, pending, settings.onDivergence)
  recorder.reserveStep(pending.resolution.matched)
  return pending
}

/** After the plan: a given action is recorded as it is; a policy call goes on to the cassette. */
function afterPlan<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>): A | typeof WAIT {
  const { resolution } = pending
  if (resolution.kind !== 'given') return fromCassette(recorder, pending)
  // Recorded and forced actions are shared by every rollout of the replay: the agent and the new
  // trajectory each get their own copy.
  recordStep(recorder, pending, copyStepValue(pending, resolution.action, 'action'), false)
  return copyStepValue(pending, resolution.action, 'action') as A
}

/**
 * The cassette stage: a cassette answers a cacheable call before anything is spent. A hit calls
 * nothing; a call of the same key in flight for another rollout is waited for, not made twice; a
 * miss is noted on the step, to be recorded once its policy returns. A step whose policy was
 * swapped is not cacheable: its key would name the agent's model, not the one swapped in.
 */
function fromCassette<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
): A | typeof WAIT {
  const { cassette } = recorder
  const { options, resolution } = pending
  if (
    cassette === undefined ||
    resolution.kind !== 'call' ||
    resolution.source === 'swapped' ||
    !(options.cache ?? options.model !== undefined)
  )
    return limit(recorder, pending)
  return lookUp(recorder, pending, cassette, cassetteCall(recorder, pending))
}

/** The cassette's key for the step's call. */
function cassetteCall<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>): StepCallKey {
  const { seed, rollout } = recorder.settings
  const { options, resolution } = pending
  return {
    name: pending.name,
    model: options.model,
    // What the policy is asked: an edited step's key is its edited context's.
    request: resolution.kind === 'call' && resolution.source === 'edited' ? resolution.sees : pending.context,
    stream: { seed, rollout, step: pending.index },
  }
}

/**
 * Asks the cassette for the call: a hit answers the step; a call of the same key another rollout
 * is making is waited for, then asked again (that rollout may have given it up: it failed, or
 * ended first); a miss goes on to make the call.
 */
function lookUp<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
  cassette: Cassette,
  call: StepCallKey,
): A | typeof WAIT {
  const lookup = cassette.findStep(call)
  if (lookup.kind === 'hit') {
    pending.hit = lookup
    return recordHit(recorder, pending)
  }
  if (lookup.kind === 'pending') return waitFor(pending, lookup.settled, lookUpAgain)
  pending.miss = { cassette, key: lookup.key, call }
  return limit(recorder, pending)
}

/** The cassette stage again, once the same call in another rollout has settled. */
function lookUpAgain<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>): A | typeof WAIT {
  recorder.checkAlive()
  return lookUp(recorder, pending, recorder.cassette as Cassette, cassetteCall(recorder, pending))
}

/** Records a step its cassette hit answers: the stored action and meta, no policy call. */
function recordHit<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>): A {
  const { entry } = pending.hit as NonNullable<PendingStep<A>['hit']>
  recordStep(recorder, pending, copyStepValue(pending, entry.action, 'stored action'), false)
  return copyStepValue(pending, entry.action, 'stored action') as A
}

/**
 * The limit stage, before a live call: no policy call may start once the cost limit is reached,
 * and a live model call waits for its model's slot and the rate limit, if any (a hit called
 * nothing).
 */
function limit<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>): A | typeof WAIT {
  recorder.stopIfCostSpent()
  const { model } = pending.options
  if (model !== undefined) {
    // A slot of the process-wide budget of calls in flight to the model (see `model-call-slots.ts`).
    const { execution } = recorder.settings
    const slot = modelCallSlots.acquire(
      model,
      execution.modelConcurrency ?? execution.concurrency,
      recorder.signal,
    )
    return waitFor(pending, slot, slotGranted)
  }
  const returned = callPolicy(recorder, pending)
  if (isPromiseLike(returned)) return waitFor(pending, returned, policyReturned)
  return recordPolicy(recorder, pending, returned)
}

/** A live model call holds its slot from here until the call settles; next, the rate limit. */
function slotGranted<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>): A | typeof WAIT {
  pending.slot = pending.options.model
  const { rateLimit } = recorder.account
  if (rateLimit !== undefined) return waitFor(pending, rateLimit.acquire(recorder.signal), startLiveCall)
  return startLiveCall(recorder, pending)
}

/** The policy stage of a live model call, once its slot and the rate limit allow it. */
function startLiveCall<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
): A | typeof WAIT {
  recorder.checkAlive()
  // Other rollouts may have spent the rest of the budget while this one waited.
  recorder.stopIfCostSpent()
  recorder.liveCallStarted()
  pending.calling = true
  return waitFor(pending, callPolicy(recorder, pending), liveCallReturned)
}

/**
 * A live call returned: its slot is free for the next call to the model, and its tokens are
 * counted by the rate limit before it is recorded. Tokens are known only once the call returns,
 * so later calls wait for them; this one could not.
 */
function liveCallReturned<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
  returned: unknown,
): A | typeof WAIT {
  endLiveCall(recorder, pending)
  const { rateLimit } = recorder.account
  if (rateLimit === undefined) return recordPolicy(recorder, pending, returned as A)
  pending.returned = returned as A
  return waitFor(
    pending,
    rateLimit.recordTokens(callTokens(pending.options.meta?.(returned as A))),
    tokensCounted,
  )
}

/** The record stage of a live call whose tokens the rate limit has counted. */
function tokensCounted<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>): A {
  return recordPolicy(recorder, pending, pending.returned as A)
}

/** The policy stage: calls the step's policy with the step's own stream and its view. */
function callPolicy<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
): A | PromiseLike<A> {
  // Only a step the plan resolved to a call reaches this stage.
  const resolution = pending.resolution as Extract<StepResolution<A>, { kind: 'call' }>
  const { index, name } = pending
  const { seed, rollout } = recorder.settings
  return resolution.policy(
    stepStream(seed, rollout, index),
    new PolicyView(name, index, resolution.sees, recorder),
  )
}

/** The record stage of a policy that returned a promise. */
function policyReturned<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
  returned: unknown,
): A {
  return recordPolicy(recorder, pending, returned as A)
}

/** Records the action a policy returned (and, on a cassette miss, stores it); returns it to hand to the agent. */
function recordPolicy<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>, returned: A): A {
  recorder.checkAlive()
  const action = copyStepValue(pending, returned, 'action')
  const step = recordStep(recorder, pending, action, true)
  // The cassette keeps its own copy: a predicate may mutate the trajectory it is handed.
  const { miss } = pending
  if (miss !== undefined) {
    const meta =
      step.meta === undefined ? undefined : (copyStepValue(pending, step.meta, 'action') as JsonObject)
    // The cassette calls them on the joined, redacted action: the policy's shape, secrets replaced.
    miss.cassette.recordStep(
      miss.key,
      miss.call,
      copyStepValue(pending, step.action, 'action'),
      meta,
      entryRebuild(pending.options),
    )
  }
  return returned
}

/** Input plus output tokens of a call, from the meta its step will record. */
function callTokens(meta: JsonObject | undefined): number {
  return tokenCount(meta?.['inputTokens']) + tokenCount(meta?.['outputTokens'])
}
