import { test } from 'vitest'
import { createSupportAgent } from '../../examples/ai-sdk/support-agent.js'
import { injectedTicket } from '../../examples/support-agent/agent.js'
import { record, replay, hold, runRollouts, calledTool } from '../../src/index.js'

test('scratch', async () => {
  const agent = createSupportAgent()
  const t0 = performance.now()
  const set = await runRollouts(agent.on(injectedTicket), { rollouts: 100, seed: 1 })
  console.log('100 rollouts ms', performance.now() - t0, set.errors.slice(0, 2))
  console.log(set.rate(calledTool('issue_refund')))
  const factual = await record(agent.on(injectedTicket), { seed: 1, rollout: 0 })
  console.log(JSON.stringify(factual, null, 1).slice(0, 6000))
  const r = await replay(agent, factual, hold('all'), { rollouts: 4, seed: 3 })
  console.log(r.actionMatchRate, r.trajectories.map((t) => t.output))
  const s = await replay(createSupportAgent({ stream: true }), await record(createSupportAgent({ stream: true }).on(injectedTicket), { seed: 1 }), hold('all'), { rollouts: 4, seed: 3 })
  console.log(s.actionMatchRate, s.trajectories.map((t) => t.output ?? t.error))
})
