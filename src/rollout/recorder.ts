import type { Scenario } from '../agent/types.js'
import { cassetteOf } from '../cassette/attach.js'
import type { Cassette } from '../cassette/cassette.js'
import { BudgetExceededError, RolloutAbortedError, RolloutTimeoutError } from '../errors.js'
import type { Json } from '../json.js'
import type { CaseRef, Observation, RolloutError, Step, Trajectory } from '../trajectory/schema.js'
import { assembleTrajectory, type FailedStep } from './assemble-trajectory.js'
import { accountOf } from './budget.js'
import type { BudgetAccount } from './budget-account.js'
import { classifyError, errorMessage } from './classify-error.js'
import type { Execution } from './options.js'
import type { Plan } from './plan.js'
import type { Watched } from './watchdog.js'

/** What a single rollout needs besides the scenario. */
export interface RolloutSettings {
  seed: number
  rollout: number
  plan: Plan
  /**
   * The call's execution context, which every rollout of the call shares: `maxSteps`, the budget
   * charged, the cap on live calls to one model (`modelConcurrency`, by default `concurrency`).
   */
  execution: Execution
  /** The execution's `timeoutMs`, or less for a rollout that started near the test's deadline. */
  timeoutMs: number
  /** The execution's signal, or this rollout's own (which aborts with it). */
  signal: AbortSignal | undefined
  /** `count`: divergences are only counted; `error`: a divergence ends the rollout as an error. */
  onDivergence: 'count' | 'error'
}

/**
 * One rollout's state while the agent runs: what it has recorded so far (steps, observations,
 * counts) and its lifecycle (stopped, timed out, ended). The step pipeline and tool calls write
 * into it; {@link finish} turns it into the trajectory.
 *
 * Steps and tool calls take their index (and so their random stream and their place in the
 * trajectory) when they are *called*, not when they finish: call order is deterministic, finish
 * order is not (concurrent steps, parallel tool calls with random latency).
 */
export class TrajectoryRecorder implements Watched {
  /** When the rollout times out (performance.now() time). */
  readonly deadline: number
  /** The account the rollout's cost and model calls are charged to. */
  readonly account: BudgetAccount
  /** The cassette this rollout's cacheable steps and tool calls go through, if any. */
  readonly cassette: Cassette | undefined
  /** Rejects the promise `executeRollout` awaits the agent's run through. */
  rejectStopped: ((reason: Error) => void) | undefined
  output: Json | undefined
  stoppedByBudget = false
  /** Finished steps by index; a hole is a step still running (or one whose policy failed). */
  readonly steps: Array<Step | undefined> = []
  /** The observation lists of every step started so far, by index (a step's tool calls land here). */
  readonly observations: Observation[][] = []
  /** Tool calls made before the first step. */
  readonly preamble: Observation[] = []
  toolCalls = 0
  heldSteps = 0
  matchedSteps = 0
  costUsd = 0
  /** Model steps recorded (live calls and cassette hits), for what an aborted rollout cost. */
  modelCalls = 0
  /** Live model calls started and not returned yet: those a cancellation cuts off. */
  liveCallsInFlight = 0
  /** True once the rollout has ended: later ctx calls throw. */
  finished = false
  /** Why the rollout was stopped (a timeout, a cancellation), once it was. */
  stopReason: Error | undefined
  // The watchdog's links (see watchdog.ts).
  watchedBefore: Watched | undefined
  watchedAfter: Watched | undefined
  isWatched = false
  private error: RolloutError | undefined
  // Created on first use: most agents never read their signal, and an AbortController per rollout
  // (plus its abort event) is a large share of the engine's overhead on fast agents.
  private controller: AbortController | undefined
  /** The first step whose policy failed while a later step had already started (a gap). */
  private failedStep: FailedStep | undefined

  constructor(
    readonly scenario: Scenario<unknown, unknown>,
    readonly settings: RolloutSettings,
    /** The dataset case the rollout runs, when its scenario is over a dataset. */
    readonly caseRef?: CaseRef,
  ) {
    // No limit, no clock: a deadline of Infinity is never passed, so its checks read no clock.
    this.deadline = settings.timeoutMs === Infinity ? Infinity : performance.now() + settings.timeoutMs
    this.account = accountOf(settings.execution.budget)
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
  checkAlive(): void {
    if (this.stopReason !== undefined) throw this.stopReason
    if (this.finished) throw new RolloutAbortedError('The rollout has ended.')
    // A loop of awaits on settled promises never yields to timers, so the deadline is also
    // checked here, at every step and tool call.
    if (this.deadline !== Infinity && performance.now() > this.deadline) {
      const timeout = new RolloutTimeoutError(
        `The rollout exceeded timeoutMs (${this.settings.timeoutMs} ms).`,
      )
      this.stop(timeout)
      throw timeout
    }
  }

  /** No policy call may start once the cost limit is reached: the rollout stops as budget-stopped. */
  stopIfCostSpent(): void {
    if (!this.account.costExhausted) return
    this.stoppedByBudget = true
    throw new BudgetExceededError(`The cost budget is spent (${this.account.describe()}).`, undefined)
  }

  /** A step that will not complete: give its index back if nothing came after it, else remember the gap. */
  abandon(index: number, name: string, error: unknown): void {
    if (this.finished) return
    if (index === this.observations.length - 1) this.observations.pop()
    else this.failedStep ??= { index, name, message: errorMessage(error) }
  }

  /** Records the error that ended the agent's run (the first one counts). */
  fail(error: unknown): void {
    // By the record's name, not `instanceof`: the agent may have thrown a Proxy whose traps throw.
    const record = classifyError(error)
    if (record.name === 'BudgetExceededError') this.stoppedByBudget = true
    this.error ??= record
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
    const trajectory = assembleTrajectory({
      agent: scenario.agent.name,
      input: scenario.input as Json,
      seed: settings.seed,
      rollout: settings.rollout,
      case: this.caseRef,
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
    // The trajectory has its own copy of the steps, and nothing records into an ended rollout.
    // Emptied, the recorder's lists hold no young steps: V8 may have made them in the old
    // generation (allocation-site pretenuring), and an old array, even a dead one, keeps what it
    // points to alive through every scavenge until the next full collection.
    this.steps.length = 0
    this.observations.length = 0
    return trajectory
  }
}
