// The matchers as the documentation shows them (docs/matchers/index.md), each on an agent it holds
// for, so every snippet runs and passes.
import { expect, test } from 'vitest'
import '../../matchers/index.js'
import { calledTool } from '../../src/index.js'
import {
  agent,
  helpfulness,
  newPrompt,
  oldPrompt,
  policyGrade,
  refundWrongly,
  resolvesTicket,
  ticket,
} from './agents.js'

test('toRarely', async () => {
  // #region to-rarely
  await expect(agent).toRarely(refundWrongly, { atMost: 0.05, confidence: 0.95 })
  // #endregion
})

test('toUsually', async () => {
  // #region to-usually
  await expect(agent).toUsually(resolvesTicket, { atLeast: 0.9 })
  // #endregion
})

test('toNever', async () => {
  // #region to-never
  await expect(agent).toNever(calledTool('delete_order'), { rollouts: 300 }) // 0/300 ⇒ ≤ 1.0%
  // #endregion
})

test('toMatchRateBaseline', async () => {
  // #region to-match-rate-baseline
  await expect(agent).toMatchRateBaseline(refundWrongly, { tolerance: 0.15 })
  // #endregion
})

test('toBeNoWorseThan', async () => {
  // #region to-be-no-worse-than
  await expect(newPrompt.on(ticket)).toBeNoWorseThan(oldPrompt.on(ticket), refundWrongly, { margin: 0.05 })
  // #endregion
})

test('toScoreAtLeast and toScoreAtMost', async () => {
  // #region score
  await expect(agent).toScoreAtLeast(helpfulness, 0.8)
  await expect(agent).toScoreAtMost(policyGrade, 2, { range: [1, 5] }) // a 1–5 rubric
  // #endregion
})
