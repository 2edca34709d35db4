import { describe, expect, it } from 'vitest'
import { Budget, defineAgent } from '../../../src/index.js'
import { record, replay, resample, RolloutSet, runRollouts } from '../../../src/entries/replay.js'
import { BudgetExceededError, RolloutAbortedError } from '../../../src/entries/errors.js'
import { coinAgent } from '../agents.js'
import { accountOf } from '../../../src/rollout/budget.js'

async function budgetError(promise: Promise<unknown>): Promise<BudgetExceededError<RolloutSet>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(BudgetExceededError)
  return error as BudgetExceededError<RolloutSet>
}

describe('Budget', () => {
  it('charges rollouts before they start and refuses what does not fit', () => {
    const budget = new Budget({ maxRollouts: 5 })
    expect(accountOf(budget).tryChargeRollouts(3)).toBe(true)
    expect(accountOf(budget).tryChargeRollouts(3)).toBe(false)
    expect(budget.spentRollouts).toBe(3)
    expect(budget.remainingRollouts).toBe(2)
    expect(accountOf(budget).tryChargeRollouts(2)).toBe(true)
    expect(accountOf(budget).tryChargeRollouts()).toBe(false)
    expect(budget.describe()).toBe('5/5 rollouts')
  })

  it('tracks cost and says when it is spent', () => {
    const budget = new Budget({ maxCostUsd: 0.5 })
    accountOf(budget).chargeCost(0.2)
    expect(accountOf(budget).costExhausted).toBe(false)
    accountOf(budget).chargeCost(0.3)
    expect(accountOf(budget).costExhausted).toBe(true)
    expect(budget.describe()).toBe('0 rollouts, $0.5000/$0.5')
  })

  it('is unlimited by default', () => {
    const budget = new Budget()
    expect(budget.maxRollouts).toBe(Infinity)
    expect(accountOf(budget).tryChargeRollouts(1e9)).toBe(true)
    expect(accountOf(budget).costExhausted).toBe(false)
  })

  it.each([
    [{ maxRollouts: 1.5 }, 'new Budget: `maxRollouts` must be a non-negative integer, got 1.5.'],
    [{ maxRollouts: -1 }, 'new Budget: `maxRollouts` must be a non-negative integer, got -1.'],
    [{ maxCostUsd: -0.01 }, 'new Budget: `maxCostUsd` must be a non-negative number, got -0.01.'],
    [{ maxCostUsd: '1' }, 'new Budget: `maxCostUsd` must be a non-negative number, got a string "1".'],
    [{ maxRolouts: 5 }, 'new Budget: unknown option `maxRolouts`. It accepts: maxRollouts, maxCostUsd.'],
    [null, 'new Budget: `limits` must be an object, got null.'],
  ])('rejects %j', (limits, message) => {
    expect(() => new Budget(limits as never)).toThrow(message)
  })

  it('takes Infinity as a limit, and an explicit undefined as none', () => {
    const budget = new Budget({ maxRollouts: Infinity, maxCostUsd: undefined })
    expect([budget.maxRollouts, budget.maxCostUsd]).toEqual([Infinity, Infinity])
  })
})

describe('maxRollouts', () => {
  it.each([1, 16])(
    'is never exceeded at concurrency %i, and the error carries the finished rollouts',
    async (concurrency) => {
      const { agent, counters } = coinAgent()
      const error = await budgetError(
        runRollouts(agent, { rollouts: 50, seed: 3, concurrency, budget: { maxRollouts: 20 } }),
      )
      expect(counters.runs).toBe(20)
      expect(error.message).toBe(
        "The budget ran out after 20 of 50 rollouts (20/20 rollouts); the error's `partial` holds them.",
      )
      expect(error.partial).toBeInstanceOf(RolloutSet)
      expect(error.partial.trajectories.map((t) => t.rollout)).toEqual(
        Array.from({ length: 20 }, (_, i) => i),
      )
      // The partial results are the same rollouts an unlimited run gives.
      const full = await runRollouts(agent, { rollouts: 20, seed: 3 })
      expect(JSON.stringify(error.partial)).toBe(JSON.stringify(full))
      expect(error.partial.rate((t) => t.output === 'bad').n).toBe(20)
    },
  )

  it('is exact at the limit: rollouts = maxRollouts spends it all without an error', async () => {
    const { agent, counters } = coinAgent()
    const budget = new Budget({ maxRollouts: 10 })
    const set = await runRollouts(agent, { rollouts: 10, seed: 1, concurrency: 16, budget })
    expect(set.trajectories).toHaveLength(10)
    expect(counters.runs).toBe(10)
    expect(budget.remainingRollouts).toBe(0)
  })

  it('is shared by two calls that get the same Budget', async () => {
    const { agent, counters } = coinAgent()
    const budget = new Budget({ maxRollouts: 30 })
    const first = await runRollouts(agent, { rollouts: 20, seed: 1, concurrency: 16, budget })
    expect(first.trajectories).toHaveLength(20)
    const factual = first.trajectories[0]!
    const error = await budgetError(
      replay(agent, factual, resample(0), { rollouts: 20, seed: 2, concurrency: 16, budget }),
    )
    expect(error.partial.trajectories).toHaveLength(10)
    expect(counters.runs).toBe(30)
    expect(budget.spentRollouts).toBe(30)
    await expect(record(agent, { seed: 1, budget })).rejects.toBeInstanceOf(BudgetExceededError)
    expect(counters.runs).toBe(30)
  })

  it('a plain limits object is a fresh budget per call', async () => {
    const { agent, counters } = coinAgent()
    const limits = { maxRollouts: 5 }
    await runRollouts(agent, { rollouts: 5, seed: 1, budget: limits })
    await runRollouts(agent, { rollouts: 5, seed: 1, budget: limits })
    expect(counters.runs).toBe(10)
  })
})

describe('maxCostUsd', () => {
  it('stops further policy calls once step costs reach the limit; finished rollouts come back', async () => {
    let policyCalls = 0
    const agent = defineAgent({
      name: 'priced',
      input: null,
      async run(_input, ctx) {
        for (let i = 0; i < 3; i++) {
          await ctx.step(
            'model',
            (rng) => {
              policyCalls++
              return rng() < 0.5 ? 'a' : 'b'
            },
            { costUsd: () => 0.01 },
          )
        }
        return 'done'
      },
    })
    const budget = new Budget({ maxCostUsd: 0.1 })
    const error = await budgetError(runRollouts(agent, { rollouts: 10, seed: 1, concurrency: 1, budget }))
    // $0.01 a call: the 10th call reaches $0.10, after which no policy call may start.
    expect(policyCalls).toBe(10)
    expect(budget.spentCostUsd).toBeCloseTo(0.1, 12)
    expect(error.partial.trajectories).toHaveLength(3)
    expect(error.partial.trajectories.every((t) => t.error === undefined)).toBe(true)
    expect(error.partial.costUsd).toBeCloseTo(0.09, 12)
    expect(error.partial.trajectories[0]!.steps.map((s) => s.costUsd)).toEqual([0.01, 0.01, 0.01])
    expect(error.partial.trajectories[0]!.costUsd).toBeCloseTo(0.03, 12)
  })

  it('does not count a rollout as an outcome when the agent swallows the budget error', async () => {
    const agent = defineAgent({
      name: 'swallows',
      input: null,
      async run(_input, ctx) {
        try {
          await ctx.step('model', () => 'x', { costUsd: () => 1 })
          await ctx.step('model', () => 'y', { costUsd: () => 1 })
        } catch {
          return 'pretend all is well'
        }
        return 'done'
      },
    })
    const error = await budgetError(
      runRollouts(agent, { rollouts: 3, seed: 1, concurrency: 1, budget: { maxCostUsd: 1 } }),
    )
    expect(error.partial.trajectories).toEqual([])
  })

  it('record throws when the cost budget runs out mid-rollout, with the steps so far as partial', async () => {
    const agent = defineAgent({
      name: 'priced-record',
      input: null,
      async run(_input, ctx) {
        await ctx.step('first', () => 'a', { costUsd: () => 1 })
        await ctx.step('second', () => 'b', { costUsd: () => 1 })
        return 'done'
      },
    })
    const error = await record(agent, { seed: 1, budget: { maxCostUsd: 1 } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BudgetExceededError)
    expect((error as Error).message).toMatch(/^record: the cost budget ran out during the rollout/)
    expect((error as BudgetExceededError<{ steps: unknown[] }>).partial.steps).toHaveLength(1)
  })

  it('rejects a step cost that is not a non-negative number', async () => {
    const agent = defineAgent({
      name: 'bad-cost',
      input: null,
      run: (_input, ctx) => ctx.step('model', () => 'x', { costUsd: () => Number.NaN }),
    })
    const set = await runRollouts(agent, { rollouts: 1, seed: 1 })
    expect(set.errors[0]!.error.message).toBe(
      'The costUsd of step 0 "model" must be a non-negative number, got NaN.',
    )
  })
})

describe('signal', () => {
  it('stops a run: no rollout starts after the abort, rollouts in flight end at once', async () => {
    const controller = new AbortController()
    let started = 0
    const agent = defineAgent({
      name: 'slow',
      input: null,
      async run(_input, ctx) {
        started++
        if (started === 3) controller.abort()
        // Never settles: only the abort can end these rollouts (else the test times out).
        await ctx.step('wait', () => new Promise<string>(() => {}))
      },
    })
    const error = await runRollouts(agent, {
      rollouts: 100,
      seed: 1,
      concurrency: 4,
      signal: controller.signal,
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RolloutAbortedError)
    expect((error as Error).message).toMatch(/^The rollouts were cancelled after \d+ of 100\.$/)
    expect(started).toBe(3)
  })

  it('record refuses to return a cancelled rollout', async () => {
    const { agent, counters } = coinAgent()
    await expect(record(agent, { seed: 1, signal: AbortSignal.abort() })).rejects.toThrow(
      new RolloutAbortedError('record: the rollout was cancelled.'),
    )
    expect(counters.runs).toBe(0)
  })

  it('record charges its rollout before it looks at the signal: a spent budget is the error it reports', async () => {
    const { agent } = coinAgent()
    const budget = new Budget({ maxRollouts: 1 })
    await expect(record(agent, { seed: 1, budget, signal: AbortSignal.abort() })).rejects.toThrow(
      new RolloutAbortedError('record: the rollout was cancelled.'),
    )
    expect(budget.spentRollouts).toBe(1)
    const error = await record(agent, { seed: 1, budget, signal: AbortSignal.abort() }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(BudgetExceededError)
    expect((error as Error).message).toBe('record: the budget has no rollout left (1/1 rollouts).')
  })

  it('an already aborted signal runs nothing', async () => {
    const { agent, counters } = coinAgent()
    await expect(
      runRollouts(agent, { rollouts: 5, seed: 1, signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(RolloutAbortedError)
    expect(counters.runs).toBe(0)
  })
})

describe('Budget.account with maxRollouts', () => {
  it('charges the parent, and refuses past its own cap without charging the parent', () => {
    const parent = new Budget({ maxRollouts: 100 })
    accountOf(parent).tryChargeRollouts(10)
    const capped = parent.account({ maxRollouts: 5 })
    expect(capped.remainingRollouts).toBe(5)
    expect(accountOf(capped).tryChargeRollouts(4)).toBe(true)
    expect(parent.spentRollouts).toBe(14)
    expect(accountOf(capped).tryChargeRollouts(2)).toBe(false)
    expect(parent.spentRollouts).toBe(14)
    expect(accountOf(capped).tryChargeRollouts(1)).toBe(true)
    expect([capped.spentRollouts, capped.remainingRollouts, parent.spentRollouts]).toEqual([5, 0, 15])
  })

  it("stops at the parent's limit first, charging itself nothing for a refused charge", () => {
    const parent = new Budget({ maxRollouts: 3 })
    const capped = parent.account({ maxRollouts: 10 })
    expect(capped.remainingRollouts).toBe(3)
    expect(accountOf(capped).tryChargeRollouts(4)).toBe(false)
    expect(capped.spentRollouts).toBe(0)
    expect(accountOf(capped).tryChargeRollouts(3)).toBe(true)
    expect(capped.remainingRollouts).toBe(0)
  })

  it("charges cost and model calls to both, and is exhausted by the parent's cost limit", () => {
    const parent = new Budget({ maxCostUsd: 0.1 })
    const capped = parent.account({ maxRollouts: 10 })
    accountOf(capped).chargeCost(0.06)
    expect(accountOf(capped).costExhausted).toBe(false)
    accountOf(capped).chargeCost(0.04)
    expect([parent.spentCostUsd, capped.spentCostUsd]).toEqual([0.1, 0.1])
    expect(accountOf(capped).costExhausted).toBe(true)
    accountOf(capped).chargeModelCall({ kind: 'live', inputTokens: 3, outputTokens: 2, usd: undefined })
    expect([parent.spend.modelCalls, capped.spend.modelCalls]).toEqual([1, 1])
  })

  it('refuses every charge with a cap of 0', () => {
    expect(accountOf(new Budget().account({ maxRollouts: 0 })).tryChargeRollouts()).toBe(false)
  })
})
