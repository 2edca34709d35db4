// The examples behave as their doc comments say. Rates are checked against the documented
// probabilities with 99.9% Wilson intervals at fixed seeds (deterministic, and far from flaky
// should a seed ever change).
import { describe, expect, it } from 'vitest'
import { carefulTicket, injectedTicket, supportAgent } from '../../examples/support-agent/agent.js'
import { andAgent, pivotalAgent, returnedBad } from '../../examples/synthetic/scms.js'
import { calledTool, findStep, type Trajectory } from '../../src/index.js'
import { forceAction, hold, record, replay, resample, runRollouts } from '../../src/entries/replay.js'
import type { Estimate } from '../../src/entries/schemas.js'

const CONFIDENCE = 0.999

function expectCovers(estimate: Estimate, p: number): void {
  expect(estimate.low).toBeLessThanOrEqual(p)
  expect(estimate.high).toBeGreaterThanOrEqual(p)
}

const refunded = calledTool('issue_refund')

describe('the support agent', () => {
  it('refunds an injected ticket at about 60%', async () => {
    const set = await runRollouts(supportAgent.on(injectedTicket), {
      rollouts: 400,
      seed: 2024,
      concurrency: 16,
    })
    expect(set.errors).toEqual([])
    const rate = set.rate(refunded, CONFIDENCE)
    expectCovers(rate, 0.6)
    expect(rate.n).toBe(400)
    // Not vacuous: the interval excludes the careful rate.
    expect(rate.low).toBeGreaterThan(0.45)
  })

  it('refunds a careful ticket at about 2%', async () => {
    const set = await runRollouts(supportAgent, { rollouts: 400, seed: 2024, concurrency: 16 })
    expect(set.trajectories[0]!.input).toEqual(carefulTicket)
    const rate = set.rate(refunded, CONFIDENCE)
    expectCovers(rate, 0.02)
    expect(rate.high).toBeLessThan(0.1)
  })

  it('runs lookup_order → decide → issue_refund or escalate → reply, with deterministic tools', async () => {
    const set = await runRollouts(supportAgent.on(injectedTicket), { rollouts: 50, seed: 7 })
    expect(set.trajectories).toHaveLength(50)
    for (const trajectory of set.trajectories) {
      expect(trajectory.preamble).toEqual([])
      expect(trajectory.steps.map((s) => s.name)).toEqual(['lookup', 'decide', 'reply'])
      const [lookup, decide] = trajectory.steps
      expect(lookup!.observations).toEqual([
        {
          tool: 'lookup_order',
          args: { orderId: 'A-1001' },
          result: { orderId: 'A-1001', amount: 99, status: 'delayed', refundable: false },
          source: 'live',
        },
      ])
      const tool = decide!.action === 'refund' ? 'issue_refund' : 'escalate'
      expect(decide!.observations.map((o) => o.tool)).toEqual([tool])
      expect(refunded(trajectory)).toBe(decide!.action === 'refund')
      expect(trajectory.output).toBe(findStep(trajectory, 'reply')!.action)
    }
  })

  it('replays a refund: forcing "escalate" at the decision removes it, resampling the decision refunds at about 60%', async () => {
    const set = await runRollouts(supportAgent.on(injectedTicket), { rollouts: 20, seed: 7 })
    const factual = set.trajectories.find(refunded) as Trajectory
    const again = await record(supportAgent.on(injectedTicket), { seed: 7, rollout: factual.rollout })
    expect(again).toEqual(factual)
    const forced = await replay(supportAgent, factual, forceAction(1, 'escalate'), { rollouts: 20, seed: 1 })
    expect(forced.rate(refunded).successes).toBe(0)
    const held = await replay(supportAgent, factual, hold('all'), { rollouts: 20, seed: 1 })
    expect(held.rate(refunded).successes).toBe(20)
    expect(held.actionMatchRate).toBe(1)
    const redrawn = await replay(supportAgent, factual, resample(1), { rollouts: 300, seed: 1 })
    expectCovers(redrawn.rate(refunded, CONFIDENCE), 0.6)
  })
})

describe('the synthetic SCMs (pivotal and AND-interaction)', () => {
  const p = 0.3
  const q = 0.3

  it('pivotal(p): P(bad) = p; on a bad run, resampling lookup or decide gives p, resampling reply keeps it bad', async () => {
    const agent = pivotalAgent(p)
    const set = await runRollouts(agent, { rollouts: 600, seed: 11, concurrency: 16 })
    expectCovers(set.rate(returnedBad, CONFIDENCE), p)
    const factual = set.trajectories.find(returnedBad) as Trajectory
    expect(factual.steps.map((s) => s.name)).toEqual(['lookup', 'decide', 'reply'])
    const pBad = async (k: number) =>
      (await replay(agent, factual, resample(k), { rollouts: 400, seed: 5, concurrency: 16 })).rate(
        returnedBad,
        CONFIDENCE,
      )
    expectCovers(await pBad(0), p)
    expectCovers(await pBad(1), p)
    expect((await pBad(2)).point).toBe(1)
  })

  it('and(q): P(bad) = q²; on a run with both bad, v(∅) = q², v({a}) = v({b}) = q, v({a, b}) = 1', async () => {
    const agent = andAgent(q)
    const set = await runRollouts(agent, { rollouts: 800, seed: 13, concurrency: 16 })
    expectCovers(set.rate(returnedBad, CONFIDENCE), q * q)
    const factual = set.trajectories.find(returnedBad) as Trajectory
    expect(factual.steps.slice(0, 2).map((s) => s.action)).toEqual(['bad', 'bad'])
    const v = async (held: number[]) =>
      (await replay(agent, factual, hold(held), { rollouts: 500, seed: 3, concurrency: 16 })).rate(
        returnedBad,
        CONFIDENCE,
      )
    expectCovers(await v([]), q * q)
    expectCovers(await v([0]), q)
    expectCovers(await v([1]), q)
    expect((await v([0, 1])).point).toBe(1)
  })
})
