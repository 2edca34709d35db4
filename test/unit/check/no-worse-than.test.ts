import { describe, expect, it } from 'vitest'
import { carefulTicket, injectedTicket } from '../../../examples/support-agent/agent.js'
import {
  GUARDED_PROMPT,
  OLD_PROMPT,
  promptedSupportAgent,
  TERSE_PROMPT,
} from '../../../examples/support-agent/prompted-agent.js'
import { calledTool, check, defineAgent, noWorseThan, type Trajectory } from '../../../src/index.js'
import { ArtifactSchema } from '../../../src/entries/schemas.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'
import { renderReportHtml } from '../../../src/html/html.js'

const oldPrompt = promptedSupportAgent('support@old-prompt', OLD_PROMPT)
const guarded = promptedSupportAgent('support@guarded', GUARDED_PROMPT)
const terse = promptedSupportAgent('support@terse', TERSE_PROMPT)
const refunds = calledTool('issue_refund')

describe('check(candidate, noWorseThan(baseline, pred))', () => {
  it('passes a prompt change shown no worse within the margin; the message says the pairs shared random numbers', async () => {
    const result = await check(
      guarded.on(injectedTicket),
      noWorseThan(oldPrompt.on(injectedTicket), refunds, { margin: 0.05, seed: 1 }),
    )
    expect(result.passed).toBe(true)
    expect(result.verdict).toMatchObject({ gate: 'comparison', claim: 'noWorseThan', kind: 'pass' })
    expect(() => ArtifactSchema.parse(JSON.parse(JSON.stringify(result.artifact)))).not.toThrow()
    expect(result.message).toMatchSnapshot()
  })

  it('fails a regression, attributes the first rollout bad for the candidate only and names the locus', async () => {
    const result = await check(
      terse.on(carefulTicket),
      noWorseThan(oldPrompt.on(carefulTicket), refunds, { margin: 0.05, seed: 1 }),
    )
    expect(result.passed).toBe(false)
    expect(result.verdict.kind).toBe('fail')
    expect(result.attribution?.locus).toBe(1)
    expect(result.message).toMatch(/is the first where support@terse was bad and support@old-prompt was not/)
    expect(result.message).toMatchSnapshot()
    const page = renderReportHtml(result.artifact)
    expect(page).toContain('paired by rollout under common random numbers')
  })

  it('is honest when the agents do not share step structure', async () => {
    // A candidate that thinks before it decides: its decide step is step 1, the baseline's step 0.
    const planner = defineAgent({
      name: 'planner',
      input: {},
      async run(_input, ctx) {
        await ctx.step('plan', (rng) => (rng() < 0.5 ? 'a' : 'b'))
        return ctx.step('decide', (rng) => (rng() < 0.02 ? 'bad' : 'good'))
      },
    })
    const direct = defineAgent({
      name: 'direct',
      input: {},
      async run(_input, ctx) {
        return ctx.step('decide', (rng) => (rng() < 0.3 ? 'bad' : 'good'))
      },
    })
    const result = await check(
      planner.on({}),
      noWorseThan(direct.on({}), (t) => t.output === 'bad', { margin: 0.05, seed: 1 }),
    )
    expect(result.verdict.kind).toBe('pass')
    expect(result.verdict.gate === 'comparison' && result.verdict.comparison.sharedSteps).toBe(0)
    expect(result.message).toMatch(/so the pairs are independent draws; the paired test stays valid/)
  })

  it('reads a success predicate with better: higher', async () => {
    const escalates = (t: Trajectory) =>
      t.steps.some((step) => step.name === 'decide' && step.action === 'escalate')
    const result = await check(
      oldPrompt.on(carefulTicket),
      noWorseThan(terse.on(carefulTicket), escalates, { better: 'higher', margin: 0.05, seed: 1 }),
    )
    expect(result.verdict.kind).toBe('pass')
    expect(result.message).toMatch(/no less often than support@terse \(margin -5\.0%\)/)
  })

  it('names a bad baseline or option', () => {
    expect(() => noWorseThan(42 as never, refunds)).toThrow(InvalidOptionError)
    expect(() => noWorseThan(oldPrompt, refunds, { margin: 1 })).toThrow(/margin/)
    expect(() => noWorseThan(oldPrompt, refunds, { tolerance: 0.1 } as never)).toThrow(/tolerance/)
  })
})
