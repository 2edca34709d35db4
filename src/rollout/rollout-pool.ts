import type { Scenario } from '../agent/types.js'
import type { Trajectory } from '../trajectory/schema.js'
import { accountOf } from './budget.js'
import { executeRollout, type RolloutResult } from './execute.js'
import type { Execution } from './options.js'
import type { Plan } from './plan.js'
import { isPromiseLike } from './promise-like.js'

/** One rollout for the pool: rollout `rollout` of `plan` under `seed`. */
export interface PooledRollout {
  readonly seed: number
  readonly rollout: number
  readonly plan: Plan
  /** Default: the execution's `timeoutMs`. Less when the test's deadline is nearer when it is submitted. */
  readonly timeoutMs?: number
  /** Default: the execution's `signal`. Cancels this rollout alone (it should include the execution's). */
  readonly signal?: AbortSignal
}

/**
 * What every rollout of a pool shares: the caller's execution context (its `concurrency` bounds the
 * rollouts in flight over every `run` of the pool), the scenario, and what a divergence does.
 */
export interface RolloutPoolSettings {
  execution: Execution
  scenario: Scenario<unknown, unknown>
  /** `count`: divergences of held steps are only counted; `error`: one ends its rollout as an error. */
  onDivergence: 'count' | 'error'
}

/** What the pool does around each rollout it runs. */
export interface PoolHandlers<T extends PooledRollout, R> {
  /** Called once the rollout is charged, before it runs (also for one the cost limit then stops). */
  started?: (task: T) => void
  /**
   * Called with each finished rollout inside its pool slot, so async work on it (an LLM judge)
   * runs as concurrently as the rollouts; its value is the rollout's entry in `finished`. A rollout
   * the cost limit stopped midway is not an outcome and never gets here.
   */
  finished: (task: T, trajectory: Trajectory) => R | Promise<R>
  /** Default: none. Called with a rollout the cost limit stopped midway, which is not an outcome. */
  stopped?: (task: T, trajectory: Trajectory) => void
}

/**
 * How a `run` of the pool ended: every rollout finished (`done`), or the budget was spent or the
 * signal aborted before all of them did. `finished` holds the values of the rollouts that
 * finished, in submission order, whichever way the run ended.
 */
export interface PoolResult<R> {
  readonly ended: 'done' | 'budget' | 'cancelled'
  readonly finished: readonly R[]
}

/**
 * A run submitted tentatively ({@link RolloutPool.submit}): its rollouts queue and start like any
 * other's, but whether it is needed is decided later, by {@link confirm} or {@link withdraw}.
 */
export interface PoolSubmission<R> {
  /** How the run ended; a withdrawn run ends `cancelled` with nothing finished. */
  readonly result: Promise<PoolResult<R>>
  /** The run is needed: it becomes an ordinary run, and a charge it waits for is tried for real. */
  confirm(): void
  /**
   * The run is not needed: its rollouts not started never start, and the charges of those that
   * started are given back (the caller cancels them through their signal). Returns how many had
   * started: run ahead and cut off.
   */
  withdraw(): number
}

/**
 * The one pool every batch of rollouts runs through: `runRollouts`, `replay`, the sampling gates
 * and the attribution arms.
 *
 * Why budget and order live here: every rollout is charged when the pool starts it, and the pool
 * starts rollouts in submission order (over every `run`, which share `concurrency`), so with a
 * rollout limit of M exactly the first M submitted rollouts run, at any concurrency. Once a charge
 * fails, or the cost limit (`maxCostUsd`) stops a rollout midway, no later rollout of the pool
 * starts: a spent budget is a way for a run to end (`ended: 'budget'`), returned as data for the
 * caller to report, never thrown. Where the money runs out under a cost limit may depend on timing.
 *
 * Tentative runs ({@link submit}) let a caller queue work it may not need (an attribution's next
 * looks, while the current one runs) without moving where the budget runs out: a tentative rollout
 * is charged when it starts, like any other, but a charge that fails does not spend the budget; the
 * queue waits there until the run is confirmed (the charge is tried again, for real) or withdrawn
 * (the charges of its started rollouts are given back). With confirmed runs queued before tentative
 * ones, the rollouts a caller confirms are charged as if only they had been submitted.
 *
 * Why it schedules by hand (after Vitest's `limitConcurrency`, but over batches): a slot per task
 * as a promise, an async function per rollout and `Promise.allSettled` over a batch were a quarter
 * of what a cold attribution allocated. Here a batch waits in a FIFO with a cursor, a slot is a
 * counter, and a rollout whose handler answers synchronously settles without another promise.
 */
export class RolloutPool {
  /** Rollouts charged and started, over every `run` (those the cost limit stopped included), net of withdrawn ones. */
  started = 0
  /** Rollouts of withdrawn runs that had started: charged while they ran, then given back. */
  cutOff = 0
  /** True once a charge failed or the cost limit stopped a rollout: nothing more starts. */
  budgetSpent = false
  /** Rollouts in flight. */
  private running = 0
  /** Batches with rollouts not started yet, in submission order; `head` is the first. */
  private readonly waiting: Array<PoolBatch<PooledRollout, unknown>> = []
  private head = 0
  /** True while {@link startWaiting} runs, so a rollout that settles synchronously does not re-enter it. */
  private starting = false
  /** True while the head of the queue is a tentative rollout whose charge failed: nothing starts. */
  private parked = false

  constructor(private readonly settings: RolloutPoolSettings) {}

  /**
   * Runs `tasks` in order and returns when each has finished or been refused. Errors thrown by a
   * handler propagate once every rollout of the batch has settled (the first in submission order, so
   * the same one at any concurrency): a scoring function that fails is a bug to fix, not an outcome.
   */
  run<T extends PooledRollout, R>(tasks: readonly T[], handlers: PoolHandlers<T, R>): Promise<PoolResult<R>> {
    return new Promise<PoolResult<R>>((resolve, reject) => {
      this.enqueue(tasks, handlers, false, resolve, reject)
    })
  }

  /**
   * Queues `tasks` as {@link run} does; `tentative`: until it is confirmed, a charge one of its
   * rollouts cannot get holds the queue instead of spending the budget (see the class comment).
   */
  submit<T extends PooledRollout, R>(
    tasks: readonly T[],
    handlers: PoolHandlers<T, R>,
    tentative: boolean,
  ): PoolSubmission<R> {
    let batch: PoolBatch<T, R> | undefined
    const result = new Promise<PoolResult<R>>((resolve, reject) => {
      batch = this.enqueue(tasks, handlers, tentative, resolve, reject)
    })
    const submitted = batch as PoolBatch<T, R>
    return {
      result,
      confirm: () => this.confirm(submitted),
      withdraw: () => this.withdraw(submitted),
    }
  }

  private enqueue<T extends PooledRollout, R>(
    tasks: readonly T[],
    handlers: PoolHandlers<T, R>,
    tentative: boolean,
    resolve: (result: PoolResult<R>) => void,
    reject: (error: unknown) => void,
  ): PoolBatch<T, R> {
    const batch: PoolBatch<T, R> = {
      tasks,
      handlers,
      next: 0,
      unsettled: tasks.length,
      values: new Array<R | typeof NOT_RUN>(tasks.length),
      failure: undefined,
      tentative,
      withdrawn: false,
      charged: 0,
      resolve,
      reject,
    }
    if (tasks.length === 0) {
      this.settle(batch)
      return batch
    }
    this.waiting.push(batch as unknown as PoolBatch<PooledRollout, unknown>)
    this.startWaiting()
    return batch
  }

  private confirm<T extends PooledRollout, R>(batch: PoolBatch<T, R>): void {
    if (!batch.tentative || batch.withdrawn) return
    batch.tentative = false
    this.unpark()
  }

  private withdraw<T extends PooledRollout, R>(batch: PoolBatch<T, R>): number {
    if (batch.withdrawn) return 0
    batch.withdrawn = true
    // Given back now, not when the cancelled rollouts settle: a charge the queue waits for is tried
    // again right away, so where the budget runs out does not depend on how fast they stop.
    const cut = batch.charged
    if (cut > 0) accountOf(this.settings.execution.budget).refundRollouts(cut)
    batch.charged = 0
    this.started -= cut
    this.cutOff += cut
    const skipped = batch.tasks.length - batch.next
    batch.next = batch.tasks.length
    batch.unsettled -= skipped
    if (skipped > 0 && batch.unsettled === 0) this.settle(batch)
    this.unpark()
    return cut
  }

  private unpark(): void {
    this.parked = false
    this.startWaiting()
  }

  /** Starts waiting rollouts, in submission order, while a slot is free. */
  private startWaiting(): void {
    if (this.starting) return
    this.starting = true
    const { waiting } = this
    while (!this.parked && this.running < this.settings.execution.concurrency && this.head < waiting.length) {
      const batch = waiting[this.head] as PoolBatch<PooledRollout, unknown>
      // A withdrawn run leaves nothing to start.
      if (batch.next === batch.tasks.length) {
        this.popHead()
        continue
      }
      let charged = false
      if (batch.tentative && !this.budgetSpent) {
        const task = batch.tasks[batch.next] as PooledRollout
        if (!(task.signal ?? this.settings.execution.signal)?.aborted) {
          if (!accountOf(this.settings.execution.budget).tryChargeRollouts(1)) {
            // Not a spent budget yet: the queue waits here until the run is confirmed or withdrawn.
            this.parked = true
            break
          }
          charged = true
        }
      }
      const index = batch.next++
      if (batch.next === batch.tasks.length) this.popHead()
      this.running++
      this.startOne(batch, index, charged)
    }
    this.starting = false
  }

  private popHead(): void {
    const { waiting } = this
    waiting[this.head++] = undefined as unknown as PoolBatch<PooledRollout, unknown>
    // An array with a moving head avoids O(n) shifts; emptied, it starts over.
    if (this.head === waiting.length) {
      waiting.length = 0
      this.head = 0
    }
  }

  /** Starts rollout `index` of `batch`, or refuses it (a spent budget, an aborted signal). */
  private startOne<T extends PooledRollout, R>(
    batch: PoolBatch<T, R>,
    index: number,
    charged: boolean,
  ): void {
    const { settings } = this
    const { execution } = settings
    const task = batch.tasks[index] as T
    const signal = task.signal ?? execution.signal
    if (!charged && (this.budgetSpent || signal?.aborted)) {
      this.done(batch, index, NOT_RUN)
      return
    }
    let running: Promise<RolloutResult>
    try {
      // Charged before it starts, so the rollout limit holds at any concurrency.
      if (!charged && !accountOf(execution.budget).tryChargeRollouts(1)) {
        this.budgetSpent = true
        this.done(batch, index, NOT_RUN)
        return
      }
      batch.charged++
      this.started++
      batch.handlers.started?.(task)
      running = executeRollout(settings.scenario, {
        seed: task.seed,
        rollout: task.rollout,
        plan: task.plan,
        execution,
        timeoutMs: task.timeoutMs ?? execution.timeoutMs,
        signal,
        onDivergence: settings.onDivergence,
      })
    } catch (error) {
      this.failed(batch, index, error)
      return
    }
    running.then(
      (result) => this.finishOne(batch, index, result),
      (error: unknown) => this.failed(batch, index, error),
    )
  }

  /** Hands a finished rollout to the batch's `finished` handler, waiting for it if it is async. */
  private finishOne<T extends PooledRollout, R>(
    batch: PoolBatch<T, R>,
    index: number,
    { trajectory, stoppedByBudget }: RolloutResult,
  ): void {
    // A withdrawn run's rollouts were cut off: not outcomes, and their charges were given back.
    if (batch.withdrawn) {
      this.done(batch, index, NOT_RUN)
      return
    }
    if (stoppedByBudget) {
      // The cost limit was reached mid-rollout: not an outcome, and nothing more may start.
      this.budgetSpent = true
      batch.handlers.stopped?.(batch.tasks[index] as T, trajectory)
      this.done(batch, index, NOT_RUN)
      return
    }
    let value: R | Promise<R>
    try {
      value = batch.handlers.finished(batch.tasks[index] as T, trajectory)
    } catch (error) {
      this.failed(batch, index, error)
      return
    }
    if (isPromiseLike(value)) {
      Promise.resolve(value).then(
        (settled) => this.done(batch, index, settled),
        (error: unknown) => this.failed(batch, index, error),
      )
    } else {
      this.done(batch, index, value)
    }
  }

  private failed<T extends PooledRollout, R>(batch: PoolBatch<T, R>, index: number, error: unknown): void {
    if (batch.withdrawn) {
      this.done(batch, index, NOT_RUN)
      return
    }
    // The first failure in submission order, so the same one at any concurrency.
    if (batch.failure === undefined || index < batch.failure.index) batch.failure = { index, error }
    this.done(batch, index, NOT_RUN)
  }

  /** A rollout settled: its slot goes to the next waiting one, and its batch ends with its last. */
  private done<T extends PooledRollout, R>(
    batch: PoolBatch<T, R>,
    index: number,
    value: R | typeof NOT_RUN,
  ): void {
    batch.values[index] = value
    this.running--
    if (--batch.unsettled === 0) this.settle(batch)
    this.startWaiting()
  }

  private settle<T extends PooledRollout, R>(batch: PoolBatch<T, R>): void {
    if (batch.withdrawn) {
      batch.resolve({ ended: 'cancelled', finished: [] })
      return
    }
    if (batch.failure !== undefined) {
      batch.reject(batch.failure.error)
      return
    }
    const finished: R[] = []
    for (const value of batch.values) if (value !== NOT_RUN) finished.push(value as R)
    const ended = this.settings.execution.signal?.aborted ? 'cancelled' : this.budgetSpent ? 'budget' : 'done'
    batch.resolve({ ended, finished })
  }
}

/** One `run` of the pool: its rollouts, how far it has started them, and what they gave. */
interface PoolBatch<T extends PooledRollout, R> {
  readonly tasks: readonly T[]
  readonly handlers: PoolHandlers<T, R>
  /** The next rollout to start. */
  next: number
  /** Rollouts not settled yet. */
  unsettled: number
  readonly values: Array<R | typeof NOT_RUN>
  /** The failure of the first rollout in submission order that failed. */
  failure: { index: number; error: unknown } | undefined
  /** True until a tentative run is confirmed (see {@link RolloutPool.submit}). */
  tentative: boolean
  /** True once a tentative run was withdrawn: nothing more starts, and what settles is dropped. */
  withdrawn: boolean
  /** Rollouts of the run charged to the budget, given back if it is withdrawn. */
  charged: number
  readonly resolve: (result: PoolResult<R>) => void
  readonly reject: (error: unknown) => void
}

/** A rollout the pool refused, the cost limit stopped or whose handler failed: it has no value. */
const NOT_RUN: unique symbol = Symbol('not run')
