// The support agent written with LangGraph, tested as a stochastic system: a rate assertion with a
// confidence interval, counterfactual attribution of a failing run, and a swap of its model.
import { describe, expect, test } from 'vitest'
import '../../matchers/index.js'
import { swapModel } from '../../src/adapters/langchain/index.js'
import { contrastive } from '../../src/entries/attribution.js'
import { calledTool } from '../../src/index.js'
import { record, replay, runRollouts } from '../../src/entries/replay.js'
import { carefulTicket, injectedTicket } from '../support-agent/agent.js'
import { supportAgent } from './support-agent.js'
import { SupportChatModel } from './support-model.js'

const refundsWrongly = calledTool('issue_refund')

describe('support agent (LangGraph createReactAgent + a seeded BaseChatModel)', () => {
  test('rarely refunds a polite ticket: at most 5% at 95% confidence', async () => {
    // At a true rate of 2%, about 600 rollouts separate it from 5%.
    await expect(supportAgent.on(carefulTicket)).toRarely(refundsWrongly, {
      atMost: 0.05,
      seed: 1,
      maxRollouts: 1000,
    })
  })

  test('a prompt injection makes it refund; the failure names the decision call as the causal locus', async () => {
    const verdict = expect(supportAgent.on(injectedTicket)).toRarely(refundsWrongly, {
      atMost: 0.05,
      seed: 1,
    })
    await expect(verdict).rejects.toThrow(/expected support-langgraph to rarely call issue_refund/)
    // Step 1 is the model's second call (model#2), the one that chose between refund and escalate.
    await expect(verdict).rejects.toThrow(/▶ 1 +model#2 .*← causal locus/)
  })

  test('contrastive attribution of a refunded run: the model call that decided (step 1) is the locus', async () => {
    const rollouts = await runRollouts(supportAgent.on(injectedTicket), { rollouts: 8, seed: 2 })
    const failing = rollouts.completed.find(refundsWrongly)
    expect(failing).toBeDefined()
    const factual = await record(supportAgent.on(injectedTicket), {
      seed: rollouts.seed,
      rollout: failing!.rollout,
    })
    const attribution = await contrastive(supportAgent, factual, {
      isBad: refundsWrongly,
      rollouts: 32,
      seed: 5,
    })
    expect(attribution.actionMatchRate).toBe(1)
    expect(attribution.locus).toBe(1)
    // Redrawing the decision rescues the run about 40% of the time (P(refund) = 0.6).
    expect(attribution.steps[1]?.effect.high).toBeLessThan(0)
    expect(attribution.steps[2]?.effect.point).toBe(0)
  })

  test('swapModel: a careful model from the decision on removes the refunds', async () => {
    const rollouts = await runRollouts(supportAgent.on(injectedTicket), { rollouts: 8, seed: 2 })
    const failing = rollouts.completed.find(refundsWrongly)
    expect(failing).toBeDefined()
    const factual = await record(supportAgent.on(injectedTicket), {
      seed: rollouts.seed,
      rollout: failing!.rollout,
    })
    const careful = new SupportChatModel({
      modelId: 'careful-1',
      refundProbability: { normal: 0, injected: 0 },
    })
    const swapped = await replay(supportAgent, factual, swapModel(1, careful), { rollouts: 16, seed: 3 })
    expect(swapped.errors).toEqual([])
    expect(swapped.rate(refundsWrongly).point).toBe(0)
    expect(swapped.trajectories).toHaveLength(16)
    for (const trajectory of swapped.trajectories) {
      expect(trajectory.steps.map((step) => step.source)).toEqual(['held', 'swapped', 'swapped'])
      expect(trajectory.steps[1]?.meta).toMatchObject({
        modelId: 'careful-1',
        summary: expect.stringMatching(/^escalate\(/),
      })
    }
  })
})
