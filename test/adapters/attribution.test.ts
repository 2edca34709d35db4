// Contrastive attribution through both adapters: the planted decision (the model call that chooses
// refund or escalate, step 1) must come out as the causal locus of a refunded injected ticket.
import { setTracingDisabled } from '@openai/agents'
import { beforeAll, describe, expect, test } from 'vitest'
import '../../matchers/index.js'
import { createSupportAgent as aiSdkAgent } from '../../examples/ai-sdk/support-agent.js'
import { createSupportAgent as agentsSdkAgent } from '../../examples/openai-agents/support-agent.js'
import { injectedTicket } from '../../examples/support-agent/agent.js'
import { contrastive } from '../../src/entries/attribution.js'
import { calledTool, type Agent, type Trajectory } from '../../src/index.js'
import { record, runRollouts } from '../../src/entries/replay.js'
import type { SupportTicket } from '../../examples/support-agent/agent.js'

beforeAll(() => setTracingDisabled(true))

const refunded = calledTool('issue_refund')

async function firstRefund(agent: Agent<SupportTicket, string>): Promise<Trajectory> {
  const set = await runRollouts(agent.on(injectedTicket), { rollouts: 16, seed: 7 })
  const bad = set.completed.find(refunded)
  if (bad === undefined) throw new Error('no refund in 16 rollouts at P(refund) = 0.6')
  return record(agent.on(injectedTicket), { seed: set.seed, rollout: bad.rollout })
}

describe.each([
  { sdk: 'AI SDK', make: aiSdkAgent },
  { sdk: 'Agents SDK', make: agentsSdkAgent },
])('contrastive attribution with the $sdk', ({ make }) => {
  test.each([false, true])('finds the decision step as the causal locus (stream: %s)', async (stream) => {
    const agent = make({ stream })
    const factual = await firstRefund(agent)
    expect(refunded(factual)).toBe(true)
    const result = await contrastive(agent, factual, { isBad: refunded, rollouts: 32, seed: 3 })
    expect(result.actionMatchRate).toBe(1)
    expect(result.baseline.point).toBe(1)
    expect(result.locus).toBe(1)
    // Resampling the decision redraws refund-or-escalate: P(bad) falls to about 0.6, an effect
    // of about −0.4; resampling the reply (after the refund was issued) changes nothing.
    const [lookup, decide, reply] = result.steps
    expect(decide?.effect.high).toBeLessThan(0)
    expect(decide?.pBad.low).toBeLessThan(0.9)
    expect(lookup?.effect.high).toBeLessThan(0)
    expect(reply?.effect.point).toBe(0)
  })

  test('a failing rate assertion names each model call apart and shows what it did', async () => {
    const failure: unknown = await expect(make({}).on(injectedTicket))
      .toRarely(refunded, { atMost: 0.05, seed: 1 })
      .then(
        () => undefined,
        (error: unknown) => error,
      )
    expect(failure).toBeInstanceOf(Error)
    const message = (failure as Error).message
    // One row per call: `model#1` … `model#3`, never three rows named `model` to count, each
    // with the adapter's summary (a tool call as `name(args)`, the reply as its text).
    expect(message).toMatch(/^ +0 +model#1 +lookup_order/m)
    expect(message).toMatch(/^ +▶ 1 +model#2 +issue_refund.*← causal locus$/m)
    expect(message).toMatch(/^ +2 +model#3 +"/m)
    expect(message).not.toMatch(/ model +[{"]/)
    expect(message).toContain('step 1 "model#2" chose issue_refund({"orderId":"A-1001","amount":99})')
  })
})
