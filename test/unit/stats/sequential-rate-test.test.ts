import seedrandom from 'seedrandom'
import { describe, expect, it } from 'vitest'
import { confidenceSequence } from '../../../src/stats/confidence-sequence.js'
import { mixtureLogEValues } from '../../../src/stats/mixture-e-process.js'
import { sequentialOperatingCharacteristics } from '../../../src/stats/operating-characteristics.js'
import {
  rolloutsToDecide,
  sequentialBoundaries,
  sequentialRateTest,
} from '../../../src/stats/sequential-rate-test.js'
import { errorRateCheck } from '../../binomial-check.js'

describe('sequentialRateTest', () => {
  it('passes a clean "≤ 5%" gate after 71 rollouts, between the fixed-n 59 and 90', () => {
    expect(sequentialRateTest({ successes: 0, n: 70, bound: 0.05 }).decision).toBe('undecided')
    const passed = sequentialRateTest({ successes: 0, n: 71, bound: 0.05 })
    expect(passed).toMatchObject({
      decision: 'below',
      moreRolloutsToDecide: 0,
      method: 'log-odds mixture e-process',
    })
    expect(passed.eBelow).toBeGreaterThanOrEqual(20)
    expect(passed.high).toBeLessThanOrEqual(0.05)
    expect(sequentialBoundaries(0.05).belowAtMost.indexOf(0)).toBe(71)
  })

  it('fails a clearly bad agent within a few rollouts', () => {
    const failed = sequentialRateTest({ successes: 4, n: 10, bound: 0.05 })
    expect(failed.decision).toBe('above')
    expect(failed.low).toBeGreaterThanOrEqual(0.05)
  })

  it('is symmetric: an "at least 95%" gate is the "at most 5%" gate on the complement', () => {
    for (const [successes, n] of [
      [0, 80],
      [4, 10],
      [3, 40],
    ] as const) {
      const rare = sequentialRateTest({ successes, n, bound: 0.05 })
      const usual = sequentialRateTest({ successes: n - successes, n, bound: 0.95 })
      const mirrored = { below: 'above', above: 'below', undecided: 'undecided' } as const
      expect(usual.decision).toBe(mirrored[rare.decision])
      expect(usual.low).toBeCloseTo(1 - rare.high, 8)
    }
  })

  it('decides exactly where its confidence sequence clears the bound', () => {
    for (const bound of [0.02, 0.05, 0.2, 0.5, 0.9]) {
      for (const n of [1, 5, 20, 60, 150]) {
        for (let successes = 0; successes <= n; successes += Math.max(1, Math.floor(n / 15))) {
          const result = sequentialRateTest({ successes, n, bound })
          const interval = confidenceSequence(successes, n, 0.1)
          expect(result.decision === 'below').toBe(interval.high <= bound + 1e-9)
          expect(result.decision === 'above').toBe(interval.low >= bound - 1e-9)
        }
      }
    }
  })

  it('uses the confidence sequence at 2α as its interval', () => {
    const result = sequentialRateTest({ successes: 2, n: 30, bound: 0.05, alpha: 0.1 })
    const interval = confidenceSequence(2, 30, 0.2)
    expect(result.low).toBeCloseTo(interval.low, 12)
    expect(result.high).toBeCloseTo(interval.high, 12)
  })

  it('refuses a bound outside (0, 1)', () => {
    expect(() => sequentialRateTest({ successes: 0, n: 1, bound: 0 })).toThrow(/bound must be in \(0, 1\)/)
  })
})

describe('sequentialBoundaries', () => {
  it('matches the e-values count by count', () => {
    for (const bound of [0.05, 0.2, 0.9]) {
      const { belowAtMost, aboveAtLeast } = sequentialBoundaries(bound, 0.05, 150)
      for (let n = 0; n <= 150; n++) {
        for (let successes = 0; successes <= n; successes++) {
          const logE = mixtureLogEValues(successes, n, bound)
          expect(logE.below >= Math.log(20)).toBe(successes <= (belowAtMost[n] ?? -1))
          expect(logE.above >= Math.log(20)).toBe(successes >= (aboveAtLeast[n] ?? n + 1))
        }
      }
    }
  })
})

describe('rolloutsToDecide', () => {
  it('predicts when a persisting rate decides', () => {
    const more = rolloutsToDecide({ successes: 0, n: 30, bound: 0.05 })
    expect(more).toBe(41)
    expect(sequentialRateTest({ successes: 0, n: 30 + 41, bound: 0.05 }).decision).toBe('below')
    expect(sequentialRateTest({ successes: 0, n: 30 + 40, bound: 0.05 }).decision).toBe('undecided')
    // At a rate of 1/5 the projected count is fractional: the extrapolation evaluates e-values there.
    const more5 = rolloutsToDecide({ successes: 1, n: 5, bound: 0.05 }) ?? NaN
    const total = 5 + more5
    expect(mixtureLogEValues(total / 5, total, 0.05).above).toBeGreaterThanOrEqual(Math.log(20))
    expect(mixtureLogEValues((total - 1) / 5, total - 1, 0.05).above).toBeLessThan(Math.log(20))
  })

  it('is 0 once decided and null when it never would be', () => {
    expect(rolloutsToDecide({ successes: 0, n: 100, bound: 0.05 })).toBe(0)
    expect(rolloutsToDecide({ successes: 5, n: 100, bound: 0.05 })).toBeNull()
    expect(rolloutsToDecide({ successes: 0, n: 0, bound: 0.05 })).toBeNull()
  })

  it('is reported with an undecided result', () => {
    const result = sequentialRateTest({ successes: 1, n: 100, bound: 0.05 })
    expect(result.decision).toBe('undecided')
    expect(result.moreRolloutsToDecide).toBe(rolloutsToDecide({ successes: 1, n: 100, bound: 0.05 }))
  })
})

describe('anytime validity', () => {
  const alpha = 0.05
  const maxRollouts = 400

  it.each([0.05, 0.2])(
    'at a true rate equal to the bound %d, wrongly decides in at most α of 2,000 runs checked after every rollout',
    (bound) => {
      const { belowAtMost, aboveAtLeast } = sequentialBoundaries(bound, alpha, maxRollouts)
      const random = seedrandom.alea(`anytime-validity-${bound}`)
      const runs = 2000
      let wronglyBelow = 0
      let wronglyAbove = 0
      for (let run = 0; run < runs; run++) {
        let successes = 0
        for (let n = 1; n <= maxRollouts; n++) {
          if (random() < bound) successes++
          if (successes <= (belowAtMost[n] ?? -1)) {
            wronglyBelow++
            break
          }
          if (successes >= (aboveAtLeast[n] ?? n + 1)) {
            wronglyAbove++
            break
          }
        }
      }
      // At most 126 of 2,000 each way: 2α is caught with probability ~1, exactly α fails with 0.0085
      // (both sides). The exact sums below bound the same rates without Monte Carlo error.
      const wrong = errorRateCheck(runs, alpha, { checks: 2 })
      expect(wronglyBelow).toBeLessThanOrEqual(wrong.limit)
      expect(wronglyAbove).toBeLessThanOrEqual(wrong.limit)
    },
  )

  it.each([0.01, 0.05, 0.2, 0.5])(
    'keeps both error rates ≤ α exactly (bound %d, 1,500 rollouts)',
    (bound) => {
      for (const batchSize of [1, 10]) {
        const characteristics = sequentialOperatingCharacteristics({
          rate: bound,
          bound,
          maxRollouts: 1500,
          batchSize,
        })
        expect(characteristics.pBelow).toBeLessThanOrEqual(alpha)
        expect(characteristics.pAbove).toBeLessThanOrEqual(alpha)
      }
    },
  )

  it('meets the rollout targets of a "≤ 5%" gate', () => {
    const mean = (rate: number) => sequentialOperatingCharacteristics({ rate, bound: 0.05 }).meanRollouts
    expect(mean(0)).toBeLessThanOrEqual(90)
    expect(mean(0.01)).toBeLessThanOrEqual(150)
    expect(mean(0.15)).toBeLessThanOrEqual(75)
    expect(mean(0.3)).toBeLessThanOrEqual(20)
  })
})
