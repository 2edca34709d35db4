import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defineAgent } from '../../../src/index.js'
import { Budget } from '../../../src/rollout/budget.js'
import { createExecution } from '../../../src/rollout/options.js'
import { SAMPLE_EVERYTHING } from '../../../src/rollout/plan.js'
import {
  RolloutPool,
  type PooledRollout,
  type RolloutPoolSettings,
} from '../../../src/rollout/rollout-pool.js'

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Rollout r waits `delays[r]` timer ticks; the pool's view of how many run at once is tracked. */
function delayedPool(delays: readonly number[], concurrency: number, budget = new Budget()) {
  const state = { running: 0, peak: 0 }
  const agent = defineAgent({
    name: 'delayed',
    input: null,
    async run(_input, ctx) {
      state.running++
      state.peak = Math.max(state.peak, state.running)
      for (let d = 0; d < (delays[ctx.rollout.index] ?? 0); d++) await tick()
      state.running--
      return ctx.rollout.index
    },
  })
  const settings: RolloutPoolSettings = {
    execution: createExecution({ concurrency, budget, timeoutMs: 60_000, maxSteps: 100 }),
    scenario: agent.on(null) as RolloutPoolSettings['scenario'],
    onDivergence: 'count',
  }
  return { pool: new RolloutPool(settings), state }
}

const tasks = (from: number, to: number): PooledRollout[] =>
  Array.from({ length: to - from }, (_, i) => ({ seed: 1, rollout: from + i, plan: SAMPLE_EVERYTHING }))

describe('RolloutPool', () => {
  it('property: never runs more than the limit at once, starts rollouts in order, and runs them all', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 30 }),
        fc.boolean(),
        async (concurrency, delays, asyncHandler) => {
          const { pool, state } = delayedPool(delays, concurrency)
          const started: number[] = []
          const result = await pool.run(tasks(0, delays.length), {
            started: (task) => started.push(task.rollout),
            finished: (task, trajectory) =>
              asyncHandler ? tick().then(() => trajectory.output) : trajectory.output,
          })
          expect(result).toEqual({ ended: 'done', finished: delays.map((_, i) => i) })
          expect(started).toEqual(delays.map((_, i) => i))
          expect(pool.started).toBe(delays.length)
          expect(state.peak).toBeLessThanOrEqual(concurrency)
          if (delays.length >= concurrency && delays.every((d) => d > 0)) expect(state.peak).toBe(concurrency)
        },
      ),
      { numRuns: 60, seed: 7 },
    )
  })

  it('shares its slots between runs and starts a later run after the rollouts queued before it', async () => {
    const { pool, state } = delayedPool([2, 1, 3, 1, 2, 1], 2)
    const started: number[] = []
    const handlers = {
      started: (task: PooledRollout) => started.push(task.rollout),
      finished: (task: PooledRollout) => task.rollout,
    }
    const [first, second] = await Promise.all([
      pool.run(tasks(0, 3), handlers),
      pool.run(tasks(3, 6), handlers),
    ])
    expect(first.finished).toEqual([0, 1, 2])
    expect(second.finished).toEqual([3, 4, 5])
    expect(started).toEqual([0, 1, 2, 3, 4, 5])
    expect(state.peak).toBe(2)
  })

  it('runs every rollout of a batch whose handler fails, then throws the first failure in submission order', async () => {
    const { pool } = delayedPool([3, 0, 1, 0], 4)
    const finished: number[] = []
    const run = pool.run(tasks(0, 4), {
      finished: (task) => {
        finished.push(task.rollout)
        if (task.rollout === 1) throw new Error('sync failure of 1')
        if (task.rollout === 0) return Promise.reject(new Error('async failure of 0'))
        return task.rollout
      },
    })
    await expect(run).rejects.toThrow('async failure of 0')
    expect([...finished].sort()).toEqual([0, 1, 2, 3])
  })

  it('refuses every rollout after the budget is spent, in submission order, and says so', async () => {
    const { pool } = delayedPool([1, 0, 1, 0, 1], 3, new Budget({ maxRollouts: 3 }))
    const result = await pool.run(tasks(0, 5), { finished: (task) => task.rollout })
    expect(result).toEqual({ ended: 'budget', finished: [0, 1, 2] })
    expect(pool.started).toBe(3)
    expect(await pool.run(tasks(5, 7), { finished: (task) => task.rollout })).toEqual({
      ended: 'budget',
      finished: [],
    })
    expect(await pool.run([], { finished: () => 0 })).toEqual({ ended: 'budget', finished: [] })
  })
})

describe('RolloutPool tentative runs', () => {
  it('charges a confirmed run as if the withdrawn one queued before it had never been submitted', async () => {
    const budget = new Budget({ maxRollouts: 5 })
    const { pool } = delayedPool([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 8, budget)
    const first = pool.run(tasks(0, 2), { finished: (_task, trajectory) => trajectory.output })
    // Three tentative rollouts: all start (5 charged), and the next run waits behind them.
    const ahead = pool.submit(tasks(2, 5), { finished: (_task, trajectory) => trajectory.output }, true)
    const later = pool.submit(tasks(5, 8), { finished: (_task, trajectory) => trajectory.output }, true)
    expect(budget.spentRollouts).toBe(5)
    await first
    // Withdrawn: its charges come back, and the later run gets them, in order, until the budget is spent.
    expect(ahead.withdraw()).toBe(3)
    expect(pool.cutOff).toBe(3)
    expect(budget.spentRollouts).toBe(5)
    later.confirm()
    expect(await ahead.result).toEqual({ ended: 'cancelled', finished: [] })
    expect(await later.result).toEqual({ ended: 'done', finished: [5, 6, 7] })
    expect(pool.started).toBe(5)
    expect(pool.budgetSpent).toBe(false)
  })

  it('waits at a tentative charge the budget refuses, and spends the budget there once confirmed', async () => {
    const budget = new Budget({ maxRollouts: 3 })
    const { pool } = delayedPool([1, 1, 1, 1, 1, 1], 8, budget)
    const first = pool.run(tasks(0, 2), { finished: (_task, trajectory) => trajectory.output })
    const ahead = pool.submit(tasks(2, 5), { finished: (_task, trajectory) => trajectory.output }, true)
    expect(budget.spentRollouts).toBe(3)
    expect(pool.budgetSpent).toBe(false)
    await first
    expect(pool.budgetSpent).toBe(false)
    ahead.confirm()
    expect(await ahead.result).toEqual({ ended: 'budget', finished: [2] })
    expect(pool.budgetSpent).toBe(true)
  })
})
