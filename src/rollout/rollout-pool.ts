import type { Scenario } from '../agent/types.js'
import type { Trajectory } from '../trajectory/schema.js'
import { accountOf } from './budget.js'
import { executeRollout } from './execute.js'
import type { Execution } from './options.js'
import type { Plan } from './plan.js'
import { limitConcurrency } from './pool.js'

/** One rollout for the pool: rollout `rollout` of `plan` under `seed`. */
export interface PooledRollout {
  readonly seed: number
  readonly rollout: number
  readonly plan: Plan
}

/**
 * What every rollout of a pool shares: the caller's execution context (its `concurrency` bounds the
 * rollouts in flight over every `run` of the pool), the scenario, and what a divergence does.
 */
export interface RolloutPoolSettings extends Execution {
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
 * The one pool every batch of rollouts runs through: `runRollouts`, `replay`, the sampling gates
 * and the attribution arms.
 *
 * Why budget and order live here: every rollout is charged when the pool starts it, and the pool
 * starts rollouts in submission order (over every `run`, which share `concurrency`), so with a
 * rollout limit of M exactly the first M submitted rollouts run, at any concurrency. Once a charge
 * fails, or the cost limit (`maxCostUsd`) stops a rollout midway, no later rollout of the pool
 * starts: a spent budget is a way for a run to end (`ended: 'budget'`), returned as data for the
 * caller to report, never thrown. Where the money runs out under a cost limit may depend on timing.
 */
export class RolloutPool {
  /** Rollouts charged and started, over every `run` (those the cost limit stopped included). */
  started = 0
  /** True once a charge failed or the cost limit stopped a rollout: nothing more starts. */
  budgetSpent = false
  private readonly limit: <T>(task: () => Promise<T>) => Promise<T>

  constructor(private readonly settings: RolloutPoolSettings) {
    this.limit = limitConcurrency(settings.concurrency)
  }

  /**
   * Runs `tasks` in order and returns when each has finished or been refused. Errors thrown by a
   * handler propagate once every rollout in flight has settled (the first in submission order, so
   * the same one at any concurrency): a scoring function that fails is a bug to fix, not an outcome.
   */
  async run<T extends PooledRollout, R>(
    tasks: readonly T[],
    handlers: PoolHandlers<T, R>,
  ): Promise<PoolResult<R>> {
    const settled = await Promise.allSettled(
      tasks.map((task) => this.limit(() => this.runOne(task, handlers))),
    )
    const finished: R[] = []
    for (const result of settled) {
      // The first failure in submission order, so the same one at any concurrency.
      if (result.status === 'rejected') throw result.reason
      if (result.value !== NOT_RUN) finished.push(result.value)
    }
    const ended = this.settings.signal?.aborted ? 'cancelled' : this.budgetSpent ? 'budget' : 'done'
    return { ended, finished }
  }

  private async runOne<T extends PooledRollout, R>(
    task: T,
    handlers: PoolHandlers<T, R>,
  ): Promise<R | typeof NOT_RUN> {
    const { settings } = this
    if (this.budgetSpent || settings.signal?.aborted) return NOT_RUN
    // Charged before it starts, so the rollout limit holds at any concurrency.
    if (!accountOf(settings.budget).tryChargeRollouts(1)) {
      this.budgetSpent = true
      return NOT_RUN
    }
    this.started++
    handlers.started?.(task)
    const { trajectory, stoppedByBudget } = await executeRollout(settings.scenario, {
      seed: task.seed,
      rollout: task.rollout,
      plan: task.plan,
      timeoutMs: settings.timeoutMs,
      maxSteps: settings.maxSteps,
      budget: settings.budget,
      signal: settings.signal,
      onDivergence: settings.onDivergence,
    })
    if (stoppedByBudget) {
      // The cost limit was reached mid-rollout: not an outcome, and nothing more may start.
      this.budgetSpent = true
      return NOT_RUN
    }
    return handlers.finished(task, trajectory)
  }
}

/** A rollout the pool refused or the cost limit stopped: it has no value. */
const NOT_RUN: unique symbol = Symbol('not run')
