import { describe, expect, it } from 'vitest'
import { check, defineAgent, never, rarely, usually } from '../../../src/index.js'
import { passHatK } from '../../../src/stats/pass-k.js'

/** Each run is bad with probability 0.3, drawn from its own stream. */
const flaky = defineAgent({
  name: 'flaky',
  input: null,
  run: async (_input, ctx) => ctx.step('decide', (rng) => (rng() < 0.3 ? 'bad' : 'good')),
})
const returnedBad = (t: { output?: unknown }) => t.output === 'bad'

describe('pass^k in a verdict', () => {
  it('reports the unbiased estimate for each asked k, a run succeeding when it is not bad', async () => {
    const { verdict, message } = await check(
      flaky,
      rarely(returnedBad, { atMost: 0.05, seed: 3, attribute: false }),
    )
    const { successes, n } = verdict.observed
    expect(verdict.passK?.values.map((value) => value.k)).toEqual([1, 3, 8])
    expect(verdict.passK!.values.length).toBeGreaterThan(0)
    for (const value of verdict.passK!.values) {
      expect(value.point).toBeCloseTo(passHatK(n - successes, n, value.k), 14)
      // The rate's interval, mirrored to successes and raised to the k-th power.
      expect(value.high).toBeCloseTo(Math.max((1 - verdict.observed.low) ** value.k, value.point), 14)
      expect(value.low).toBeLessThanOrEqual(value.point)
    }
    expect(verdict.passK?.confidence).toBe(verdict.observed.confidence)
    expect(message).toMatch(
      /\n {2}pass\^k \(none of k runs return bad\): pass\^1 [\d.]+% \[[\d.]+%–[\d.]+%\], pass\^3 /,
    )
  })

  it('counts a run with the predicate as the success of an "at least" claim, and takes its own k', async () => {
    const returnedGood = (t: { output?: unknown }) => t.output === 'good'
    const { verdict, message } = await check(
      flaky,
      usually(returnedGood, { atLeast: 0.5, seed: 3, attribute: false, passK: [5, 2, 2] }),
    )
    expect(verdict.passK?.values.map((value) => value.k)).toEqual([2, 5])
    const [two] = verdict.passK!.values
    expect(two!.point).toBeCloseTo(passHatK(verdict.observed.successes, verdict.observed.n, 2), 14)
    expect(message).toContain('pass^k (all k runs return good): pass^2 ')
  })

  it('leaves out a k above the completed rollouts, and reports none with passK: []', async () => {
    const few = await check(flaky, never(returnedBad, { rollouts: 5, seed: 1, attribute: false }))
    // Of the default k (1, 3, 8), only 1 is within the rollouts the failing gate completed.
    expect(few.verdict.observed.n).toBeLessThan(3)
    expect(few.verdict.passK?.values.map((value) => value.k)).toEqual([1])
    expect(few.verdict.passK?.values.every((value) => value.k <= few.verdict.observed.n)).toBe(true)
    const none = await check(
      flaky,
      never(returnedBad, { rollouts: 20, seed: 1, attribute: false, passK: [] }),
    )
    expect(none.verdict.passK).toBeUndefined()
    expect(none.message).not.toContain('pass^k')
  })
})
