import { describe, expect, it } from 'vitest'
import { defineAgent } from '../../../src/index.js'
import { runComparisonGate } from '../../../src/verdict/comparison-gate.js'
import type { ResolvedComparison } from '../../../src/verdict/options.js'
import { claimDirection, VerdictSchema } from '../../../src/verdict/schema.js'
import { coinAgent, common, returnedBad, subject, withOverrides, type GateOverrides } from './gate-helpers.js'

function comparisonGate(overrides: GateOverrides<ResolvedComparison> = {}): ResolvedComparison {
  return withOverrides({ ...common(), margin: 0.05, better: 'lower', maxRollouts: 400 }, overrides)
}

function compare(candidate: number, baseline: number, overrides: GateOverrides<ResolvedComparison> = {}) {
  return runComparisonGate(
    coinAgent(candidate, 'new-prompt').on({ p: candidate }),
    { scenario: coinAgent(baseline, 'old-prompt').on({ p: baseline }), name: 'old-prompt' },
    { ...subject(), agent: 'new-prompt' },
    comparisonGate(overrides),
  )
}

describe('runComparisonGate', () => {
  it('passes a clear improvement (30% → 10% bad) under common random numbers, in few pairs', async () => {
    const { verdict, failing } = await compare(0.1, 0.3)
    expect(verdict.kind).toBe('pass')
    expect(verdict.stop).toBe('decided')
    expect(failing).toBeNull()
    expect(verdict.replay).toBeNull()
    // Same step, same stream: the candidate is bad only where the baseline is too.
    expect(verdict.comparison.pairs.worse).toBe(0)
    expect(verdict.comparison.sharedSteps).toBe(verdict.rolloutsUsed)
    expect(verdict.comparison.difference!.high).toBeLessThan(0.05)
    expect(verdict.rolloutsUsed).toBeLessThan(60)
    // Both agents' rollouts were paid for, batches past the deciding pair included.
    expect(verdict.rolloutsRun).toBeGreaterThanOrEqual(2 * verdict.rolloutsUsed)
    expect(() => VerdictSchema.parse(verdict)).not.toThrow()
    expect(claimDirection(verdict)).toBe('atMost')
  })

  it('fails a clear regression (10% → 40% bad) and attributes the first rollout bad for the candidate only', async () => {
    const { verdict, failing } = await compare(0.4, 0.1)
    expect(verdict.kind).toBe('fail')
    expect(verdict.comparison.difference!.low).toBeGreaterThan(0.05)
    expect(failing).not.toBeNull()
    expect(returnedBad(failing!)).toBe(true)
    expect(verdict.replay).toEqual({ seed: 7, rollout: failing!.rollout })
  })

  it('is inconclusive when an unchanged agent is held to a margin of 0 (concordant pairs prove nothing at 0)', async () => {
    const { verdict } = await compare(0.2, 0.2, { margin: 0, maxRollouts: 48 })
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.stop).toBe('max-rollouts')
    expect(verdict.comparison.pairs).toEqual({ worse: 0, better: 0, same: 48 })
  })

  it('passes an unchanged agent within a margin of 5%: every concordant pair is evidence', async () => {
    const { verdict } = await compare(0.2, 0.2)
    expect(verdict.kind).toBe('pass')
    expect(verdict.comparison.difference!.point).toBe(0)
  })

  it('reads a success predicate with better: higher, its difference mirrored', async () => {
    const success = (t: { output?: unknown }) => t.output === 'good'
    const { verdict } = await runComparisonGate(
      coinAgent(0.1, 'new-prompt').on({ p: 0.1 }),
      { scenario: coinAgent(0.3, 'old-prompt').on({ p: 0.3 }), name: 'old-prompt' },
      { ...subject(success), agent: 'new-prompt', label: 'return good' },
      comparisonGate({ better: 'higher' }),
    )
    expect(verdict.kind).toBe('pass')
    // The success rate went up: the predicate's difference is positive, its worse (lower) end above −5%.
    expect(verdict.comparison.difference!.point).toBeGreaterThan(0)
    expect(verdict.comparison.difference!.low).toBeGreaterThan(-0.05)
    expect(claimDirection(verdict)).toBe('atLeast')
  })

  it('gives the same verdict at any concurrency', async () => {
    const one = await compare(0.25, 0.2, { concurrency: 1, maxRollouts: 64 })
    const many = await compare(0.25, 0.2, { concurrency: 13, maxRollouts: 64 })
    const { rolloutsRun: _a, ...a } = one.verdict
    const { rolloutsRun: _b, ...b } = many.verdict
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
  })

  it('says when the agents made different steps: pairs are then independent draws', async () => {
    const twoSteps = defineAgent({
      name: 'two-step',
      input: { p: 0.1 },
      async run(_input, ctx) {
        await ctx.step('plan', () => 'plan')
        return ctx.step('decide', (rng) => (rng() < 0.1 ? 'bad' : 'good'))
      },
    })
    const { verdict } = await runComparisonGate(
      twoSteps.on({ p: 0.1 }),
      { scenario: coinAgent(0.1, 'old').on({ p: 0.1 }), name: 'old' },
      { ...subject(), agent: 'two-step' },
      comparisonGate({ maxRollouts: 16 }),
    )
    expect(verdict.comparison.sharedSteps).toBe(0)
  })

  it('fails on an error outcome of the baseline unless errors are allowed, with nothing of the candidate to replay', async () => {
    const broken = defineAgent({
      name: 'broken',
      input: {},
      async run() {
        throw new Error('down')
      },
    })
    const { verdict, failing } = await runComparisonGate(
      coinAgent(0.1, 'new').on({ p: 0.1 }),
      { scenario: broken.on({}), name: 'broken' },
      { ...subject(), agent: 'new' },
      comparisonGate(),
    )
    expect(verdict).toMatchObject({ kind: 'fail', stop: 'error', replay: null })
    expect(verdict.comparison.baselineErrors).toBe(1)
    expect(failing).toBeNull()
    const allowed = await runComparisonGate(
      coinAgent(0.1, 'new').on({ p: 0.1 }),
      { scenario: broken.on({}), name: 'broken' },
      { ...subject(), agent: 'new' },
      comparisonGate({ allowErrors: true, maxRollouts: 8 }),
    )
    expect(allowed.verdict).toMatchObject({ kind: 'inconclusive', stop: 'max-rollouts' })
    expect(allowed.verdict.comparison.difference).toBeNull()
  })
})
