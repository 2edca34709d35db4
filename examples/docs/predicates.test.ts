// Trajectory predicates composed (docs/matchers/predicates.md), each checked on the Quick start's
// failing run: it looked the order up, decided to refund and refunded 99.
import { test } from 'vitest'
import { record } from '../../src/entries/replay.js'
import { supportAgent } from '../quick-start/support.js'
// #region compose
import { expect } from 'vitest'
import { and, calledTool, calledToolWith, calledTools, not, or, stepMatches } from '../../src/index.js'

const exactly = calledTools(['lookup_order', 'escalate'], { mode: 'strict' }) // exactly these, in this order
const inOrder = calledTools(['lookup_order', 'issue_refund']) // 'ordered' (default): in this order, others between
const refunded99 = calledToolWith('issue_refund', expect.objectContaining({ amount: 99 })) // arguments as toEqual compares them
const decidedRefund = stepMatches('decide', 'refund') // a step of that name took that action
const refundedOnly = and(calledTool('issue_refund'), not(calledTool('escalate'))) // and / or / not, short-circuit, async-aware
const refundedAnyway = or(refunded99, decidedRefund)
// #endregion

test('the composed predicates read the Quick start failing run', async () => {
  const failing = await record(supportAgent, { seed: 514518752, rollout: 1 })
  expect(exactly(failing)).toBe(false)
  expect(inOrder(failing)).toBe(true)
  expect(refunded99(failing)).toBe(true)
  expect(decidedRefund(failing)).toBe(true)
  expect(await refundedOnly(failing)).toBe(true)
  expect(await refundedAnyway(failing)).toBe(true)
})
