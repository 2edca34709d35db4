// The library API without Vitest's matchers (docs/guide/library-api.md): rollouts, a recorded run,
// a replay under an intervention, contrastive and Shapley attribution.
import { expect, test } from 'vitest'
import { supportAgent } from '../quick-start/support.js'
import { oldPrompt, ticket } from './agents.js'
// #region overview
import { calledTool } from '../../src/index.js'
import { contrastive, shapley } from '../../src/entries/attribution.js'
import { record, replay, resample, runRollouts } from '../../src/entries/replay.js'

// #endregion
// #region explore
import { findStep } from '../../src/index.js'

// #endregion

test('the overview runs: rates, a recorded run, a replay, contrastive and Shapley attribution', async () => {
  const agent = oldPrompt.on(ticket) // three steps: lookup, decide, reply
  const isBad = calledTool('issue_refund')
  // #region overview
  const set = await runRollouts(agent, { rollouts: 100, seed: 1, concurrency: 8 })
  const refundRate = set.rate(calledTool('issue_refund')) // Estimate { point, low, high, successes, n, confidence, method: 'clopper-pearson' }
  const failed = set.errors // rollouts that threw, timed out or looped, with their messages
  const factual = await record(agent, { seed: 1, rollout: 8 }) // rollout 8 again, byte for byte
  const redrawn = await replay(agent, factual, resample(1), { rollouts: 32, seed: 7 }) // P(outcome | do(resample step 1))
  const effects = await contrastive(agent, factual, { isBad, rollouts: 32 }) // per-step effects and the causal locus
  const credit = await shapley(agent, factual, { isBad }) // credit split for interacting steps
  // #endregion
  expect(refundRate.method).toBe('clopper-pearson')
  expect(failed).toEqual([])
  expect(factual).toEqual(set.trajectories[8])
  expect(isBad(factual)).toBe(true)
  expect(redrawn.trajectories).toHaveLength(32)
  expect(effects.locus).toBe(1)
  expect(credit.steps).toHaveLength(3)
})

test('exploring rollouts: one line per run, and a failing run replayed with its decision drawn afresh', async () => {
  const lines: string[] = []
  // #region explore
  const set = await runRollouts(supportAgent, { rollouts: 100, seed: 1 })
  expect(set.completed.length).toBeGreaterThan(0)
  for (const t of set.completed) {
    lines.push(`${t.rollout} ${String(t.output)} ${String(findStep(t, 'decide')?.action)}`) // one line per finished rollout
  }

  const refund = set.completed.find(calledTool('issue_refund')) // a failing run, if any
  if (refund !== undefined) {
    const redrawn = await replay(supportAgent, refund, resample(0), { rollouts: 32, seed: 7 })
    const refundRate = redrawn.rate(calledTool('issue_refund')) // P(refund | decide drawn afresh)
    // #endregion
    expect(refundRate.point).toBeLessThan(1)
    // #region explore
  }
  // #endregion
  expect(lines).toHaveLength(100)
  expect(refund).toBeDefined()
})
