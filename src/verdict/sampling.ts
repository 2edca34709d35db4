import type { Scenario } from '../agent/types.js'
import { CausalReplayError, judgeErrorIn } from '../errors.js'
import { describeReceived } from '../options/received.js'
import { createExecution, type Execution } from '../rollout/options.js'
import { SAMPLE_EVERYTHING } from '../rollout/plan.js'
import { OrderedRollouts } from '../rollout/ordered-rollouts.js'
import { isPromiseLike } from '../rollout/promise-like.js'
import { runPlannedBatch, type PlannedBatch } from '../rollout/run-rollouts.js'
import { checkPredicateResult } from '../trajectory/predicate-result.js'
import type { Predicate } from '../trajectory/queries.js'
import type { RolloutError, Trajectory } from '../trajectory/schema.js'
import type { ResolvedCommon } from './options.js'
import type { SequentialStop, Verdict } from './schema.js'
import type { GateSubject } from './gate.js'

/** How many error examples a verdict keeps. */
export const ERROR_EXAMPLES = 3

/**
 * What the sampling loop needs of a gate's running account: rollouts fed in index order, and the
 * error outcomes among them. {@link OutcomeTally} scores a predicate; the score gate's tally a scorer.
 */
export interface RolloutTally {
  /** Rollouts started and finished (completed or errored), in all. */
  readonly rollouts: number
  readonly errorCount: number
  readonly errorExamples: ReadonlyArray<{ rollout: number; error: RolloutError }>
  /** Scores the next rollout, in index order. */
  add(trajectory: Trajectory): Promise<void>
  /**
   * Optional: starts scoring finished rollouts as they finish, before {@link add} takes them in index
   * order, so an async predicate (a judge's model call) runs as concurrently as the rollouts did.
   */
  prefetch?(trajectories: readonly Trajectory[]): void
  /**
   * True once a prefetched score was asynchronous (a judge's model call): prefetches past the
   * deciding rollout are then paid for, so the sampling loop finishes the reading batch whole to
   * make their count a function of the seed.
   */
  readonly prefetchPays?: boolean
}

/** A tally's account of error outcomes, which every gate keeps alike. */
interface ErrorOutcomes {
  errorCount: number
  readonly errorExamples: Array<{ rollout: number; error: RolloutError }>
  firstError: Trajectory | null
}

/**
 * Counts an error outcome on a tally: one more error, an example while fewer than
 * {@link ERROR_EXAMPLES} are kept, and the run itself when it is the first (callers go in rollout
 * order, so "first" means lowest index).
 */
export function countErrorOutcome(tally: ErrorOutcomes, trajectory: Trajectory, error: RolloutError): void {
  tally.errorCount++
  if (tally.errorExamples.length < ERROR_EXAMPLES)
    tally.errorExamples.push({ rollout: trajectory.rollout, error })
  tally.firstError ??= trajectory
}

/**
 * The running account of a gate: completed rollouts, how often the predicate held, error
 * outcomes, and the first "bad" rollout (the one attribution explains). Only the first bad and
 * first errored trajectories are kept, so a long gate does not hold every run in memory.
 *
 * Gates feed it one rollout at a time in index order and ask their stopping rule after each, so
 * a verdict depends on the seed alone, never on `concurrency`: rollouts the pool ran past the
 * deciding one are not scored.
 */
export class OutcomeTally implements RolloutTally {
  /** Rollouts started and finished (completed or errored), in all. */
  rollouts = 0
  /** Completed rollouts: the denominator of the rate. */
  n = 0
  /** Completed rollouts where the predicate held. */
  successes = 0
  errorCount = 0
  readonly errorExamples: Array<{ rollout: number; error: RolloutError }> = []
  /** The first completed rollout (by index) whose outcome goes against the claim. */
  firstBad: Trajectory | null = null
  /** The first rollout (by index) that ended in an error. */
  firstError: Trajectory | null = null
  /** Completed rollouts whose outcome goes against the claim. */
  bad = 0
  /** Each scored rollout's outcome in index order: `1` the predicate held, `0` not, `-` an error. */
  readonly outcomes: Array<'1' | '0' | '-'> = []

  /** True once a prefetched predicate answered with a promise (see {@link RolloutTally.prefetchPays}). */
  prefetchPays = false

  // Predicate results started by `prefetch`, taken by `add` in index order.
  private readonly started = new Map<Trajectory, Promise<unknown>>()

  constructor(
    private readonly predicate: Predicate,
    /** True when the predicate marks the bad outcome (`toRarely`, `toNever`), false when it marks the good one. */
    private readonly predicateIsBad: boolean,
    private readonly label: string,
  ) {}

  /**
   * Scores the next rollout (callers go in rollout order, so "first" means lowest index). A
   * predicate that throws or returns a non-boolean is a bug in the test: it throws.
   */
  async add(trajectory: Trajectory): Promise<void> {
    this.rollouts++
    if (trajectory.error !== undefined) {
      countErrorOutcome(this, trajectory, trajectory.error)
      this.outcomes.push('-')
      return
    }
    let holds: boolean
    try {
      holds = await this.evaluate(trajectory, trajectory.rollout)
    } catch (error) {
      // A judge that could not answer is an error outcome of the run it judged, as an agent's
      // error is; the run is kept with the error on it, so it is shown (and never attributed) as one.
      const judged = judgeErrorIn(error)
      if (judged === undefined) throw error
      const outcome: RolloutError = { kind: judged.kind, name: judged.name, message: judged.message }
      countErrorOutcome(this, { ...trajectory, error: outcome }, outcome)
      this.outcomes.push('-')
      return
    }
    this.outcomes.push(holds ? '1' : '0')
    this.n++
    if (holds) this.successes++
    if (holds === this.predicateIsBad) {
      this.bad++
      this.firstBad ??= trajectory
    }
  }

  /**
   * Whether a completed trajectory goes against the claim (used again by attribution). Its errors
   * name no rollout: a replay rollout's index means nothing next to the gate's, so attribution
   * reports it apart (see `diagnose`).
   */
  isBad(trajectory: Trajectory): Promise<boolean> {
    return this.evaluate(trajectory, null).then((holds) => holds === this.predicateIsBad)
  }

  /**
   * Starts the predicate on completed rollouts as they finish. Results do not depend on it: a
   * judge's answer is a function of its run's stream, so only the wall time changes (and, as for
   * rollouts, judge calls on rollouts past the deciding one are paid for).
   */
  prefetch(trajectories: readonly Trajectory[]): void {
    for (const trajectory of trajectories) {
      if (trajectory.error !== undefined || this.started.has(trajectory)) continue
      const result = Promise.resolve().then(() => {
        const value = this.predicate(trajectory)
        if (isPromiseLike(value)) this.prefetchPays = true
        return value
      })
      // A result never taken (the gate stopped first) must not surface as an unhandled rejection.
      result.catch(() => {})
      this.started.set(trajectory, result)
    }
  }

  private async evaluate(trajectory: Trajectory, rollout: number | null): Promise<boolean> {
    let value: unknown
    try {
      const started = rollout === null ? undefined : this.started.get(trajectory)
      if (started !== undefined) this.started.delete(trajectory)
      value = await (started ?? this.predicate(trajectory))
    } catch (error) {
      if (judgeErrorIn(error) !== undefined) throw error
      const where = rollout === null ? '' : ` on rollout ${rollout}`
      throw new CausalReplayError(`The predicate "${this.label}" threw${where}: ${thrownMessage(error)}`, {
        cause: error,
      })
    }
    return checkPredicateResult(value, {
      caller: `the predicate "${this.label}"`,
      option: 'predicate',
      rollout,
    })
  }
}

/** What a thrown value says: an Error's message, a thrown string as is, anything else described. */
export function thrownMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return typeof error === 'string' ? error : describeReceived(error)
}

/**
 * Runs rollouts `first … first + count − 1` of `scenario` in the gate's execution context, each
 * under `timeoutMs` (each on its own streams (seed, r, j), so batches add up to exactly the
 * rollouts one big run would give). A spent budget ends the batch with the rollouts that finished;
 * an aborted signal throws (the test is being stopped).
 */
export async function runBatch(
  scenario: Scenario<unknown, unknown>,
  { execution, seed }: ResolvedCommon,
  first: number,
  count: number,
  timeoutMs: number,
): Promise<PlannedBatch> {
  const batch = { seed, first, rollouts: count }
  return runPlannedBatch(
    scenario,
    SAMPLE_EVERYTHING,
    createExecution({ ...execution, timeoutMs }),
    batch,
    'count',
  )
}

/** Why {@link sampleInOrder} stopped. */
export type SamplingEnd =
  | 'exhausted' // every rollout up to the limit was scored
  | 'stopped' // the gate's stopping rule answered
  | 'error' // an error outcome, and errors are not allowed
  | 'budget' // the budget ran out
  | 'deadline' // the test's timeout was near, so no further rollout started

/** How the sampling loop's end reads in the verdict of a gate that samples until its test answers. */
export const SEQUENTIAL_STOPS: Readonly<Record<SamplingEnd, SequentialStop>> = {
  exhausted: 'max-rollouts',
  stopped: 'decided',
  error: 'error',
  budget: 'budget',
  deadline: 'deadline',
}

/** What {@link sampleInOrder} did. */
export interface Sampling {
  end: SamplingEnd
  /**
   * Rollouts that ran, scored or not: the pool runs ahead of the one being scored, so some ran
   * past the deciding one (those in flight then were cancelled, and counted as aborted).
   */
  rolloutsRun: number
  /**
   * The rollout timeout of the first rollout (by index) the test's deadline shortened (the time
   * left in the test when it started), or null when every rollout got the full `timeoutMs`.
   */
  cappedTimeoutMs: number | null
}

/**
 * The rollout timeout a rollout starting now gets: `timeoutMs`, or less when the test's deadline
 * is nearer, so that a hanging rollout becomes a `timeout` error before the test itself times out.
 * Null when the deadline has passed (no rollout may start).
 */
export function rolloutTimeout(execution: Execution, now: number = Date.now()): number | null {
  if (execution.deadline === undefined) return execution.timeoutMs
  const left = Math.floor(execution.deadline.at - now)
  if (left <= 0) return null
  return Math.min(execution.timeoutMs, left)
}

/**
 * The sampling loop every gate shares: rollouts `0 … limit − 1` through a work-conserving pool
 * (`concurrency` in flight, the next started as soon as any slot frees), fed to `tally` one at a
 * time in index order. After each, an error outcome ends the loop unless errors are allowed, and
 * `shouldStop(trajectory)` (the gate's stopping rule) may end it; the rollouts still in flight are
 * then cancelled and counted as aborted. Scoring in index order is what makes the verdict
 * independent of `concurrency` and of the order rollouts finish in.
 */
export async function sampleInOrder(
  scenario: Scenario<unknown, unknown>,
  options: ResolvedCommon,
  limit: number,
  tally: RolloutTally,
  shouldStop: (trajectory: Trajectory) => boolean,
): Promise<Sampling> {
  const { execution } = options
  const stream = new OrderedRollouts({
    scenario,
    plan: SAMPLE_EVERYTHING,
    seed: options.seed,
    first: 0,
    limit,
    execution,
    timeoutNow: () => rolloutTimeout(execution),
    onFinished: tally.prefetch === undefined ? undefined : (trajectory) => tally.prefetch?.([trajectory]),
    keepReadingBatch: () => tally.prefetchPays === true,
  })
  let cappedTimeoutMs: number | null = null
  let end: SamplingEnd
  try {
    end = await scoreInOrder(stream, execution, options.allowErrors, tally, shouldStop, (timeoutMs) => {
      cappedTimeoutMs ??= timeoutMs
    })
  } finally {
    await stream.close()
  }
  return { end, rolloutsRun: stream.started, cappedTimeoutMs }
}

/** Feeds the stream's rollouts to `tally` in index order until one ends the loop; says why it ended. */
async function scoreInOrder(
  stream: OrderedRollouts,
  execution: Execution,
  allowErrors: boolean,
  tally: RolloutTally,
  shouldStop: (trajectory: Trajectory) => boolean,
  capped: (timeoutMs: number) => void,
): Promise<SamplingEnd> {
  for (;;) {
    const next = await stream.next()
    if (next.kind === 'end') return next.end
    const { trajectory, timeoutMs } = next
    const shortened = timeoutMs < execution.timeoutMs
    if (shortened) {
      capped(timeoutMs)
      nameTimeoutCap(trajectory, execution, timeoutMs)
    }
    await tally.add(trajectory)
    // A rollout cut short by the test's deadline, not by the user's own `timeoutMs`, says
    // nothing against the agent: it is shown as a timeout, but the gate stops undecided there.
    if (shortened && trajectory.error?.kind === 'timeout') return 'deadline'
    if (tally.errorCount > 0 && !allowErrors) return 'error'
    if (shouldStop(trajectory)) return 'stopped'
  }
}

/**
 * A rollout timed out under a `timeoutMs` the test's deadline capped: its error names the cap, not
 * only the `timeoutMs` it ran under, which the user never set ("exceeded timeoutMs (1461 ms)" while
 * theirs is 60,000).
 */
function nameTimeoutCap(trajectory: Trajectory, execution: Execution, timeoutMs: number): void {
  const error = trajectory.error
  if (error?.kind !== 'timeout' || execution.deadline === undefined) return
  error.message = `The rollout ran into the test's deadline: timeoutMs (${count(execution.timeoutMs)} ms) was capped at the ${count(timeoutMs)} ms left before the test's timeout (${count(execution.deadline.testTimeoutMs)} ms); raise the test's timeout to give rollouts their timeoutMs.`
}

/** An integer with thousands separators. */
function count(value: number): string {
  return value.toLocaleString('en-US')
}

/** The fields of a verdict every gate takes from who asserted what, its options and its tally. */
export function tallyFields(
  subject: Omit<GateSubject, 'predicate'>,
  options: ResolvedCommon,
  tally: RolloutTally,
  sampling: Sampling,
): Pick<
  Verdict,
  | 'agent'
  | 'predicate'
  | 'confidence'
  | 'errors'
  | 'rolloutsUsed'
  | 'rolloutsRun'
  | 'seed'
  | 'seedSource'
  | 'allowErrors'
  | 'testTimeout'
> {
  const { deadline, timeoutMs } = options.execution
  const cut = deadline !== undefined && (sampling.cappedTimeoutMs !== null || sampling.end === 'deadline')
  return {
    agent: subject.agent,
    predicate: subject.label,
    confidence: options.confidence,
    errors: { count: tally.errorCount, examples: [...tally.errorExamples] },
    rolloutsUsed: tally.rollouts,
    rolloutsRun: sampling.rolloutsRun,
    seed: options.seed,
    seedSource: subject.seedSource,
    allowErrors: options.allowErrors,
    // Only when the test's timeout shortened something, so the message can name the option to raise.
    ...(cut
      ? {
          testTimeout: {
            testTimeoutMs: deadline.testTimeoutMs,
            rolloutTimeoutMs: sampling.cappedTimeoutMs ?? timeoutMs,
          },
        }
      : {}),
  }
}

/**
 * The run attribution explains: none for a passing gate; the first error outcome when one stopped
 * the gate; otherwise the first rollout against the claim.
 */
export function failingRun(
  tally: OutcomeTally,
  kind: Verdict['kind'],
  stop: Verdict['stop'],
): Trajectory | null {
  if (kind === 'pass') return null
  return stop === 'error' ? tally.firstError : tally.firstBad
}
