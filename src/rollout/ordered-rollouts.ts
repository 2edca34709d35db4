import type { Scenario } from '../agent/types.js'
import { cassetteOf } from '../cassette/attach.js'
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
   * Default: none. Called with each rollout of the reading batch (see {@link OrderedRollouts}) as
   * it finishes, in finishing order: a tally starts scoring it there (an async judge) while earlier
   * ones still run. A rollout of a later batch is handed over once the reader reaches its batch.
   */
  readonly onFinished?: ((trajectory: Trajectory) => void) | undefined
  /**
   * Default: never. Whether {@link OrderedRollouts.close} lets the reading batch finish instead of
   * cancelling it: true when `onFinished` pays for what it starts (a judge's model call), so that
   * how many it started is a function of the seed.
   */
  readonly keepReadingBatch?: (() => boolean) | undefined
}

/** The next rollout in index order, or why there is none. */
export type NextRollout =
  | { readonly kind: 'rollout'; readonly trajectory: Trajectory; readonly timeoutMs: number }
  | { readonly kind: 'end'; readonly end: 'exhausted' | 'budget' | 'deadline' }

/** One rollout of the stream: running, finished, refused (by the budget or the deadline), or failed (it threw). */
type Entry =
  | { state: 'running'; readonly timeoutMs: number; readonly stop: AbortController }
  | { state: 'finished'; readonly trajectory: Trajectory; readonly timeoutMs: number }
  | { state: 'refused'; readonly end: 'budget' | 'deadline' }
  | { state: 'failed'; readonly error: unknown }

/**
 * The work-conserving pool of a sampling gate: keeps `concurrency` rollouts in flight, starting the
 * next index as soon as any slot frees (not when the slowest of a batch has finished), and hands
 * them out strictly in index order, so a gate that reads them one by one decides on the same
 * rollouts at any concurrency and in any finishing order: its verdict is a function of the seed.
 *
 * What a claim pays for must be a function of the seed too wherever it is kept or counted: the
 * calls a cassette records (a warm run must find every call it needs), and the judge calls on
 * rollouts past the deciding one. Both are bounded by the *reading batch*: the rollouts
 * `k·c … (k + 1)·c − 1` holding the one the gate reads next, the batch lockstep would be running.
 * `onFinished` (the judge) sees only rollouts of the reading batch or earlier; and a stream whose
 * scenario goes through a cassette starts rollouts in lockstep batches, since a rollout running
 * ahead of its batch would make live calls the gate may never read, cut short at a point that
 * depends on timing. {@link close} then lets the reading batch finish rather than cancel it, so
 * such a stream makes and records exactly the calls lockstep batches make.
 *
 * {@link close} ends it once the gate has decided: rollouts not started never start, and those in
 * flight (past the reading batch, or all of them when nothing above needs the batch whole) are
 * cancelled through their signal (the adapters pass it to the SDK call), each counted on the
 * budget account as aborted in flight with the model calls it had made and the ones it cut.
 */
export class OrderedRollouts {
  /** Rollouts started (charged to the budget), scored or not. */
  started = 0
  private readonly entries: Entry[] = []
  private readonly pool: RolloutPool
  private readonly outer: AbortSignal | undefined
  /** True when the scenario goes through a cassette: lockstep batches, and the last one finished whole. */
  private readonly recording: boolean
  private running = 0
  /** The index (from `first`) of the next rollout {@link next} hands out. */
  private consumed = 0
  /** The index {@link next} was last asked for: its batch is the reading batch. */
  private reading = 0
  /** Finished rollouts past the reading batch, held back from `onFinished` until the reader gets there. */
  private readonly heldBack = new Map<number, Trajectory>()
  /** Wakes {@link next} while it waits for the rollout it hands out next. */
  private wake: (() => void) | undefined
  /** True once the budget or the deadline refused a rollout: no later one starts. */
  private refused = false
  /** True once {@link close} was called: only rollouts of the reading batch may still start. */
  private closing = false
  /** Called once no rollout is running, while {@link close} waits for that. */
  private idle: (() => void) | undefined

  constructor(private readonly settings: OrderedRolloutsSettings) {
    const { execution, scenario } = settings
    this.outer = execution.signal
    this.recording = cassetteOf(scenario.agent) !== undefined
    this.pool = new RolloutPool({ execution, scenario, onDivergence: 'count' })
  }

  /**
   * The next rollout in index order, waiting for it to finish; starts more while slots are free.
   * Throws a `RolloutAbortedError` when the caller's signal aborts, and what a rollout threw.
   */
  async next(): Promise<NextRollout> {
    if (this.consumed >= this.settings.limit) return { kind: 'end', end: 'exhausted' }
    this.reading = this.consumed
    this.handOverHeldBack()
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
   * aborted) except, when a cassette or `keepReadingBatch` needs it whole, the reading batch, which
   * runs to its end; resolves once every rollout has settled, so the cost is final.
   */
  async close(): Promise<void> {
    this.closing = true
    const keepBatch = this.recording || this.settings.keepReadingBatch?.() === true
    // Started in index order: a batch cut by a refusal aside, the reading batch is already running.
    if (keepBatch) this.fill()
    this.refused = true
    const kept = keepBatch ? this.batchEnd() : 0
    for (const [index, entry] of this.entries.entries())
      if (index >= kept && entry.state === 'running')
        entry.stop.abort(new RolloutAbortedError('The claim has decided.'))
    if (this.running === 0) return
    await new Promise<void>((resolve) => (this.idle = resolve))
  }

  /** The end (exclusive) of the reading batch: the batch of `concurrency` holding the rollout read next. */
  private batchEnd(): number {
    const { concurrency } = this.settings.execution
    return Math.min(this.settings.limit, (Math.floor(this.reading / concurrency) + 1) * concurrency)
  }

  /** Starts rollouts while a slot is free, up to the lookahead past the next one to hand out. */
  private fill(): void {
    const { limit, execution } = this.settings
    const { concurrency } = execution
    // Lockstep, the schedule the gates had before this stream (kept for `bench/wall-time.ts`), starts
    // rollouts only in batches of `concurrency`, each once the one before has been handed out.
    const lockstep = execution.lockstep === true || this.recording
    if (lockstep && !this.closing && (this.running > 0 || this.consumed < this.entries.length)) return
    const ahead = lockstep ? concurrency : concurrency + (concurrency - 1) * LOOKAHEAD_ROUNDS
    const end = this.closing ? this.batchEnd() : Math.min(limit, this.consumed + ahead)
    while (!this.refused && this.running < concurrency && this.entries.length < end) {
      const index = this.entries.length
      const timeoutMs = this.settings.timeoutNow()
      if (timeoutMs === null) {
        this.refuse(index, 'deadline')
        return
      }
      const stop = new AbortController()
      this.entries.push({ state: 'running', timeoutMs, stop })
      this.start(index, timeoutMs, stop.signal)
    }
  }

  private start(index: number, timeoutMs: number, stop: AbortSignal): void {
    const { seed, plan, first } = this.settings
    const signal = this.outer === undefined ? stop : AbortSignal.any([this.outer, stop])
    this.running++
    const run = this.pool.run([{ seed, plan, rollout: first + index, timeoutMs, signal }], {
      started: () => this.started++,
      finished: (_task, trajectory) => {
        if (index < this.batchEnd()) this.settings.onFinished?.(trajectory)
        else this.heldBack.set(index, trajectory)
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
            // Refused: the budget was spent.
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

  /** Hands the rollouts held back to `onFinished` once the reading batch has reached them. */
  private handOverHeldBack(): void {
    if (this.heldBack.size === 0) return
    const end = this.batchEnd()
    for (const [index, trajectory] of this.heldBack) {
      if (index >= end) continue
      this.heldBack.delete(index)
      this.settings.onFinished?.(trajectory)
    }
  }

  /** Rollout `index` will not run, and no later one starts: the stream ends there for `end`. */
  private refuse(index: number, end: 'budget' | 'deadline'): void {
    this.refused = true
    this.entries[index] = { state: 'refused', end }
  }
}
