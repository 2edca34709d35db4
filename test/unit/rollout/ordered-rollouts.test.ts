import { describe, expect, it } from 'vitest'
import { toScenario } from '../../../src/agent/define-agent.js'
import type { Scenario } from '../../../src/agent/types.js'
import { defineAgent } from '../../../src/index.js'
import { Budget } from '../../../src/rollout/budget.js'
import { accountOf } from '../../../src/rollout/budget.js'
import { createExecution, type Execution } from '../../../src/rollout/options.js'
import { LOOKAHEAD_ROUNDS, OrderedRollouts } from '../../../src/rollout/ordered-rollouts.js'
import { SAMPLE_EVERYTHING } from '../../../src/rollout/plan.js'

/**
 * An agent whose first run (rollout 0: the pool starts rollouts in index order) waits in a model
 * call until `release` is called, and whose others answer after `delayMs`; `inFlight` and
 * `peak` count the runs under way.
 */
function stragglerAgent(delayMs: number) {
  let runs = 0
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  const counts = { inFlight: 0, peak: 0, started: 0 }
  const agent = defineAgent({
    name: 'straggler',
    input: {},
    async run(_input, ctx) {
      const first = runs++ === 0
      counts.started++
      counts.inFlight++
      counts.peak = Math.max(counts.peak, counts.inFlight)
      try {
        return await ctx.step(
          'answer',
          async (rng, view) => {
            const wait = first ? held : new Promise((resolve) => setTimeout(resolve, delayMs))
            await Promise.race([
              wait,
              new Promise((_, reject) =>
                view.signal.addEventListener('abort', () => reject(view.signal.reason)),
              ),
            ])
            return rng() < 0.5 ? 'a' : 'b'
          },
          { model: 'test-model' },
        )
      } finally {
        counts.inFlight--
      }
    },
  })
  return {
    scenario: toScenario(agent, 'test') as Scenario<unknown, unknown>,
    counts,
    release: () => release(),
  }
}

function stream(scenario: Scenario<unknown, unknown>, execution: Execution, limit: number, lockstep = false) {
  return new OrderedRollouts({
    scenario,
    plan: SAMPLE_EVERYTHING,
    seed: 1,
    first: 0,
    limit,
    execution: createExecution({ ...execution, lockstep }),
    timeoutNow: () => execution.timeoutMs,
  })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('OrderedRollouts', () => {
  it('keeps every slot busy behind a straggler, up to 3c − 2 rollouts ahead, and hands them out in index order', async () => {
    const { scenario, counts, release } = stragglerAgent(1)
    const execution: Execution = { budget: new Budget(), concurrency: 4, timeoutMs: 10_000, maxSteps: 10 }
    const rollouts = stream(scenario, execution, 20)
    const first = rollouts.next()
    await sleep(100)
    // Rollout 0 still runs; the other three slots went on with rollouts 1 … 9 (the lookahead:
    // c + LOOKAHEAD_ROUNDS (c − 1)).
    expect(rollouts.started).toBe(4 + LOOKAHEAD_ROUNDS * 3)
    expect(counts.peak).toBe(4)
    release()
    const handed = [await first]
    for (let i = 1; i < 20; i++) handed.push(await rollouts.next())
    expect(handed).toHaveLength(20)
    expect(handed.map((next) => (next.kind === 'rollout' ? next.trajectory.rollout : -1))).toEqual(
      Array.from({ length: 20 }, (_, index) => index),
    )
    expect(await rollouts.next()).toEqual({ kind: 'end', end: 'exhausted' })
    await rollouts.close()
    expect(accountOf(execution.budget).spend.abortedRollouts).toBe(0)
  })

  it('in lockstep, starts the next batch only once the whole batch before it is handed out', async () => {
    const { scenario, release } = stragglerAgent(1)
    const execution: Execution = { budget: new Budget(), concurrency: 4, timeoutMs: 10_000, maxSteps: 10 }
    const rollouts = stream(scenario, execution, 20, true)
    const first = rollouts.next()
    await sleep(100)
    expect(rollouts.started).toBe(4)
    release()
    await first
    await rollouts.close()
  })

  it('at concurrency 1, runs nothing ahead of the rollout being handed out', async () => {
    const { scenario } = stragglerAgent(1)
    const execution: Execution = { budget: new Budget(), concurrency: 1, timeoutMs: 10_000, maxSteps: 10 }
    const rollouts = stream(scenario, execution, 5)
    const first = rollouts.next()
    await sleep(50)
    expect(rollouts.started).toBe(1)
    await rollouts.close()
    await expect(first).resolves.toMatchObject({ kind: 'rollout' })
  })

  it('close cancels the rollouts in flight through their signal and counts each as aborted, with its cut call', async () => {
    const { scenario, counts } = stragglerAgent(60_000)
    const execution: Execution = { budget: new Budget(), concurrency: 3, timeoutMs: 120_000, maxSteps: 10 }
    const rollouts = stream(scenario, execution, 10)
    void rollouts.next()
    await sleep(50)
    expect(counts.inFlight).toBe(3)
    const started = performance.now()
    await rollouts.close()
    // Cancelled, not waited for: the calls would have taken a minute.
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(rollouts.started).toBe(3)
    const spend = accountOf(execution.budget).spend
    expect(spend.abortedRollouts).toBe(3)
    expect(spend.cutModelCalls).toBe(3)
    expect(spend.abortedModelCalls).toBe(0)
  })

  it('ends at the first rollout the budget refuses', async () => {
    const { scenario, release } = stragglerAgent(1)
    release()
    const execution: Execution = {
      budget: new Budget({ maxRollouts: 5 }),
      concurrency: 4,
      timeoutMs: 10_000,
      maxSteps: 10,
    }
    const rollouts = stream(scenario, execution, 20)
    const kinds: string[] = []
    for (;;) {
      const next = await rollouts.next()
      if (next.kind === 'end') {
        expect(next.end).toBe('budget')
        break
      }
      kinds.push(next.kind)
    }
    expect(kinds).toHaveLength(5)
    await rollouts.close()
  })
})
