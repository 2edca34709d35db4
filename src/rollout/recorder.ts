import type { Scenario } from '../agent/types.js'
import { cassetteOf } from '../cassette/attach.js'
import type { Cassette } from '../cassette/cassette.js'
import { BudgetExceededError, RolloutAbortedError, RolloutTimeoutError } from '../errors.js'
import type { Json } from '../json.js'
import type { CaseRef, Observation, RolloutError, Step, Trajectory } from '../trajectory/schema.js'
import { assembleTrajectory, type FailedStep } from './assemble-trajectory.js'
import { accountOf } from './budget.js'
import type { BudgetAccount, ModelCallCharge } from './budget-account.js'
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
 * counts) and its lifecycle (stopped, timed out, ended). Its state is its own: the step pipeline,
 * tool calls and the lifecycle change it only through the verbs below, so what a trajectory holds
 * has one writer; {@link finish} turns it into the trajectory.
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
  // The watchdog's links (see watchdog.ts).
  watchedBefore: Watched | undefined
  watchedAfter: Watched | undefined
  isWatched = false
  /** Rejects the promise `executeRollout` awaits the agent's run through. */
  private rejectStopped: ((reason: Error) => void) | undefined
  private output: Json | undefined
  private budgetStopped = false
  /** Finished steps by index; a hole is a step still running (or one whose policy failed). */
  private readonly steps: Array<Step | undefined> = []
  /** The observation lists of every step started so far, by index (a step's tool calls land here). */
  private readonly observations: Observation[][] = []
  /** Tool calls made before the first step. */
  private readonly preamble: Observation[] = []
  private toolCalls = 0
  private heldSteps = 0
  private matchedSteps = 0
  private costUsd = 0
  /** Model steps recorded (live calls and cassette hits), for what an aborted rollout cost. */
  private modelCalls = 0
  /** Live model calls started and not returned yet: those a cancellation cuts off. */
  private liveCallsInFlight = 0
  /** True once the rollout has ended: later ctx calls throw. */
  private ended = false
  /** Why the rollout was stopped (a timeout, a cancellation), once it was. */
  private stoppedBy: Error | undefined
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

  /** True once the rollout has ended: later ctx calls throw. */
  get finished(): boolean {
    return this.ended
  }

  /** Why the rollout was stopped (a timeout, a cancellation), once it was. */
  get stopReason(): Error | undefined {
    return this.stoppedBy
  }

  /** True when the rollout ran out of budget: not an outcome, left out of every rate. */
  get stoppedByBudget(): boolean {
    return this.budgetStopped
  }

  /** The rollout's signal: aborted when it times out, is cancelled, or ends with work still running. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController()
      if (this.stoppedBy !== undefined) this.controller.abort(this.stoppedBy)
      else if (this.ended) this.controller.abort(new RolloutAbortedError('The rollout has ended.'))
    }
    return this.controller.signal
  }

  /** Stops the rollout: the run executeRollout awaits rejects with `reason`, the signal aborts. */
  stop(reason: Error): void {
    if (this.stoppedBy !== undefined || this.ended) return
    this.stoppedBy = reason
    this.controller?.abort(reason)
    this.rejectStopped?.(reason)
  }

  /** Stops the rollout with a timeout error. */
  timeOut(): void {
    this.stop(new RolloutTimeoutError(`The rollout exceeded timeoutMs (${this.settings.timeoutMs} ms).`))
  }

  /** Throws the reason the rollout was stopped (timeout, cancellation), if it was. */
  throwIfStopped(): void {
    if (this.stoppedBy !== undefined) throw this.stoppedBy
  }

  /** Throws if the rollout was stopped, has ended, or is past its deadline. */
  checkAlive(): void {
    if (this.stoppedBy !== undefined) throw this.stoppedBy
    if (this.ended) throw new RolloutAbortedError('The rollout has ended.')
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
    this.budgetStopped = true
    throw new BudgetExceededError(`The cost budget is spent (${this.account.describe()}).`, undefined)
  }

  /** Hands `reject` the reason the rollout stops, if it does: it rejects the run `executeRollout` awaits. */
  rejectOnStop(reject: (reason: Error) => void): void {
    this.rejectStopped = reject
  }

  /** Keeps the agent's output (its own copy) for the trajectory. */
  recordOutput(output: Json): void {
    this.output = output
  }

  /** Charges what a rollout cancelled midway spent: its model calls, and the live ones it cut off. */
  chargeCancelled(): void {
    this.account.chargeAbortedRollout(this.modelCalls, this.liveCallsInFlight)
  }

  /** The index the next step reserves. */
  get nextStep(): number {
    return this.observations.length
  }

  /** Counts a step the plan holds, before it is resolved: a divergence that ends the rollout counts too. */
  countHeld(): void {
    this.heldSteps++
  }

  /**
   * Reserves the next step's index (see the class comment): tool calls from here on attach to it.
   * `matched`: the step's action matched the recording it replays.
   */
  reserveStep(matched: boolean): void {
    if (matched) this.matchedSteps++
    this.observations.push([])
  }

  /** The observation list of the reserved step `index`, which its trajectory step holds. */
  stepObservations(index: number): Observation[] {
    return this.observations[index] as Observation[]
  }

  /** Records the reserved step `index` as finished. */
  completeStep(index: number, step: Step): void {
    this.steps[index] = step
  }

  /** Charges a step's cost to the rollout and its budget account. */
  chargeCost(usd: number): void {
    this.costUsd += usd
    this.account.chargeCost(usd)
  }

  /** Counts a model step (a live call or a cassette hit) on the rollout and its account. */
  chargeModelCall(charge: ModelCallCharge): void {
    this.modelCalls++
    this.account.chargeModelCall(charge)
  }

  /** A live model call starts: a cancellation from now until {@link liveCallEnded} cuts it off. */
  liveCallStarted(): void {
    this.liveCallsInFlight++
  }

  /** A live model call has returned (or failed). */
  liveCallEnded(): void {
    this.liveCallsInFlight--
  }

  /** Counts a tool call; returns how many the rollout has made. */
  countToolCall(): number {
    return ++this.toolCalls
  }

  /** The step a tool call made now follows; -1 before the first step. */
  get currentStep(): number {
    return this.observations.length - 1
  }

  /**
   * The observation list a tool call made now after step `step` records into (the preamble's
   * before the first step). The call keeps it: if its step is given back meanwhile, the call's
   * observation lands in the list given back, not in the step that reuses the index.
   */
  observationsAfter(step: number): readonly Observation[] {
    return step === -1 ? this.preamble : (this.observations[step] as Observation[])
  }

  /** Appends a tool call's observation (or the placeholder of one running) to `list`; returns its position. */
  observe(list: readonly Observation[], observation: Observation): number {
    return (list as Observation[]).push(observation) - 1
  }

  /** Puts a tool call's settled observation at `position` of `list`; nothing once the rollout has ended. */
  settleObservation(list: readonly Observation[], position: number, observation: Observation): void {
    if (!this.ended) (list as Observation[])[position] = observation
  }

  /** A step that will not complete: give its index back if nothing came after it, else remember the gap. */
  abandon(index: number, name: string, error: unknown): void {
    if (this.ended) return
    if (index === this.observations.length - 1) this.observations.pop()
    else this.failedStep ??= { index, name, message: errorMessage(error) }
  }

  /** Records the error that ended the agent's run (the first one counts). */
  fail(error: unknown): void {
    // By the record's name, not `instanceof`: the agent may have thrown a Proxy whose traps throw.
    const record = classifyError(error)
    if (record.name === 'BudgetExceededError') this.budgetStopped = true
    this.error ??= record
  }

  /** Ends the rollout: later ctx calls throw; a signal handed out is aborted so leftover work stops. */
  end(): void {
    if (this.controller !== undefined && !this.controller.signal.aborted) {
      this.controller.abort(new RolloutAbortedError('The rollout has ended.'))
    }
    this.ended = true
  }

  /** The trajectory of the ended rollout. */
  finish(): Trajectory {
    this.ended = true
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
