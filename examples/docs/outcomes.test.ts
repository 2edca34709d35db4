// Outcomes as predicates on the trajectory (docs/guide/writing-an-agent.md): the built-in
// `calledTool`, and functions of your own that read the run with `findStep`.
import { expect, test } from 'vitest'
import '../../matchers/index.js'
// #region predicates
import { calledTool, findStep, type Trajectory } from '../../src/index.js'

const refunded = calledTool('issue_refund') // any call of the tool, preamble included
const refundedOver50 = calledTool('issue_refund', (args) => (args as { amount: number }).amount > 50)
const decidedRefund = (t: Trajectory) => t.output === 'refund'
const refundedUnchecked = (t: Trajectory) =>
  findStep(t, 'decide')?.action === 'refund' && !t.preamble.some((call) => call.tool === 'lookup_order')
// #endregion
import { record } from '../../src/entries/replay.js'
import { supportAgent } from '../quick-start/support.js'
import { agent } from './agents.js'

test('the predicates read the Quick start failing run', async () => {
  const failing = await record(supportAgent, { seed: 514518752, rollout: 1 })
  expect(refunded(failing)).toBe(true)
  expect(refundedOver50(failing)).toBe(true)
  expect(decidedRefund(failing)).toBe(true)
  expect(refundedUnchecked(failing)).toBe(false) // it looked the order up first
})

test('a predicate of your own in a matcher', async () => {
  // #region use
  await expect(agent).toRarely(decidedRefund, { atMost: 0.05 })
  // #endregion
})
