import { describe, expect, it } from 'vitest'
import { VerdictSchema } from '../../../src/verdict/schema.js'
import { runZeroToleranceGate } from '../../../src/verdict/zero-tolerance-gate.js'
import { coinAgent, returnedBad, subject, zeroToleranceGate } from './gate-helpers.js'

describe('runZeroToleranceGate', () => {
  it('toNever: zero in 100 passes with the exact one-sided bound 1 − 0.05^(1/100) ≈ 2.95%', async () => {
    const { verdict } = await runZeroToleranceGate(coinAgent(0).on({ p: 0 }), subject(), zeroToleranceGate())
    expect(verdict.kind).toBe('pass')
    expect(verdict.stop).toBe('completed')
    expect(verdict.rolloutsUsed).toBe(100)
    expect(verdict.observed).toMatchObject({ successes: 0, n: 100, method: 'clopper-pearson' })
    expect(verdict.oneSidedBound!.low).toBe(0)
    expect(verdict.oneSidedBound!.high).toBeCloseTo(1 - 0.05 ** (1 / 100), 10)
    expect(verdict.oneSidedBound!.high).toBeCloseTo(0.0295, 4)
    expect(verdict.oneSidedBound!.confidence).toBe(0.95)
    expect(() => VerdictSchema.parse(verdict)).not.toThrow()
  })

  it('toNever: the first occurrence (by index) stops the run and fails it, at any concurrency', async () => {
    const runs = await Promise.all(
      [1, 8].map((concurrency) =>
        runZeroToleranceGate(coinAgent(0.05).on({ p: 0.05 }), subject(), zeroToleranceGate({ concurrency })),
      ),
    )
    const [first, second] = runs
    expect(first!.verdict.kind).toBe('fail')
    expect(first!.verdict.stop).toBe('occurrence')
    expect(first!.failing!.output).toBe('bad')
    expect(first!.verdict.rolloutsUsed).toBe(first!.failing!.rollout + 1)
    expect(first!.verdict.replay).toEqual({ seed: 7, rollout: first!.failing!.rollout })
    // `rolloutsRun` is cost accounting: the pool runs ahead of the rollout being scored, further
    // at a higher concurrency. Everything else is the same.
    expect(first!.verdict.rolloutsRun).toBe(first!.verdict.rolloutsUsed)
    expect(second!.verdict.rolloutsRun).toBeGreaterThanOrEqual(second!.verdict.rolloutsUsed)
    expect({ ...second!.verdict, rolloutsRun: 0 }).toEqual({ ...first!.verdict, rolloutsRun: 0 })
  })

  it('toAlways: symmetric; a pass bounds the rate from below by 0.05^(1/N)', async () => {
    const good = (t: { output?: unknown }) => !returnedBad(t as never)
    const pass = await runZeroToleranceGate(
      coinAgent(0).on({ p: 0 }),
      subject(good),
      zeroToleranceGate({ claim: 'always', direction: 'atLeast', rollouts: 60 }),
    )
    expect(pass.verdict.kind).toBe('pass')
    expect(pass.verdict.claim).toBe('always')
    expect(pass.verdict.oneSidedBound!.low).toBeCloseTo(0.05 ** (1 / 60), 10)
    expect(pass.verdict.oneSidedBound!.high).toBe(1)

    const fail = await runZeroToleranceGate(
      coinAgent(0.2).on({ p: 0.2 }),
      subject(good),
      zeroToleranceGate({ claim: 'always', direction: 'atLeast', rollouts: 60 }),
    )
    expect(fail.verdict.kind).toBe('fail')
    expect(fail.failing!.output).toBe('bad')
  })
})
