import seedrandom from 'seedrandom'
import { describe, expect, it } from 'vitest'
import { bettingLogWealthPath, bettingMeanTest, bettingStakes } from '../../../src/stats/betting-mean-test.js'
import { coverageCheck, errorRateCheck } from '../../binomial-check.js'

describe('bettingStakes and the wealth, by hand', () => {
  it('match the predictable plug-in of Waudby-Smith & Ramdas on two values', () => {
    const [first, second] = bettingStakes([1, 0], 0.05)
    // t = 1: σ̂² = 1/4; t = 2: μ̂ = (1/2 + 1)/2 = 3/4, σ̂² = (1/4 + 1/16)/2 = 5/32.
    expect(first).toBeCloseTo(Math.sqrt((2 * Math.log(20)) / (0.25 * Math.log(2))), 12)
    expect(second).toBeCloseTo(Math.sqrt((2 * Math.log(20)) / ((5 / 32) * 2 * Math.log(3))), 12)
    // At m = 1/2 both stakes are capped at c/m = 1: the wealth goes ×1.5 then ×0.5 on each side.
    const path = bettingLogWealthPath([1, 0], 0.5)
    expect(path[0]!.above).toBeCloseTo(Math.log(1.5), 12)
    expect(path[0]!.below).toBeCloseTo(Math.log(0.5), 12)
    expect(path[1]!.above).toBeCloseTo(Math.log(0.75), 12)
    expect(path[1]!.below).toBeCloseTo(Math.log(0.75), 12)
  })
})

/** Models of scores in [0, 1] with their exact means: skewed, binary, lumpy and flat. */
const MODELS: readonly { name: string; mean: number; draw: (rng: () => number) => number }[] = [
  { name: 'Bernoulli(0.1)', mean: 0.1, draw: (rng) => (rng() < 0.1 ? 1 : 0) },
  { name: 'U^4 (right-skewed, mean 1/5)', mean: 0.2, draw: (rng) => rng() ** 4 },
  { name: '1 − U^6 (left-skewed, mean 6/7)', mean: 6 / 7, draw: (rng) => 1 - rng() ** 6 },
  { name: '0 w.p. 0.9, else uniform (mean 0.05)', mean: 0.05, draw: (rng) => (rng() < 0.9 ? 0 : rng()) },
  {
    name: '{0, 0.5, 1} w.p. {0.7, 0.2, 0.1} (mean 0.2)',
    mean: 0.2,
    draw: (rng) => {
      const u = rng()
      return u < 0.7 ? 0 : u < 0.9 ? 0.5 : 1
    },
  },
  { name: 'uniform (mean 1/2)', mean: 0.5, draw: (rng) => rng() },
]

describe('bettingMeanTest: anytime validity on models it was not tuned to', () => {
  // Each run draws 400 values and looks after every one: a wrong decision is the wealth of a bet
  // against the true mean ever reaching 1/α on the path, the event Ville's inequality bounds by α.
  // Each side may err in at most 69 of 1,000 runs: a side erring in 10% of runs (2α) is caught with
  // probability 0.9996, and one erring in exactly 5% fails with probability 0.0069 (both sides).
  const wrongDecisions = errorRateCheck(1000, 0.05, { checks: 2 })

  it.each(MODELS)(
    '$name: each side errs in at most α = 5% of 1,000 runs, within the design',
    ({ mean, draw }) => {
      const rng = seedrandom(`betting ${mean}`)
      const threshold = Math.log(20)
      let wrongAbove = 0
      let wrongBelow = 0
      for (let run = 0; run < wrongDecisions.runs; run++) {
        const values = Array.from({ length: 400 }, () => draw(rng))
        const path = bettingLogWealthPath(values, mean, 0.05)
        if (path.some((wealth) => wealth.above >= threshold)) wrongAbove++
        if (path.some((wealth) => wealth.below >= threshold)) wrongBelow++
      }
      expect(wrongAbove).toBeLessThanOrEqual(wrongDecisions.limit)
      expect(wrongBelow).toBeLessThanOrEqual(wrongDecisions.limit)
    },
  )

  it('its confidence sequence holds the true mean at every look in ≥ 90% of 1,600 runs (it is a 1 − 2α sequence)', () => {
    // At least 1,412 of 1,600 runs must hold it at all five looks (20, 40, …, 100 values; each look
    // solves for both ends, so looks are what a run costs): a sequence holding it in 87% of runs is
    // caught with probability 0.928, and one holding it in exactly 90% fails with 0.0100.
    const design = coverageCheck(1600, 0.9)
    const rng = seedrandom('betting sequence')
    const { mean, draw } = MODELS[1]!
    let covered = 0
    for (let run = 0; run < design.runs; run++) {
      const values = Array.from({ length: 100 }, () => draw(rng))
      let always = true
      for (let n = 20; n <= 100; n += 20) {
        const result = bettingMeanTest({ values: values.slice(0, n), bound: 0.5 })
        if (!(result.low <= mean && mean <= result.high)) always = false
      }
      if (always) covered++
    }
    expect(covered).toBeGreaterThanOrEqual(design.limit)
  })
})

describe('bettingMeanTest decisions', () => {
  it('decides above, below, or not yet, consistently with its interval', () => {
    const rng = seedrandom('decisions')
    const high = Array.from({ length: 200 }, () => 0.8 + 0.2 * rng())
    const above = bettingMeanTest({ values: high, bound: 0.6 })
    expect(above.decision).toBe('above')
    expect(above.low).toBeGreaterThanOrEqual(0.6)
    expect(above.eAbove).toBeGreaterThanOrEqual(20)
    const below = bettingMeanTest({ values: high, bound: 0.95 })
    expect(below.decision).toBe('below')
    expect(below.high).toBeLessThanOrEqual(0.95)
    const early = bettingMeanTest({ values: high.slice(0, 3), bound: 0.85 })
    expect(early.decision).toBe('undecided')
    expect(early.low).toBeLessThan(0.85)
    expect(early.high).toBeGreaterThan(0.85)
    for (const result of [above, below, early]) {
      expect(result.low).toBeLessThanOrEqual(result.point)
      expect(result.point).toBeLessThanOrEqual(result.high)
    }
  })

  it('knows nothing from no values', () => {
    expect(bettingMeanTest({ values: [], bound: 0.5 })).toMatchObject({
      decision: 'undecided',
      n: 0,
      point: 0,
      low: 0,
      high: 1,
      eAbove: 1,
      eBelow: 1,
    })
  })

  it('names a bad argument', () => {
    expect(() => bettingMeanTest({ values: [0.5, 1.2], bound: 0.5 })).toThrowError(/values\[1\] is 1.2/)
    expect(() => bettingMeanTest({ values: [0.5], bound: 1 })).toThrowError(/bound/)
    expect(() => bettingMeanTest({ values: [0.5], bound: 0.5, alpha: 0 })).toThrowError(/alpha/)
  })
})
