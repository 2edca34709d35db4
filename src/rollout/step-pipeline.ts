import type { Policy, StepOptions } from '../agent/types.js'
import type { Cassette } from '../cassette/cassette.js'
import type { StepCallKey } from '../cassette/key.js'
import { entryRebuild } from '../cassette/redact-entry.js'
import { MaxStepsExceededError } from '../errors.js'
import { contextDigest, copyJson, type Json, type JsonObject } from '../json.js'
import { stepStream } from '../random/streams.js'
import { copyStepValue, UNRESOLVED, type PendingStep } from './pending-step.js'
import { PolicyView } from './policy-view.js'
import { modelCallSlots } from './model-call-slots.js'
import type { TrajectoryRecorder } from './recorder.js'
import { recordStep, tokenCount } from './record-step.js'
import { resolveStep, type StepResolution } from './resolve-step.js'
import { isPromiseLike } from './promise-like.js'

const NO_OPTIONS: StepOptions = Object.freeze({})

/**
 * `ctx.step`: one step through the stages plan → cassette → limit → policy → record, over one
 * {@link PendingStep}. A held or forced step goes from plan straight to record; a cassette hit
 * from cassette to record.
 *
 * Not an async function, nor are the stages of a step that needs no waiting: an async function's
 * frame is a heap object, large while the code is still interpreted, and as one `ctx.step`
 * allocated 22% of every byte of a cold Shapley call (sampled heap profile). Errors still arrive
 * as rejections, never as synchronous throws. Once the plan stage has reserved the step's index,
 * a failure gives it back ({@link giveUp}) exactly once: where it is thrown synchronously, or in
 * the async stage it happens in.
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
  try {
    const { resolution } = pending
    if (resolution.kind === 'given') {
      // Recorded and forced actions are shared by every rollout of the replay: the agent and the
      // new trajectory each get their own copy.
      recordStep(recorder, pending, copyStepValue(pending, resolution.action, 'action'), false)
      return Promise.resolve(copyStepValue(pending, resolution.action, 'action') as A)
    }
    const answered = fromCassette(recorder, pending)
    if (answered !== undefined) return answered
    return limit(recorder, pending)
  } catch (error) {
    giveUp(recorder, pending, error)
    return Promise.reject(error)
  }
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
  }
  const directive = settings.plan.step(index, name)
  // Counted before resolving: a divergence that ends the rollout still counts its step as held.
  if (directive.kind === 'hold') recorder.countHeld()
  pending.resolution = resolveStep(directive, pending, settings.onDivergence)
  recorder.reserveStep(pending.resolution.matched)
  return pending
}

/**
 * The cassette stage: a cassette answers a cacheable call before anything is spent. A hit calls
 * nothing; a call of the same key in flight for another rollout is waited for, not made twice; a
 * miss is noted on the step, to be recorded once its policy returns. A step whose policy was
 * swapped is not cacheable: its key would name the agent's model, not the one swapped in.
 * Undefined when the step goes on to the limit stage.
 */
function fromCassette<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
): Promise<A> | undefined {
  const { cassette } = recorder
  const { options, resolution } = pending
  if (
    cassette === undefined ||
    resolution.kind !== 'call' ||
    resolution.source === 'swapped' ||
    !(options.cache ?? options.model !== undefined)
  )
    return undefined
  const { seed, rollout } = recorder.settings
  const call: StepCallKey = {
    name: pending.name,
    model: options.model,
    // What the policy is asked: an edited step's key is its edited context's.
    request: resolution.source === 'edited' ? resolution.sees : pending.context,
    stream: { seed, rollout, step: pending.index },
  }
  const lookup = cassette.findStep(call)
  if (lookup.kind === 'hit') {
    pending.hit = lookup
    return Promise.resolve(recordHit(recorder, pending))
  }
  if (lookup.kind === 'pending') return awaitCassette(recorder, pending, cassette, call, lookup.settled)
  pending.miss = { cassette, key: lookup.key, call }
  return undefined
}

/** Records a step its cassette hit answers: the stored action and meta, no policy call. */
function recordHit<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>): A {
  const { entry } = pending.hit as NonNullable<PendingStep<A>['hit']>
  recordStep(recorder, pending, copyStepValue(pending, entry.action, 'stored action'), false)
  return copyStepValue(pending, entry.action, 'stored action') as A
}

/**
 * The rest of the cassette stage when another rollout is making the same call: wait for it, then
 * take its answer, or go on to make the call if that rollout gave it up (it failed, or ended first).
 */
async function awaitCassette<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
  cassette: Cassette,
  call: StepCallKey,
  settled: Promise<void>,
): Promise<A> {
  try {
    for (;;) {
      await settled
      recorder.checkAlive()
      const lookup = cassette.findStep(call)
      if (lookup.kind === 'hit') {
        pending.hit = lookup
        return recordHit(recorder, pending)
      }
      if (lookup.kind === 'miss') {
        pending.miss = { cassette, key: lookup.key, call }
        break
      }
      settled = lookup.settled
    }
  } catch (error) {
    giveUp(recorder, pending, error)
    throw error
  }
  try {
    return limit(recorder, pending)
  } catch (error) {
    // A synchronous failure; an asynchronous one gives up in the stage it happened in.
    giveUp(recorder, pending, error)
    throw error
  }
}

/**
 * The limit stage, before a live call: no policy call may start once the cost limit is reached,
 * and a live model call waits for its model's slot and the rate limit, if any (a hit called
 * nothing). Throws synchronously for the caller to give up; an asynchronous failure gives up here.
 */
function limit<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>): Promise<A> {
  recorder.stopIfCostSpent()
  const { model } = pending.options
  if (model !== undefined) return liveModelCall(recorder, pending, model)
  const returned = callPolicy(recorder, pending)
  if (isPromiseLike(returned)) return settlePolicy(recorder, pending, returned)
  return Promise.resolve(recordPolicy(recorder, pending, returned))
}

/**
 * The limit and policy stages of a live model call: wait for a slot of the process-wide budget of
 * calls in flight to `model` (see `model-call-slots.ts`) and for the rate limit, call the policy,
 * then count the call's tokens. Tokens are known only once the call returns, so they are counted
 * after it: later calls wait for them, this one could not.
 */
async function liveModelCall<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
  model: string,
): Promise<A> {
  const { rateLimit } = recorder.account
  const { execution } = recorder.settings
  try {
    await modelCallSlots.acquire(model, execution.modelConcurrency ?? execution.concurrency, recorder.signal)
    let returned: A
    let calling = false
    try {
      if (rateLimit !== undefined) await rateLimit.acquire(recorder.signal)
      recorder.checkAlive()
      // Other rollouts may have spent the rest of the budget while this one waited.
      recorder.stopIfCostSpent()
      recorder.liveCallStarted()
      calling = true
      returned = await callPolicy(recorder, pending)
    } finally {
      // The slot is the call's, not the step's: the next call to the model may start now.
      modelCallSlots.release(model)
      if (calling) recorder.liveCallEnded()
    }
    if (rateLimit !== undefined) await rateLimit.recordTokens(callTokens(pending.options.meta?.(returned)))
    return recordPolicy(recorder, pending, returned)
  } catch (error) {
    giveUp(recorder, pending, error)
    throw error
  }
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

/** The rest of the policy stage for a policy that returned a promise. */
async function settlePolicy<A extends Json>(
  recorder: TrajectoryRecorder,
  pending: PendingStep<A>,
  returned: PromiseLike<A>,
): Promise<A> {
  try {
    return recordPolicy(recorder, pending, await returned)
  } catch (error) {
    giveUp(recorder, pending, error)
    throw error
  }
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

/** A step that will not complete: the recorder takes its index back, the cassette its key. */
function giveUp<A extends Json>(recorder: TrajectoryRecorder, pending: PendingStep<A>, error: unknown): void {
  recorder.abandon(pending.index, pending.name, error)
  const { miss } = pending
  miss?.cassette.release(miss.key)
}

/** Input plus output tokens of a call, from the meta its step will record. */
function callTokens(meta: JsonObject | undefined): number {
  return tokenCount(meta?.['inputTokens']) + tokenCount(meta?.['outputTokens'])
}
