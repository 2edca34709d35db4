import { describe, expect, it } from 'vitest'
import { defineAgent } from '../../../src/index.js'
import { RolloutAbortedError } from '../../../src/entries/errors.js'
import { Budget } from '../../../src/rollout/budget.js'
import { sequentialBoundaries } from '../../../src/stats/sequential-rate-test.js'
import type { ResolvedSequentialGate } from '../../../src/verdict/options.js'
import { VerdictSchema } from '../../../src/verdict/schema.js'
import { runSequentialGate } from '../../../src/verdict/sequential-gate.js'
import { coinAgent, sequentialGate, subject, type GateOverrides, type returnedBad } from './gate-helpers.js'

const rarely = (p: number, overrides: GateOverrides<ResolvedSequentialGate<'rarely' | 'usually'>> = {}) =>
  runSequentialGate(coinAgent(p).on({ p }), subject(), sequentialGate(overrides))

describe('runSequentialGate', () => {
  it('passes a perfect agent at the first n where the sequential test allows it (≥ 59 clean rollouts)', async () => {
    const { verdict, failing } = await rarely(0)
    const firstCleanPass = sequentialBoundaries(0.05, 0.05, 400).belowAtMost.findIndex((limit) => limit >= 0)
    expect(firstCleanPass).toBeGreaterThanOrEqual(59)
    expect(verdict.kind).toBe('pass')
    expect(verdict.stop).toBe('decided')
    // The rate's interval is the test's own anytime-valid confidence sequence, not a Wilson CI.
    expect(verdict.observed).toMatchObject({
      successes: 0,
      n: firstCleanPass,
      method: 'confidence-sequence',
    })
    expect(verdict.observed.confidence).toBeCloseTo(0.9, 12)
    expect(verdict.observed.high).toBeCloseTo(verdict.decision!.interval.high, 12)
    expect(verdict.rolloutsUsed).toBe(firstCleanPass)
    expect(verdict.decision!.interval.high).toBeLessThanOrEqual(0.05)
    expect(verdict.replay).toBeNull()
    expect(failing).toBeNull()
    expect(() => VerdictSchema.parse(verdict)).not.toThrow()
  })

  it('fails a clearly bad agent within two batches, naming its first bad rollout', async () => {
    const { verdict, failing } = await rarely(0.6)
    expect(verdict.kind).toBe('fail')
    expect(verdict.rolloutsUsed).toBeLessThanOrEqual(16)
    expect(verdict.decision!.interval.low).toBeGreaterThan(0.05)
    expect(failing).not.toBeNull()
    expect(failing!.output).toBe('bad')
    expect(verdict.replay).toEqual({ seed: 7, rollout: failing!.rollout })
    // It is the first bad rollout by index.
    expect(failing!.rollout).toBe(verdict.replay!.rollout)
  })

  it('is inconclusive at the bound when maxRollouts is small, and says how many rollouts would decide', async () => {
    const { verdict, failing } = await rarely(0.05, { maxRollouts: 40 })
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.stop).toBe('max-rollouts')
    expect(verdict.rolloutsUsed).toBe(40)
    if (verdict.observed.successes > 0) {
      expect(failing).not.toBeNull()
      expect(verdict.rolloutsToDecide === null || verdict.rolloutsToDecide > 40).toBe(true)
    }
  })

  it('gives the same verdict at any concurrency (the stopping point is per rollout, in index order)', async () => {
    const verdicts = await Promise.all([1, 3, 8, 32].map((concurrency) => rarely(0.1, { concurrency })))
    // Only what ran past the deciding rollout (paid for, not scored) depends on the batch size.
    const scored = ({ rolloutsRun: _ran, ...verdict }: (typeof verdicts)[number]['verdict']) => verdict
    for (const { verdict } of verdicts) expect(scored(verdict)).toEqual(scored(verdicts[0]!.verdict))
    for (const { verdict } of verdicts)
      expect(verdict.rolloutsRun).toBeGreaterThanOrEqual(verdict.rolloutsUsed)
  })

  it('toUsually: the predicate is the good outcome; failing rollouts are those where it does not hold', async () => {
    const good = (t: { output?: unknown }) => t.output === 'good'
    Object.defineProperty(good, 'name', { value: 'returnGood' })
    const run = await runSequentialGate(
      coinAgent(0.3).on({ p: 0.3 }),
      subject(good),
      sequentialGate({ claim: 'usually', direction: 'atLeast', bound: 0.95 }),
    )
    expect(run.verdict.kind).toBe('fail')
    expect(run.verdict).toMatchObject({ claim: 'usually', bound: 0.95 })
    expect(run.failing!.output).toBe('bad')
    expect(await run.isBad(run.failing!)).toBe(true)
  })

  it('fails on the first error outcome unless allowErrors, and never counts errors as good', async () => {
    const flaky = defineAgent({
      name: 'flaky',
      input: null,
      async run(_input, ctx) {
        const action = await ctx.step('decide', (rng) => rng())
        if (ctx.rollout.index === 5) throw new TypeError('tool exploded')
        return action < 0 ? 'bad' : 'good'
      },
    })
    const strict = await runSequentialGate(flaky.on(null), subject(), sequentialGate())
    expect(strict.verdict.kind).toBe('fail')
    expect(strict.verdict.stop).toBe('error')
    expect(strict.verdict.rolloutsUsed).toBe(6)
    expect(strict.verdict.replay).toEqual({ seed: 7, rollout: 5 })
    expect(strict.verdict.errors.examples[0]).toMatchObject({
      rollout: 5,
      error: { kind: 'threw', name: 'TypeError' },
    })

    const lenient = await runSequentialGate(flaky.on(null), subject(), sequentialGate({ allowErrors: true }))
    expect(lenient.verdict.kind).toBe('pass')
    expect(lenient.verdict.errors.count).toBe(1)
    expect(lenient.verdict.observed.n).toBe(lenient.verdict.rolloutsUsed - 1)
  })

  it('turns a spent budget into inconclusive and never exceeds it', async () => {
    const budget = new Budget({ maxRollouts: 20 })
    const { verdict } = await rarely(0.05, { budget })
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.stop).toBe('budget')
    expect(verdict.rolloutsUsed).toBe(20)
    expect(budget.spentRollouts).toBe(20)
  })

  it('stops starting rollouts once the signal aborts', async () => {
    const controller = new AbortController()
    let started = 0
    const slow = defineAgent({
      name: 'slow',
      input: null,
      async run(_input, ctx) {
        started++
        if (started === 10) controller.abort(new RolloutAbortedError('test timed out'))
        await new Promise((resolve) => setTimeout(resolve, 1))
        return ctx.step('decide', () => 'good')
      },
    })
    await expect(
      runSequentialGate(
        slow.on(null),
        subject(),
        sequentialGate({ concurrency: 2, signal: controller.signal }),
      ),
    ).rejects.toThrow(RolloutAbortedError)
    expect(started).toBeLessThanOrEqual(11)
  })

  it('rejects a predicate that does not return a boolean, naming the rollout', async () => {
    const sloppy = (() => undefined) as unknown as typeof returnedBad
    await expect(
      runSequentialGate(coinAgent(0.1).on({ p: 0.1 }), subject(sloppy), sequentialGate()),
    ).rejects.toThrow(
      'the predicate "return bad": `predicate` must be a function (trajectory) => boolean (or a promise of one), got one that returned undefined on rollout 0. A missing `return`?',
    )
  })

  it('accepts an async predicate (an LLM judge)', async () => {
    const judge = async (t: { output?: unknown }) => t.output === 'bad'
    const { verdict } = await runSequentialGate(
      coinAgent(0.6).on({ p: 0.6 }),
      subject(judge),
      sequentialGate(),
    )
    expect(verdict.kind).toBe('fail')
  })

  it('respects minRollouts before stopping', async () => {
    const { verdict } = await rarely(0.6, { minRollouts: 50 })
    expect(verdict.kind).toBe('fail')
    expect(verdict.rolloutsUsed).toBe(50)
  })
})
