import type { Scenario } from '../agent/types.js'
import { RolloutAbortedError } from '../errors.js'
import type { Trajectory } from '../trajectory/schema.js'
import type { Execution } from './options.js'
import type { Plan } from './plan.js'
import { RolloutPool } from './rollout-pool.js'

/**
 * How far past the next rollout to hand out the stream may run, in rounds of `concurrency − 1`
 * beyond the `concurrency` in flight. Rollouts finish out of order; while the next one in index
 * order still runs, the other slots go on with later ones until the stream is this far ahead, and
 * only then wait. Every rollout past the one a claim decides on is paid for and never scored (run to
 * the end, or cancelled in flight): at most (1 + rounds)(c − 1) of them, none at concurrency 1, where
 * each rollout starts once the one before it is handed out. Measured at concurrency 8 with
 * lognormal call latency (`bench/wall-time.ts`): a passing gate of 71 rollouts took 1.42× the
 * work-conserving limit at σ = 1 with one round, 1.23× with two and 1.19× with three, running 9 to
 * 22 rollouts past the decision, against 2.5× and one past it in lockstep batches.
 */
export const LOOKAHEAD_ROUNDS = 2

/** What a stream of rollouts runs: rollouts `first … first + limit − 1` of `plan` under `seed`. */
export interface OrderedRolloutsSettings {
  readonly scenario: Scenario<unknown, unknown>
  readonly plan: Plan
  readonly seed: number
  readonly first: number
  readonly limit: number
  readonly execution: Execution
  /**
   * The timeout a rollout starting now gets: `timeoutMs`, less when the test's deadline is nearer,
   * or null once no rollout may start (the deadline has passed).
   */
  readonly timeoutNow: () => number | null
  /**
   * Default: none. Called with each rollout as it finishes, in finishing order: a tally starts
   * scoring it there (an async judge) while earlier ones still run.
   */
  readonly onFinished?: ((trajectory: Trajectory) => void) | undefined
  /**
   * Default false. Start rollouts only in batches of `concurrency`, each once the one before has
   * finished and been handed out: the schedule the sampling gates had before this stream, kept
   * so `bench/wall-time.ts` measures both side by side in one run.
   * @internal
   */
  readonly lockstep?: boolean | undefined
}

/** The next rollout in index order, or why there is none. */
export type NextRollout =
  | { readonly kind: 'rollout'; readonly trajectory: Trajectory; readonly timeoutMs: number }
  | { readonly kind: 'end'; readonly end: 'exhausted' | 'budget' | 'deadline' }

/** One rollout of the stream: running, finished, refused (by the budget or the deadline), or failed (it threw). */
type Entry =
  | { state: 'running'; readonly timeoutMs: number }
  | { state: 'finished'; readonly trajectory: Trajectory; readonly timeoutMs: number }
  | { state: 'refused'; readonly end: 'budget' | 'deadline' }
  | { state: 'failed'; readonly error: unknown }

/**
 * The work-conserving pool of a sampling gate: keeps `concurrency` rollouts in flight, starting the
 * next index as soon as any slot frees (not when the slowest of a batch has finished), and hands
 * them out strictly in index order, so a gate that reads them one by one decides on the same
 * rollouts at any concurrency and in any finishing order: its verdict is a function of the seed.
 *
 * {@link close} ends it once the gate has decided: rollouts not started never start, and those in
 * flight are cancelled through their signal (the adapters pass it to the SDK call), each counted on
 * the budget account as aborted in flight with the model calls it had made and the ones it cut.
 */
export class OrderedRollouts {
  /** Rollouts started (charged to the budget), scored or not. */
  started = 0
  private readonly entries: Entry[] = []
  private readonly pool: RolloutPool
  private readonly stop = new AbortController()
  private readonly outer: AbortSignal | undefined
  private running = 0
  /** The index (from `first`) of the next rollout {@link next} hands out. */
  private consumed = 0
  /** Wakes {@link next} while it waits for the rollout it hands out next. */
  private wake: (() => void) | undefined
  /** True once the budget or the deadline refused a rollout: no later one starts. */
  private refused = false
  /** Called once no rollout is running, while {@link close} waits for that. */
  private idle: (() => void) | undefined

  constructor(private readonly settings: OrderedRolloutsSettings) {
    const { execution, scenario } = settings
    this.outer = execution.signal
    const signal =
      this.outer === undefined ? this.stop.signal : AbortSignal.any([this.outer, this.stop.signal])
    this.pool = new RolloutPool({ ...execution, signal, scenario, onDivergence: 'count' })
  }

  /**
   * The next rollout in index order, waiting for it to finish; starts more while slots are free.
   * Throws a `RolloutAbortedError` when the caller's signal aborts, and what a rollout threw.
   */
  async next(): Promise<NextRollout> {
    if (this.consumed >= this.settings.limit) return { kind: 'end', end: 'exhausted' }
    this.fill()
    let entry = this.entries[this.consumed]
    while (entry === undefined || entry.state === 'running') {
      await new Promise<void>((resolve) => (this.wake = resolve))
      this.wake = undefined
      entry = this.entries[this.consumed]
    }
    if (entry.state === 'failed') throw entry.error
    if (entry.state === 'refused') return { kind: 'end', end: entry.end }
    this.consumed++
    return { kind: 'rollout', trajectory: entry.trajectory, timeoutMs: entry.timeoutMs }
  }

  /**
   * Ends the stream: nothing more starts, the rollouts in flight are cancelled (and counted as
   * aborted), and it resolves once they have settled, so their cost is final.
   */
  async close(): Promise<void> {
    this.refused = true
    if (this.running === 0) return
    this.stop.abort(new RolloutAbortedError('The claim has decided.'))
    await new Promise<void>((resolve) => (this.idle = resolve))
  }

  /** Starts rollouts while a slot is free, up to the lookahead past the next one to hand out. */
  private fill(): void {
    const { limit, execution, lockstep } = this.settings
    const { concurrency } = execution
    if (lockstep === true && (this.running > 0 || this.consumed < this.entries.length)) return
    const ahead = lockstep === true ? concurrency : concurrency + (concurrency - 1) * LOOKAHEAD_ROUNDS
    while (
      !this.refused &&
      this.running < concurrency &&
      this.entries.length < limit &&
      this.entries.length < this.consumed + ahead
    ) {
      const index = this.entries.length
      const timeoutMs = this.settings.timeoutNow()
      if (timeoutMs === null) {
        this.refuse(index, 'deadline')
        return
      }
      this.entries.push({ state: 'running', timeoutMs })
      this.start(index, timeoutMs)
    }
  }

  private start(index: number, timeoutMs: number): void {
    const { seed, plan, first } = this.settings
    this.running++
    const run = this.pool.run([{ seed, plan, rollout: first + index, timeoutMs }], {
      started: () => this.started++,
      finished: (_task, trajectory) => {
        this.settings.onFinished?.(trajectory)
        return trajectory
      },
    })
    void run
      .then(
        ({ ended, finished }) => {
          const [trajectory] = finished
          if (ended === 'cancelled' && this.outer?.aborted === true) {
            this.entries[index] = {
              state: 'failed',
              error: new RolloutAbortedError(`The rollouts were cancelled after ${this.started}.`),
            }
          } else if (trajectory !== undefined) {
            this.entries[index] = { state: 'finished', trajectory, timeoutMs }
          } else {
            // Refused: the budget was spent (or the stream closed, when nobody reads it any more).
            this.refuse(index, 'budget')
          }
        },
        (error: unknown) => {
          this.entries[index] = { state: 'failed', error }
        },
      )
      .then(() => {
        this.running--
        if (this.running === 0) this.idle?.()
        this.fill()
        this.wake?.()
      })
  }

  /** Rollout `index` will not run, and no later one starts: the stream ends there for `end`. */
  private refuse(index: number, end: 'budget' | 'deadline'): void {
    this.refused = true
    this.entries[index] = { state: 'refused', end }
  }
}
