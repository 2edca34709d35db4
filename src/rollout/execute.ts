import type { AgentContext, Policy, Scenario, StepOptions, StepView } from '../agent/types.js'
import {
  BudgetExceededError,
  CausalReplayError,
  MaxStepsExceededError,
  RolloutAbortedError,
  RolloutTimeoutError,
} from '../errors.js'
import { contextDigest, copyJson, isJsonPrimitive, type Json } from '../json.js'
import { providerSeed, stepStream } from '../random/streams.js'
import type { Observation, RolloutError, Step, StepSource, Trajectory } from '../trajectory/schema.js'
import { assembleTrajectory, type FailedStep } from './assemble-trajectory.js'
import type { Budget } from './budget.js'
import { classifyError, errorMessage } from './classify-error.js'
import type { Plan } from './plan.js'
import { resolveStep } from './resolve-step.js'

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
  // A module-level callback with the recorder as its argument: no closure per rollout.
  // setTimeout fires at once for delays past 2^31 − 1 ms (about 24.8 days); such a limit is no
  // limit in practice, so it is left to the deadline check alone.
  const timer =
    settings.timeoutMs <= MAX_TIMER_MS ? setTimeout(timeOut, settings.timeoutMs, recorder) : undefined

  try {
    // Cancelled before it began: the agent does not run at all.
    recorder.throwIfStopped()
    // The agent may never look at its signal (a hang on a promise that never settles), so the race
    // ends the rollout on a stop whatever the agent does.
    const output = await Promise.race([runAgent(scenario, recorder.context), recorder.stopped])
    recorder.throwIfStopped()
    if (output !== undefined)
      recorder.output = copyJson(output, `The output of agent "${scenario.agent.name}"`)
  } catch (error) {
    recorder.fail(error)
  } finally {
    clearTimeout(timer)
    if (onOuterAbort !== undefined) outer?.removeEventListener('abort', onOuterAbort)
  }
  // Stop any work the agent left running (a hung tool call) and make its later ctx calls throw.
  recorder.end()
  return { trajectory: recorder.finish(), stoppedByBudget: recorder.stoppedByBudget }
}

function timeOut(recorder: TrajectoryRecorder): void {
  recorder.timeOut()
}

async function runAgent(scenario: Scenario<unknown, unknown>, context: AgentContext): Promise<unknown> {
  // Each rollout gets its own copy of the input: an agent that mutates it must not change the
  // input of later rollouts (or the recorded input).
  return scenario.agent.run(copyJson(scenario.input, 'The scenario input'), context)
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
  /** Rejects when the rollout is stopped (timeout, cancellation); never resolves. */
  readonly stopped: Promise<never>
  output: Json | undefined
  stoppedByBudget = false
  /** Finished steps by index; a hole is a step still running (or one whose policy failed). */
  private readonly steps: Array<Step | undefined> = []
  /** The observation lists of every step started so far, by index (a step's tool calls land here). */
  private readonly observations: Observation[][] = []
  private readonly preamble: Observation[] = []
  private readonly deadline: number
  private error: RolloutError | undefined
  private stopReason: Error | undefined
  private rejectStopped: ((reason: Error) => void) | undefined
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

  constructor(
    private readonly scenario: Scenario<unknown, unknown>,
    private readonly settings: RolloutSettings,
  ) {
    this.deadline = performance.now() + settings.timeoutMs
    this.stopped = new Promise<never>((_, reject) => {
      this.rejectStopped = reject
    })
    this.stopped.catch(() => {})
    const signal = () => this.signal
    this.context = {
      step: (name, policy, options) => this.step(name, policy, options),
      tool: (name, args, impl) => this.tool(name, args, impl),
      // A getter, so that the AbortController is only made for agents that read it.
      get signal() {
        return signal()
      },
      rollout: Object.freeze({ seed: settings.seed, index: settings.rollout }),
    }
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

  /** Stops the rollout: the race in executeRollout rejects with `reason`, the signal aborts. */
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

  private async step<A extends Json>(
    name: string,
    policy: Policy<A>,
    options: StepOptions<A> = NO_OPTIONS,
  ): Promise<A> {
    this.checkAlive()
    const index = this.observations.length
    if (index >= this.settings.maxSteps) {
      throw new MaxStepsExceededError(
        `The rollout took more than maxSteps (${this.settings.maxSteps}) steps; the agent seems to loop (last step "${name}").`,
      )
    }
    // A snapshot: agents keep appending to the message list they pass as context.
    const context =
      options.context === undefined
        ? undefined
        : copyJson(options.context, `The context of step ${index} "${name}"`)
    const digest = context === undefined ? null : contextDigest(context)
    const directive = this.settings.plan.step(index, name)
    // Counted before resolving: a divergence that ends the rollout still counts its step as held.
    if (directive.kind === 'hold') this.heldSteps++
    const resolved = resolveStep(
      directive,
      { index, name, policy, agentContext: options.context, context, contextDigest: digest },
      this.settings.onDivergence,
    )
    if (resolved.matched) this.matchedSteps++

    // Reserve the index now (see the class comment); tool calls from here on attach to this step.
    this.observations.push([])
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
        return copyJson(resolved.action, where) as A
      }
      if (this.settings.budget.costExhausted) {
        this.stoppedByBudget = true
        throw new BudgetExceededError(
          `The cost budget is spent (${this.settings.budget.describe()}).`,
          undefined,
        )
      }
      const { seed, rollout } = this.settings
      let returned = resolved.policy(
        stepStream(seed, rollout, index),
        new PolicyView(name, index, resolved.sees, this, seed, rollout),
      )
      if (isPromiseLike(returned)) returned = await returned
      this.checkAlive()
      const action = isJsonPrimitive(returned)
        ? returned
        : copyJson(returned, `The action of step ${index} "${name}"`)
      this.complete(
        {
          index,
          name,
          action,
          context,
          contextDigest: digest,
          source: resolved.source,
          diverged: resolved.diverged,
          policyCalled: true,
        },
        options,
      )
      return returned
    } catch (error) {
      this.abandon(index, name, error)
      throw error
    }
  }

  /** Records a step that has its action, charging its cost to the rollout and the budget. */
  private complete<A extends Json>(record: StepRecord, options: StepOptions<A>): void {
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
    if (options.meta !== undefined) {
      step.meta = copyJson(options.meta(action as A), `The meta of step ${index} "${name}"`) as Step['meta']
    }
    step.observations = this.observations[index] as Observation[]
    this.steps[index] = step as Step
  }

  /** A step that will not complete: give its index back if nothing came after it, else remember the gap. */
  private abandon(index: number, name: string, error: unknown): void {
    if (this.finished) return
    if (index === this.observations.length - 1) this.observations.pop()
    else this.failedStep ??= { index, name, message: errorMessage(error) }
  }

  private async tool<R extends Json | undefined>(
    name: string,
    args: Json,
    impl: (args: Json) => R | Promise<R>,
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
    // Reserve the position now (see the class comment); it stays marked if the rollout ends first.
    observations.push({ tool: name, args: recordedArgs, error: TOOL_STILL_RUNNING, source: 'live' })
    let result: R
    try {
      result = await impl(args)
    } catch (error) {
      if (!this.finished)
        observations[position] = {
          tool: name,
          args: recordedArgs,
          error: errorMessage(error),
          source: 'live',
        }
      throw error
    }
    this.checkAlive()
    const recordedResult =
      result === undefined ? undefined : copyJson(result, `The result of tool call "${name}"`)
    observations[position] = observation(name, recordedArgs, recordedResult, 'live')
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

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}
