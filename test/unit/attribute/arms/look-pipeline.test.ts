import { describe, expect, it } from 'vitest'
import { contextAttribution, contrastive } from '../../../../src/entries/attribution.js'
import { Budget, defineAgent, type Agent, type Trajectory } from '../../../../src/index.js'
import type { Json } from '../../../../src/entries/types.js'
import { firstBadRun } from '../fixtures.js'
import { plantedKeys, refunded } from '../context-fixtures.js'

// With `runAhead`, the looks of paired arms run ahead of themselves at concurrency > 1 (`LookPipeline`): the next
// looks' rollouts run tentatively while the current look's slowest replays finish. These tests pin
// that nothing of it shows: with latencies drawn at random (so rollouts finish in a different order
// on every run), a seeded result is byte-identical at concurrency 1 (no running ahead), 3, 8 and 32,
// the judge only ever sees the rollouts the result counts, and a budget runs out at the same place.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `agent` with each step's policy sleeping a random 0–3 ms first, and a count of the runs started. */
function withLatency<I, O>(agent: Agent<I, O>): { agent: Agent<I, O>; runs: () => number } {
  let runs = 0
  const slow = defineAgent<I, O>({
    name: agent.name,
    ...(agent.input === undefined ? {} : { input: agent.input }),
    run(input, ctx) {
      runs++
      const wrapped = Object.create(ctx) as typeof ctx
      wrapped.step = ((name: string, policy: (...args: never[]) => unknown, options?: unknown) =>
        ctx.step(
          name,
          (async (...args: never[]) => {
            await sleep(Math.random() * 3)
            return policy(...args)
          }) as never,
          options as never,
        )) as typeof ctx.step
      return agent.run(input, wrapped)
    },
  })
  return { agent: slow, runs: () => runs }
}

/** Three steps; the middle one decides (bad w.p. 0.6), the others are noise. */
const pivotal = defineAgent({
  name: 'pivotal',
  input: {},
  async run(_input, ctx) {
    await ctx.step('lookup', (rng) => (rng() < 0.5 ? 'order' : 'account'))
    const decision = await ctx.step('decide', (rng) => (rng() < 0.6 ? 'bad' : 'good'))
    await ctx.step('reply', (rng) => (rng() < 0.5 ? 'Done.' : 'All set.'))
    return decision
  },
})

/** `isBad` on the output, counting its calls, answering after a random 0–2 ms. */
function countingJudge(): { isBad: (trajectory: Trajectory) => Promise<boolean>; calls: () => number } {
  let calls = 0
  return {
    isBad: async (trajectory) => {
      calls++
      await sleep(Math.random() * 2)
      return trajectory.output === 'bad'
    },
    calls: () => calls,
  }
}

describe('looks run ahead of themselves without changing a result', () => {
  it('contrastive (linear and binary) is byte-identical at concurrency 1, 3, 8 and 32, and the judge sees only the rollouts counted', async () => {
    const slow = withLatency(pivotal)
    const factual = await firstBadRun(slow.agent, 3, (trajectory) => trajectory.output === 'bad')
    let ranAhead = false
    for (const search of ['linear', 'binary'] as const) {
      const results: string[] = []
      for (const concurrency of [1, 3, 8, 32]) {
        const judge = countingJudge()
        const before = slow.runs()
        const result = await contrastive(slow.agent, factual, {
          isBad: judge.isBad,
          seed: 11,
          search,
          concurrency,
          runAhead: 2,
        })
        // Every rollout counted was scored once; none run ahead and cut off reached the judge.
        expect(judge.calls()).toBe(result.rolloutsUsed)
        if (slow.runs() - before > result.rolloutsUsed) ranAhead = true
        if (concurrency === 1) expect(slow.runs() - before).toBe(result.rolloutsUsed)
        results.push(JSON.stringify(result))
      }
      for (const result of results.slice(1)) expect(result).toBe(results[0])
      // By default nothing runs ahead (it costs money): the same result, every replay started used.
      const before = slow.runs()
      const byDefault = await contrastive(slow.agent, factual, {
        isBad: countingJudge().isBad,
        seed: 11,
        search,
        concurrency: 8,
      })
      expect(slow.runs() - before).toBe(byDefault.rolloutsUsed)
      expect(JSON.stringify(byDefault)).toBe(results[0])
    }
    // The pipeline did run ahead (and cut off what a stopped arm no longer needed).
    expect(ranAhead).toBe(true)
  })

  it('context attribution (parts and refinement) is byte-identical at concurrency 1, 3, 8 and 32 over 3 seeds', async () => {
    for (const seed of [1, 2, 3]) {
      const planted = plantedKeys(seed)
      const slow = withLatency(planted.agent as Agent<Json, string>)
      const factual = await firstBadRun(slow.agent, seed, refunded)
      const results: string[] = []
      for (const concurrency of [1, 3, 8, 32]) {
        const judge = countingJudge()
        const result = await contextAttribution(slow.agent, factual, {
          isBad: async (trajectory) => (await judge.isBad(trajectory)) || refunded(trajectory),
          step: 1,
          seed,
          concurrency,
          runAhead: 2,
        })
        expect(judge.calls()).toBe(result.rolloutsUsed)
        results.push(JSON.stringify(result))
      }
      for (const result of results.slice(1)) expect(result).toBe(results[0])
    }
  })

  it('runs out of a rollout budget at the same place at any concurrency, counting only what it used', async () => {
    const slow = withLatency(pivotal)
    const factual = await firstBadRun(slow.agent, 3, (trajectory) => trajectory.output === 'bad')
    const isBad = (trajectory: Trajectory) => trajectory.output === 'bad'
    const full = await contrastive(slow.agent, factual, { isBad, seed: 11, concurrency: 1, runAhead: 2 })
    // Budgets that stop the first look, a later one, and the last ones, where arms that stopped at a
    // look had rollouts running ahead (charged while they ran) that the budget must not count.
    for (const maxRollouts of [10, 23, 37, full.rolloutsUsed - 10, full.rolloutsUsed - 3]) {
      const results: string[] = []
      for (const concurrency of [1, 3, 8, 32]) {
        const budget = new Budget({ maxRollouts })
        const result = await contrastive(slow.agent, factual, {
          isBad,
          seed: 11,
          concurrency,
          budget,
          runAhead: 2,
        })
        expect(result.truncated).toBe(true)
        expect(budget.spentRollouts).toBe(result.rolloutsUsed)
        results.push(JSON.stringify(result))
      }
      for (const result of results.slice(1)) expect(result).toBe(results[0])
    }
  })
})
