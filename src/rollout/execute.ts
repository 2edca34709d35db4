import type {
  AgentContext,
  Policy,
  RolloutInfo,
  Scenario,
  StepOptions,
  StepView,
  ToolOptions,
} from '../agent/types.js'
import { cassetteOf } from '../cassette/attach.js'
import type { Cassette } from '../cassette/cassette.js'
import type { StepCallKey, ToolCallKey } from '../cassette/key.js'
import type { StepEntry } from '../cassette/schema.js'
import {
  BudgetExceededError,
  CausalReplayError,
  MaxStepsExceededError,
  RolloutAbortedError,
  RolloutTimeoutError,
} from '../errors.js'
import { contextDigest, copyJson, isJsonPrimitive, type Json, type JsonObject } from '../json.js'
import { providerSeed, stepStream } from '../random/streams.js'
import type { Observation, RolloutError, Step, StepSource, Trajectory } from '../trajectory/schema.js'
import { assembleTrajectory, type FailedStep } from './assemble-trajectory.js'
import type { Budget } from './budget.js'
import type { ModelRateLimit } from './rate-limit.js'
import { classifyError, errorMessage } from './classify-error.js'
import { registerEvaluation } from './evaluation.js'
import type { Plan } from './plan.js'
import { resolveStep, type StepResolution } from './resolve-step.js'

/** What a single rollout needs besides the scenario. */
export interface RolloutSettings {
  seed: number
  rollout: number
  plan: Plan
  timeoutMs: number
  maxSteps: number
  budget: Budget
  signal: AbortSignal | undefined
  /** `count`: divergences are only counted; `error`: a divergence ends the rollout as an error. */
  onDivergence: 'count' | 'error'
}

/** A finished rollout. `stoppedByBudget` rollouts are not outcomes and are left out of every rate. */
export interface RolloutResult {
  trajectory: Trajectory
  stoppedByBudget: boolean
}

/**
 * Runs one rollout of `scenario` under `settings.plan`. Never throws for the agent's sake: an agent
 * that throws, times out, loops or is aborted gives a trajectory with `error` set.
 */
export async function executeRollout(
  scenario: Scenario<unknown, unknown>,
  settings: RolloutSettings,
): Promise<RolloutResult> {
  const recorder = new TrajectoryRecorder(scenario, settings)
  const outer = settings.signal
  const onOuterAbort =
    outer === undefined
      ? undefined
      : () => recorder.stop(new RolloutAbortedError('The rollout was cancelled.'))
  if (outer !== undefined && onOuterAbort !== undefined) {
    if (outer.aborted) onOuterAbort()
    else outer.addEventListener('abort', onOuterAbort, { once: true })
  }
  // setTimeout fires at once for delays past 2^31 − 1 ms (about 24.8 days); such a limit is no
  // limit in practice, so it is left to the deadline check alone.
  const timed = settings.timeoutMs <= MAX_TIMER_MS
  if (timed) watch(recorder)

  try {
    // Cancelled before it began: the agent does not run at all.
    recorder.throwIfStopped()
    // The agent may never look at its signal (a hang on a promise that never settles), so a stop
    // rejects this promise whatever the agent does. One promise whose reject the recorder keeps,
    // rather than a race against a never-settling "stopped" promise: the race cost three promises
    // and four reactions per rollout, a measurable share of a cold attribution's garbage.
    const output = await new Promise<unknown>((resolve, reject) => {
      recorder.rejectStopped = reject
      // Each rollout gets its own copy of the input: an agent that mutates it must not change the
      // input of later rollouts (or the recorded input). A synchronous throw (in the copy or in
      // `run`) rejects this promise, as the Promise constructor catches it.
      const run = scenario.agent.run(copyJson(scenario.input, 'The scenario input'), recorder.context)
      Promise.resolve(run).then(resolve, reject)
    })
    recorder.throwIfStopped()
    if (output !== undefined)
      recorder.output = copyJson(output, `The output of agent "${scenario.agent.name}"`)
  } catch (error) {
    recorder.fail(error)
  } finally {
    if (timed) unwatch(recorder)
    if (onOuterAbort !== undefined) outer?.removeEventListener('abort', onOuterAbort)
  }
  // Stop any work the agent left running (a hung tool call) and make its later ctx calls throw.
  recorder.end()
  const trajectory = recorder.finish()
  // What a judge predicate reaches of this run: its streams, its cassette, its claim's account.
  registerEvaluation(trajectory, { ...settings, cassette: cassetteOf(scenario.agent) })
  return { trajectory, stoppedByBudget: recorder.stoppedByBudget }
}

// One timer for every rollout in flight, armed for the earliest deadline, instead of a setTimeout
// and clearTimeout per rollout: on a cold Shapley call of a fast agent (3,840 rollouts) the
// per-rollout timers were about 8% of the profile. Rollouts still stop at their deadline. Between
// runs the timer is unref'd rather than cleared, so that it neither keeps the process alive nor
// has to be made again for the next rollout; a stale timer only fires early and re-arms.
const watched = new Set<TrajectoryRecorder>()
let watchdog: ReturnType<typeof setTimeout> | undefined
let watchdogAt = Infinity

function watch(recorder: TrajectoryRecorder): void {
  watched.add(recorder)
  if (watchdog === undefined || recorder.deadline < watchdogAt) armWatchdog(recorder.deadline)
  else if (watched.size === 1) watchdog.ref()
}

function unwatch(recorder: TrajectoryRecorder): void {
  watched.delete(recorder)
  if (watched.size === 0) watchdog?.unref()
}

function armWatchdog(at: number): void {
  if (watchdog !== undefined) clearTimeout(watchdog)
  watchdogAt = at
  watchdog = setTimeout(checkDeadlines, Math.max(0, at - performance.now()))
}

/** Times out every rollout past its deadline, and re-arms for the earliest one left. */
function checkDeadlines(): void {
  watchdog = undefined
  watchdogAt = Infinity
  const now = performance.now()
  let next = Infinity
  for (const recorder of watched) {
    if (recorder.deadline <= now) {
      watched.delete(recorder)
      recorder.timeOut()
    } else if (recorder.deadline < next) {
      next = recorder.deadline
    }
  }
  if (next < Infinity) armWatchdog(next)
}

const MAX_TIMER_MS = 2 ** 31 - 1

const NO_OPTIONS: StepOptions = Object.freeze({})

/** A step that has its action, as the recorder turns it into the trajectory's step. */
interface StepRecord {
  index: number
  name: string
  /** The recorder's own copy. */
  action: Json
  /** The snapshot of the agent's context, undefined when it passed none. */
  context: Json | undefined
  contextDigest: string | null
  source: StepSource
  diverged: boolean
  /** Whether a policy was called: only a policy call costs money. */
  policyCalled: boolean
  /** A cacheable step while a cassette is in use: answered from it (`hit`) or called (`miss`). */
  cassette?: 'hit' | 'miss'
  /** A hit only: the stored step's meta. */
  storedMeta?: StepEntry['meta']
  /** A hit only: answered by a call this run made for the same key, not by the file. */
  reused?: boolean
}

/** A cacheable step the cassette did not hold: recorded once its policy returns. */
interface CassetteMiss {
  cassette: Cassette
  key: string
  call: StepCallKey
}

/** The message an observation keeps when the rollout ended while its tool call was still running. */
const TOOL_STILL_RUNNING = 'The rollout ended before this tool call returned.'

/**
 * Builds the trajectory while the agent runs; its `context` is the agent's `ctx`.
 *
 * Steps and tool calls take their index (and so their random stream and their place in the
 * trajectory) when they are *called*, not when they finish: call order is deterministic, finish
 * order is not (concurrent steps, parallel tool calls with random latency).
 */
class TrajectoryRecorder {
  readonly context: AgentContext
  /** When the rollout times out (performance.now() time). */
  readonly deadline: number
  /** Rejects the promise `executeRollout` awaits the agent's run through. */
  rejectStopped: ((reason: Error) => void) | undefined
  output: Json | undefined
  stoppedByBudget = false
  /** Finished steps by index; a hole is a step still running (or one whose policy failed). */
  private readonly steps: Array<Step | undefined> = []
  /** The observation lists of every step started so far, by index (a step's tool calls land here). */
  private readonly observations: Observation[][] = []
  private readonly preamble: Observation[] = []
  private error: RolloutError | undefined
  private stopReason: Error | undefined
  // Created on first use: most agents never read their signal, and an AbortController per rollout
  // (plus its abort event) is a large share of the engine's overhead on fast agents.
  private controller: AbortController | undefined
  private toolCalls = 0
  private heldSteps = 0
  private matchedSteps = 0
  private costUsd = 0
  private finished = false
  /** The first step whose policy failed while a later step had already started (a gap). */
  private failedStep: FailedStep | undefined
  /** The cassette this rollout's cacheable steps and tool calls go through, if any. */
  private readonly cassette: Cassette | undefined

  constructor(
    private readonly scenario: Scenario<unknown, unknown>,
    private readonly settings: RolloutSettings,
  ) {
    this.deadline = performance.now() + settings.timeoutMs
    this.context = new RolloutContext(this, settings.seed, settings.rollout)
    this.cassette = cassetteOf(scenario.agent)
  }

  /** The rollout's signal: aborted when it times out, is cancelled, or ends with work still running. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController()
      if (this.stopReason !== undefined) this.controller.abort(this.stopReason)
      else if (this.finished) this.controller.abort(new RolloutAbortedError('The rollout has ended.'))
    }
    return this.controller.signal
  }

  /** Stops the rollout: the run executeRollout awaits rejects with `reason`, the signal aborts. */
  stop(reason: Error): void {
    if (this.stopReason !== undefined || this.finished) return
    this.stopReason = reason
    this.controller?.abort(reason)
    this.rejectStopped?.(reason)
  }

  /** Stops the rollout with a timeout error. */
  timeOut(): void {
    this.stop(new RolloutTimeoutError(`The rollout exceeded timeoutMs (${this.settings.timeoutMs} ms).`))
  }

  /** Throws the reason the rollout was stopped (timeout, cancellation), if it was. */
  throwIfStopped(): void {
    if (this.stopReason !== undefined) throw this.stopReason
  }

  /** Throws if the rollout was stopped, has ended, or is past its deadline. */
  private checkAlive(): void {
    if (this.stopReason !== undefined) throw this.stopReason
    if (this.finished) throw new RolloutAbortedError('The rollout has ended.')
    // A loop of awaits on settled promises never yields to timers, so the deadline is also
    // checked here, at every step and tool call.
    if (performance.now() > this.deadline) {
      const timeout = new RolloutTimeoutError(
        `The rollout exceeded timeoutMs (${this.settings.timeoutMs} ms).`,
      )
      this.stop(timeout)
      throw timeout
    }
  }

  /**
   * `ctx.step`. Not an async function: an async function's frame is a heap object, large while the
   * code is still interpreted, and as one this method allocated 22% of every byte of a cold Shapley
   * call (sampled heap profile), 13% as it is now. Errors still arrive as rejections, never as
   * synchronous throws, and a policy that returns a promise goes through {@link settlePolicy}.
   */
  step<A extends Json>(name: string, policy: Policy<A>, options: StepOptions<A> = NO_OPTIONS): Promise<A> {
    let index: number
    let resolved: StepResolution<A>
    let context: Json | undefined
    let digest: string | null
    try {
      this.checkAlive()
      index = this.observations.length
      if (index >= this.settings.maxSteps) {
        throw new MaxStepsExceededError(
          `The rollout took more than maxSteps (${this.settings.maxSteps}) steps; the agent seems to loop (last step "${name}").`,
        )
      }
      // A snapshot: agents keep appending to the message list they pass as context.
      context =
        options.context === undefined
          ? undefined
          : copyJson(options.context, `The context of step ${index} "${name}"`)
      digest = context === undefined ? null : contextDigest(context)
      const directive = this.settings.plan.step(index, name)
      // Counted before resolving: a divergence that ends the rollout still counts its step as held.
      if (directive.kind === 'hold') this.heldSteps++
      resolved = resolveStep(
        directive,
        { index, name, policy, agentContext: options.context, context, contextDigest: digest },
        this.settings.onDivergence,
      )
      if (resolved.matched) this.matchedSteps++
    } catch (error) {
      return Promise.reject(error)
    }

    // Reserve the index now (see the class comment); tool calls from here on attach to this step.
    this.observations.push([])
    let miss: CassetteMiss | undefined
    try {
      if (resolved.kind === 'given') {
        // Recorded and forced actions are shared by every rollout of the replay: the agent and the
        // new trajectory each get their own copy.
        const where = `The action of step ${index} "${name}"`
        this.complete(
          {
            index,
            name,
            action: copyJson(resolved.action, where),
            context,
            contextDigest: digest,
            source: resolved.source,
            diverged: resolved.diverged,
            policyCalled: false,
          },
          options,
        )
        return Promise.resolve(copyJson(resolved.action, where) as A)
      }
      // A cassette answers a cacheable call before anything is spent: a hit calls nothing, and a
      // call of the same key in flight for another rollout is waited for, not made twice. A step
      // whose policy was swapped is not cacheable: its key would name the agent's model, not the
      // one swapped in.
      const { cassette } = this
      if (
        cassette !== undefined &&
        resolved.source !== 'swapped' &&
        (options.cache ?? options.model !== undefined)
      ) {
        const call: StepCallKey = {
          name,
          model: options.model,
          // What the policy is asked: an edited step's key is its edited context's.
          request: resolved.source === 'edited' ? resolved.sees : context,
          stream: { seed: this.settings.seed, rollout: this.settings.rollout, step: index },
        }
        const lookup = cassette.findStep(call)
        if (lookup.kind === 'hit') {
          return Promise.resolve(
            this.completeFromCassette(
              lookup.entry,
              lookup.reused,
              index,
              name,
              context,
              digest,
              resolved,
              options,
            ),
          )
        }
        if (lookup.kind === 'pending') {
          return this.awaitCassette(
            cassette,
            call,
            lookup.settled,
            index,
            name,
            context,
            digest,
            resolved,
            options,
          )
        }
        miss = { cassette, key: lookup.key, call }
      }
      return this.callLive(index, name, context, digest, resolved, options, miss)
    } catch (error) {
      this.abandon(index, name, error)
      miss?.cassette.release(miss.key)
      return Promise.reject(error)
    }
  }

  /** Completes a step with a cassette's entry (a hit): no policy call, the stored action and meta. */
  private completeFromCassette<A extends Json>(
    entry: StepEntry,
    reused: boolean,
    index: number,
    name: string,
    context: Json | undefined,
    digest: string | null,
    resolved: StepResolution<A>,
    options: StepOptions<A>,
  ): A {
    const where = `The stored action of step ${index} "${name}"`
    const record: StepRecord = {
      index,
      name,
      action: copyJson(entry.action, where),
      context,
      contextDigest: digest,
      source: resolved.source,
      diverged: resolved.diverged,
      policyCalled: false,
      cassette: 'hit',
      reused,
    }
    if (entry.meta !== undefined) record.storedMeta = entry.meta
    this.complete(record, options)
    return copyJson(entry.action, where) as A
  }

  /**
   * The rest of {@link step} when another rollout is making the same call: wait for it, then take
   * its answer, or make the call if that rollout gave it up (it failed, or ended first).
   */
  private async awaitCassette<A extends Json>(
    cassette: Cassette,
    call: StepCallKey,
    settled: Promise<void>,
    index: number,
    name: string,
    context: Json | undefined,
    digest: string | null,
    resolved: Extract<StepResolution<A>, { kind: 'call' }>,
    options: StepOptions<A>,
  ): Promise<A> {
    let miss: CassetteMiss
    try {
      for (;;) {
        await settled
        this.checkAlive()
        const lookup = cassette.findStep(call)
        if (lookup.kind === 'hit') {
          return this.completeFromCassette(
            lookup.entry,
            lookup.reused,
            index,
            name,
            context,
            digest,
            resolved,
            options,
          )
        }
        if (lookup.kind === 'miss') {
          miss = { cassette, key: lookup.key, call }
          break
        }
        settled = lookup.settled
      }
    } catch (error) {
      this.abandon(index, name, error)
      throw error
    }
    try {
      return this.callLive(index, name, context, digest, resolved, options, miss)
    } catch (error) {
      // A synchronous failure; an asynchronous one abandons and releases in callLive's paths.
      this.abandon(index, name, error)
      miss.cassette.release(miss.key)
      throw error
    }
  }

  /**
   * Calls a step's policy (a live call): checks the cost limit, waits for the rate limit of a
   * model call, and records the action. A synchronous failure throws (the caller abandons the
   * step); an asynchronous one abandons it and releases the cassette's key here.
   */
  private callLive<A extends Json>(
    index: number,
    name: string,
    context: Json | undefined,
    digest: string | null,
    resolved: Extract<StepResolution<A>, { kind: 'call' }>,
    options: StepOptions<A>,
    miss: CassetteMiss | undefined,
  ): Promise<A> {
    this.stopIfCostSpent()
    // A live model call waits for the rate limit, if any (a hit called nothing).
    const limit = this.settings.budget.rateLimit
    if (limit !== undefined && options.model !== undefined)
      return this.limitedPolicy(limit, index, name, context, digest, resolved, options, miss)
    const returned = this.callPolicy(resolved, index, name)
    if (isPromiseLike(returned))
      return this.settlePolicy(returned, index, name, context, digest, resolved, options, miss)
    return Promise.resolve(
      this.completePolicy(returned, index, name, context, digest, resolved, options, miss),
    )
  }

  /** No policy call may start once the cost limit is reached: the rollout stops as budget-stopped. */
  private stopIfCostSpent(): void {
    if (!this.settings.budget.costExhausted) return
    this.stoppedByBudget = true
    throw new BudgetExceededError(`The cost budget is spent (${this.settings.budget.describe()}).`, undefined)
  }

  /** Calls a step's policy with the step's own stream and its view. */
  private callPolicy<A extends Json>(
    resolved: Extract<StepResolution<A>, { kind: 'call' }>,
    index: number,
    name: string,
  ): A | PromiseLike<A> {
    const { seed, rollout } = this.settings
    return resolved.policy(
      stepStream(seed, rollout, index),
      new PolicyView(name, index, resolved.sees, this, seed, rollout),
    )
  }

  /** The rest of {@link step} for a policy that returned a promise. */
  private async settlePolicy<A extends Json>(
    returned: PromiseLike<A>,
    index: number,
    name: string,
    context: Json | undefined,
    digest: string | null,
    resolved: StepResolution<A>,
    options: StepOptions<A>,
    miss: CassetteMiss | undefined,
  ): Promise<A> {
    try {
      return this.completePolicy(await returned, index, name, context, digest, resolved, options, miss)
    } catch (error) {
      this.abandon(index, name, error)
      miss?.cassette.release(miss.key)
      throw error
    }
  }

  /**
   * The rest of {@link step} for a live model call under a rate limit: wait for the limit, call
   * the policy, then count the call's tokens. Tokens are known only once the call returns, so they
   * are counted after it: later calls wait for them, this one could not.
   */
  private async limitedPolicy<A extends Json>(
    limit: ModelRateLimit,
    index: number,
    name: string,
    context: Json | undefined,
    digest: string | null,
    resolved: Extract<StepResolution<A>, { kind: 'call' }>,
    options: StepOptions<A>,
    miss: CassetteMiss | undefined,
  ): Promise<A> {
    try {
      await limit.acquire(this.signal)
      this.checkAlive()
      // Other rollouts may have spent the rest of the budget while this one waited.
      this.stopIfCostSpent()
      const returned = await this.callPolicy(resolved, index, name)
      await limit.recordTokens(callTokens(options.meta?.(returned)))
      return this.completePolicy(returned, index, name, context, digest, resolved, options, miss)
    } catch (error) {
      this.abandon(index, name, error)
      miss?.cassette.release(miss.key)
      throw error
    }
  }

  /** Records the action a policy returned; returns it to hand to the agent. */
  private completePolicy<A extends Json>(
    returned: A,
    index: number,
    name: string,
    context: Json | undefined,
    digest: string | null,
    resolved: StepResolution<A>,
    options: StepOptions<A>,
    miss: CassetteMiss | undefined,
  ): A {
    this.checkAlive()
    const action = isJsonPrimitive(returned)
      ? returned
      : copyJson(returned, `The action of step ${index} "${name}"`)
    const record: StepRecord = {
      index,
      name,
      action,
      context,
      contextDigest: digest,
      source: resolved.source,
      diverged: resolved.diverged,
      policyCalled: true,
    }
    if (miss !== undefined) record.cassette = 'miss'
    const step = this.complete(record, options)
    // The cassette keeps its own copy: a predicate may mutate the trajectory it is handed.
    if (miss !== undefined) {
      const where = `The action of step ${index} "${name}"`
      const meta = step.meta === undefined ? undefined : (copyJson(step.meta, where) as Step['meta'])
      miss.cassette.recordStep(miss.key, miss.call, copyJson(step.action, where), meta)
    }
    return returned
  }

  /** Records a step that has its action, charging its cost to the rollout and the budget. */
  private complete<A extends Json>(record: StepRecord, options: StepOptions<A>): Step {
    const { index, name, action, context, contextDigest } = record
    // Keys in schema order, so a trajectory prints the same before and after a file round trip.
    const step: Omit<Step, 'observations'> & { observations?: Observation[] } =
      context === undefined
        ? { index, name, action, contextDigest, source: record.source }
        : { index, name, action, context, contextDigest, source: record.source }
    if (record.diverged) step.diverged = true
    // Only a policy call costs money; a held or forced step costs nothing.
    if (record.policyCalled && options.costUsd !== undefined) {
      const cost = options.costUsd(action as A)
      if (!(cost >= 0 && cost < Infinity)) {
        throw new CausalReplayError(
          `The costUsd of step ${index} "${name}" must be a non-negative number, got ${cost}.`,
        )
      }
      step.costUsd = cost
      this.costUsd += cost
      this.settings.budget.chargeCost(cost)
    }
    if (record.cassette !== undefined) step.cassette = record.cassette
    // A hit spent nothing; what the call would have cost is what the cassette saved.
    if (record.cassette === 'hit' && options.costUsd !== undefined) {
      const saved = options.costUsd(action as A)
      if (saved >= 0 && saved < Infinity) step.savedUsd = saved
    }
    if (record.storedMeta !== undefined) {
      step.meta = copyJson(record.storedMeta, `The stored meta of step ${index} "${name}"`) as Step['meta']
    } else if (options.meta !== undefined) {
      step.meta = copyJson(options.meta(action as A), `The meta of step ${index} "${name}"`) as Step['meta']
    }
    step.observations = this.observations[index] as Observation[]
    this.steps[index] = step as Step
    if (options.model !== undefined) this.chargeModelCall(record, step as Step)
    return step as Step
  }

  /**
   * Counts a model step on the budget, for the verdict's cost: a live call with its tokens (from
   * the meta the adapters record) and its price, or a cassette hit with what it saved. A held or
   * forced step called nothing and is not a model call of this run.
   */
  private chargeModelCall(record: StepRecord, step: Step): void {
    if (record.cassette === 'hit') {
      this.settings.budget.chargeModelCall({
        kind: 'cassette-hit',
        savedUsd: step.savedUsd,
        reused: record.reused === true,
      })
    } else if (record.policyCalled) {
      this.settings.budget.chargeModelCall({
        kind: 'live',
        inputTokens: tokenCount(step.meta?.['inputTokens']),
        outputTokens: tokenCount(step.meta?.['outputTokens']),
        usd: step.costUsd,
      })
    }
  }

  /** A step that will not complete: give its index back if nothing came after it, else remember the gap. */
  private abandon(index: number, name: string, error: unknown): void {
    if (this.finished) return
    if (index === this.observations.length - 1) this.observations.pop()
    else this.failedStep ??= { index, name, message: errorMessage(error) }
  }

  async tool<R extends Json | undefined>(
    name: string,
    args: Json,
    impl: (args: Json) => R | Promise<R>,
    options?: ToolOptions,
  ): Promise<R> {
    this.checkAlive()
    if (++this.toolCalls > this.settings.maxSteps) {
      throw new MaxStepsExceededError(
        `The rollout made more than maxSteps (${this.settings.maxSteps}) tool calls; the agent seems to loop (last tool "${name}").`,
      )
    }
    const recordedArgs = copyJson(args, `The arguments of tool call "${name}"`)
    const stepIndex = this.observations.length - 1
    const observations = stepIndex === -1 ? this.preamble : (this.observations[stepIndex] as Observation[])
    const position = observations.length
    let positionOfTool = 0
    for (const observation of observations) if (observation.tool === name) positionOfTool++
    const directive = this.settings.plan.tool({ step: stepIndex, position, positionOfTool, tool: name })
    if (directive.kind === 'recorded') {
      const result = directive.recorded.result
      observations.push(observation(name, recordedArgs, result, 'recorded'))
      return (result === undefined ? undefined : copyJson(result, `The recorded result of "${name}"`)) as R
    }
    if (directive.kind === 'replaced') {
      observations.push(observation(name, recordedArgs, directive.result, 'replaced'))
      return copyJson(directive.result, `The replacement result of "${name}"`) as R
    }
    let miss: { cassette: Cassette; key: string; call: ToolCallKey } | undefined
    let reserved = false
    const { cassette } = this
    if (cassette !== undefined && options?.cache === true) {
      const { seed, rollout } = this.settings
      const call: ToolCallKey = {
        tool: name,
        args: recordedArgs,
        stream: { seed, rollout, step: stepIndex, position },
      }
      let lookup = cassette.findTool(call)
      if (lookup.kind === 'pending') {
        // Another rollout is making this call: hold the position (parallel calls of this step
        // may land meanwhile), and take its answer.
        observations.push({ tool: name, args: recordedArgs, error: TOOL_STILL_RUNNING, source: 'live' })
        reserved = true
        while (lookup.kind === 'pending') {
          await lookup.settled
          this.checkAlive()
          lookup = cassette.findTool(call)
        }
      }
      if (lookup.kind === 'hit') {
        const stored = observation(name, recordedArgs, lookup.entry.result, 'live')
        if (reserved) observations[position] = stored
        else observations.push(stored)
        const { result } = lookup.entry
        return (result === undefined ? undefined : copyJson(result, `The stored result of "${name}"`)) as R
      }
      miss = { cassette, key: lookup.key, call }
    }
    // Reserve the position now (see the class comment); it stays marked if the rollout ends first.
    if (!reserved)
      observations.push({ tool: name, args: recordedArgs, error: TOOL_STILL_RUNNING, source: 'live' })
    let result: R
    try {
      result = await impl(args)
    } catch (error) {
      miss?.cassette.release(miss.key)
      if (!this.finished)
        observations[position] = {
          tool: name,
          args: recordedArgs,
          error: errorMessage(error),
          source: 'live',
        }
      throw error
    }
    try {
      this.checkAlive()
    } catch (error) {
      miss?.cassette.release(miss.key)
      throw error
    }
    const recordedResult =
      result === undefined ? undefined : copyJson(result, `The result of tool call "${name}"`)
    observations[position] = observation(name, recordedArgs, recordedResult, 'live')
    miss?.cassette.recordTool(miss.key, miss.call, recordedResult)
    return result
  }

  fail(error: unknown): void {
    if (error instanceof BudgetExceededError) this.stoppedByBudget = true
    this.error ??= classifyError(error)
  }

  /** Ends the rollout: later ctx calls throw; a signal handed out is aborted so leftover work stops. */
  end(): void {
    if (this.controller !== undefined && !this.controller.signal.aborted) {
      this.controller.abort(new RolloutAbortedError('The rollout has ended.'))
    }
    this.finished = true
  }

  /** The trajectory of the ended rollout. */
  finish(): Trajectory {
    this.finished = true
    const { scenario, settings } = this
    return assembleTrajectory({
      agent: scenario.agent.name,
      input: scenario.input as Json,
      seed: settings.seed,
      rollout: settings.rollout,
      intervention: settings.plan.label,
      preamble: this.preamble,
      steps: this.steps,
      failedStep: this.failedStep,
      output: this.output,
      error: this.error,
      heldSteps: this.heldSteps,
      matchedSteps: this.matchedSteps,
      costUsd: this.costUsd,
    })
  }
}

/**
 * The agent's `ctx`. A class rather than an object literal: the literal's `signal` getter was
 * defined by a runtime call on every rollout, and with the eagerly frozen `rollout` object it made
 * the recorder's constructor the second-largest self time of a warm contrastive profile.
 * `step` and `tool` stay own arrow functions, so an agent may pass them around detached.
 */
class RolloutContext implements AgentContext {
  readonly step: AgentContext['step']
  readonly tool: AgentContext['tool']
  readonly #recorder: TrajectoryRecorder
  readonly #seed: number
  readonly #index: number
  #rollout: RolloutInfo | undefined

  constructor(recorder: TrajectoryRecorder, seed: number, index: number) {
    this.#recorder = recorder
    this.#seed = seed
    this.#index = index
    this.step = (name, policy, options) => recorder.step(name, policy, options)
    this.tool = (name, args, impl, options) => recorder.tool(name, args, impl, options)
  }

  /** Made on first read, since the AbortController it creates is only for agents that use it. */
  get signal(): AbortSignal {
    return this.#recorder.signal
  }

  /** Made on first read: few agents look at it. */
  get rollout(): RolloutInfo {
    return (this.#rollout ??= Object.freeze({ seed: this.#seed, index: this.#index }))
  }
}

/**
 * What a policy sees. A class rather than a literal because one is made for every step; `seed` and
 * `signal` are prototype getters, so a policy that reads neither (a synthetic one) does not pay for
 * the provider seed's hash or the rollout's AbortController.
 */
class PolicyView implements StepView {
  // Native private fields: invisible to spreads and to printing the view.
  readonly #recorder: TrajectoryRecorder
  readonly #runSeed: number
  readonly #rollout: number

  constructor(
    readonly name: string,
    readonly index: number,
    readonly context: Json | undefined,
    recorder: TrajectoryRecorder,
    runSeed: number,
    rollout: number,
  ) {
    this.#recorder = recorder
    this.#runSeed = runSeed
    this.#rollout = rollout
  }

  get seed(): number {
    return providerSeed(this.#runSeed, this.#rollout, this.index)
  }

  get signal(): AbortSignal {
    return this.#recorder.signal
  }
}

function observation(
  tool: string,
  args: Json,
  result: Json | undefined,
  source: Observation['source'],
): Observation {
  return result === undefined ? { tool, args, source } : { tool, args, result, source }
}

/** A token count from a step's meta: the adapters record `inputTokens` and `outputTokens` when the provider reports them. */
function tokenCount(value: Json | undefined): number {
  return typeof value === 'number' && value >= 0 && Number.isFinite(value) ? value : 0
}

/** Input plus output tokens of a call, from the meta its step will record. */
function callTokens(meta: JsonObject | undefined): number {
  return tokenCount(meta?.['inputTokens']) + tokenCount(meta?.['outputTokens'])
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}
