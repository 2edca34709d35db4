import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Budget, calledTool, check, defineAgent, never, rarely } from '../../../src/index.js'
import type { StepOptions } from '../../../src/entries/types.js'
import { openCassette, withCassette } from '../../../src/entries/cassette.js'
import { modelCost } from '../../../src/verdict/artifact.js'
import { accountOf } from '../../../src/rollout/budget.js'

type Pick = { tool: string }

/**
 * An agent with one model step (`decide`, 100 input and 10 output tokens a call, priced at $0.001
 * unless `priced` is false) and one plain step (`note`), which is not a model call. `calls` counts
 * the model policy's real calls: the verdict's count must equal it.
 */
function modelAgent(priced = true) {
  const calls = { live: 0 }
  const options: StepOptions<Pick> = {
    model: 'sim-1',
    meta: () => ({ inputTokens: 100, outputTokens: 10, modelId: 'sim-1' }),
    ...(priced ? { costUsd: () => 0.001 } : {}),
  }
  const agent = defineAgent<{ bad: number }, string>({
    name: 'triage',
    input: { bad: 0 },
    async run(input, ctx) {
      const pick = await ctx.step(
        'decide',
        (rng) => {
          calls.live++
          return { tool: rng() < input.bad ? 'refund' : 'escalate' }
        },
        options,
      )
      await ctx.step('note', (rng) => Math.floor(rng() * 10))
      await ctx.tool(pick.tool, {}, () => ({ ok: true }))
      return pick.tool
    },
  })
  return { agent, calls }
}

const refunded = calledTool('refund')

describe('cost in the verdict', () => {
  it('counts the live model calls of a gate, their tokens and their price; plain steps are not model calls', async () => {
    const { agent, calls } = modelAgent()
    const result = await check(agent.on({ bad: 0 }), never(refunded, { rollouts: 10, seed: 3 }))
    expect(calls.live).toBe(10)
    expect(result.verdict.cost).toEqual({
      modelCalls: 10,
      cassetteHits: 0,
      inputTokens: 1000,
      outputTokens: 100,
      usd: expect.closeTo(0.01, 12) as number,
      unpricedCalls: 0,
      savedUsd: null,
    })
    expect(result.artifact.verdict.cost).toEqual(result.verdict.cost)
    expect(result.message).toContain('\n  cost: 10 model calls, 1,100 tokens, $0.0100')
  })

  it('covers the attribution too: every call the policy made is counted, held steps are not', async () => {
    const { agent, calls } = modelAgent()
    const result = await check(agent.on({ bad: 0.5 }), rarely(refunded, { atMost: 0.05, seed: 5 }))
    expect(result.verdict.kind).toBe('fail')
    expect(result.attribution).not.toBeNull()
    // The replays hold the recorded step or resample it: only resamples call the model.
    expect(result.verdict.cost?.modelCalls).toBe(calls.live)
    expect(calls.live).toBeGreaterThan(result.verdict.rolloutsRun)
    expect(result.verdict.cost?.inputTokens).toBe(calls.live * 100)
  })

  it('says USD is unknown when the model steps have no price', async () => {
    const { agent } = modelAgent(false)
    const result = await check(agent.on({ bad: 0 }), never(refunded, { rollouts: 4, seed: 3 }))
    expect(result.verdict.cost).toMatchObject({ modelCalls: 4, usd: null, unpricedCalls: 4 })
    expect(result.message).toContain('\n  cost: 4 model calls, 440 tokens, USD unknown (no prices)')
  })

  it('has no cost line for an agent without model steps', async () => {
    const plain = defineAgent({
      name: 'plain',
      input: null,
      run: async (_input, ctx) => ctx.step('pick', (rng) => (rng() < 0.5 ? 'a' : 'b')),
    })
    const result = await check(
      plain,
      never((t) => (t.output as string) === 'c', { rollouts: 5, seed: 1 }),
    )
    expect(result.verdict.cost?.modelCalls).toBe(0)
    expect(result.message).not.toContain('cost:')
  })

  it('gives each check its own cost when they share one budget, in turn or at once', async () => {
    const budget = new Budget({ maxCostUsd: 10 })
    const first = modelAgent()
    const second = modelAgent()
    const a = await check(first.agent.on({ bad: 0 }), never(refunded, { rollouts: 6, seed: 1, budget }))
    const b = await check(second.agent.on({ bad: 0 }), never(refunded, { rollouts: 9, seed: 2, budget }))
    expect(a.verdict.cost?.modelCalls).toBe(6)
    expect(b.verdict.cost?.modelCalls).toBe(9)
    expect(budget.spentCostUsd).toBeCloseTo(0.015, 12)

    const third = modelAgent()
    const fourth = modelAgent()
    const [c, d] = await Promise.all([
      check(third.agent.on({ bad: 0 }), never(refunded, { rollouts: 7, seed: 1, budget, concurrency: 2 })),
      check(fourth.agent.on({ bad: 0 }), never(refunded, { rollouts: 5, seed: 2, budget, concurrency: 2 })),
    ])
    expect(c.verdict.cost?.modelCalls).toBe(7)
    expect(d.verdict.cost?.modelCalls).toBe(5)
    expect(budget.spend.modelCalls).toBe(27)
    expect(budget.spentRollouts).toBe(27)
  })
})

describe('Budget accounts', () => {
  it('a sub-account spends from its parent’s limits and counts its own spending apart', () => {
    const budget = new Budget({ maxRollouts: 5, maxCostUsd: 1 })
    const account = budget.account()
    expect(account.maxRollouts).toBe(5)
    expect(accountOf(account).tryChargeRollouts(3)).toBe(true)
    expect(accountOf(budget).tryChargeRollouts(2)).toBe(true)
    // The parent's limit is reached: the sub-account may not start another.
    expect(accountOf(account).tryChargeRollouts(1)).toBe(false)
    expect([account.spentRollouts, budget.spentRollouts, account.remainingRollouts]).toEqual([3, 5, 0])
    accountOf(account).chargeCost(1)
    expect(accountOf(budget).costExhausted).toBe(true)
    expect(accountOf(account).costExhausted).toBe(true)
    expect(account.describe()).toBe(budget.describe())
  })

  it('counts live calls and cassette hits; a hit spends nothing against maxCostUsd', () => {
    const budget = new Budget({ maxCostUsd: 0.01 })
    const account = budget.account()
    accountOf(account).chargeModelCall({ kind: 'live', inputTokens: 100, outputTokens: 20, usd: 0.002 })
    accountOf(account).chargeModelCall({ kind: 'live', inputTokens: 50, outputTokens: 5, usd: undefined })
    accountOf(account).chargeModelCall({ kind: 'cassette-hit', savedUsd: 0.5, reused: false })
    accountOf(account).chargeModelCall({ kind: 'cassette-hit', savedUsd: undefined, reused: true })
    expect(accountOf(budget).costExhausted).toBe(false)
    expect(modelCost(account.spend)).toEqual({
      modelCalls: 4,
      cassetteHits: 2,
      reusedHits: 1,
      inputTokens: 150,
      outputTokens: 25,
      usd: 0.002,
      unpricedCalls: 1,
      savedUsd: 0.5,
    })
    expect(budget.spend).toEqual(account.spend)
    // USD is null, not $0, when nothing was priced.
    expect(modelCost(new Budget().spend)).toMatchObject({ usd: null, savedUsd: null })
  })
})

describe('cost with a cassette', () => {
  // The repository's test config turns cassettes off through CAUSAL_REPLAY_CACHE, which wins over a mode.
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('counts hits apart, with what they saved; a hit spends nothing against maxCostUsd', async () => {
    vi.stubEnv('CAUSAL_REPLAY_CACHE', '')
    // One cassette in memory (nothing written), so the test does not depend on CI's write rules.
    const cassette = await openCassette(join(tmpdir(), 'model-spend-never-written.json'), {
      mode: 'auto',
      write: 'none',
    })
    if (cassette === null) throw new Error('the cassette is off (CAUSAL_REPLAY_CACHE=off?)')
    const cold = modelAgent()
    const first = await check(
      withCassette(cold.agent.on({ bad: 0 }), cassette),
      never(refunded, { rollouts: 8, seed: 4 }),
    )
    expect(first.verdict.cost).toMatchObject({ modelCalls: 8, cassetteHits: 0, savedUsd: null })

    const warm = modelAgent()
    // A budget the live calls would exhaust at once: hits must not touch it.
    const budget = new Budget({ maxCostUsd: 0.0001 })
    const second = await check(
      withCassette(warm.agent.on({ bad: 0 }), cassette),
      never(refunded, { rollouts: 8, seed: 4, budget }),
    )
    expect(warm.calls.live).toBe(0)
    expect(second.verdict.kind).toBe('pass')
    // The same cassette in memory: the second check is answered by the calls the first one made.
    expect(second.verdict.cost).toEqual({
      modelCalls: 8,
      cassetteHits: 8,
      reusedHits: 8,
      inputTokens: 0,
      outputTokens: 0,
      usd: null,
      unpricedCalls: 0,
      savedUsd: expect.closeTo(0.008, 12) as number,
    })
    expect(budget.spentCostUsd).toBe(0)
    expect(second.message).toContain(
      '\n  cost: 8 model calls (all reused within this run), nothing spent; the cassette saved $0.0080',
    )
  })
})
