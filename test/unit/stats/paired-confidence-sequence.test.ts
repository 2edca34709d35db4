import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  logEValueAbove,
  logEValueBelow,
  pairedConfidenceSequence,
  type PairedCounts,
} from '../../../src/stats/paired-confidence-sequence.js'
import { stepStream } from '../../../src/random/streams.js'
import { errorRateCheck } from '../../binomial-check.js'

// Every simulation below may err (miss, wrongly reject, wrongly stop) in at most 123 of 2,000
// runs: a rate of 2α = 10% is caught with probability ~1, and exactly α = 5% fails with 0.0095.
const WRONG_IN_2000 = errorRateCheck(2000, 0.05)

const counts = (worse: number, better: number, same: number): PairedCounts => ({ worse, better, same })

/** One paired difference D ∈ {−1, 0, 1} with P(D = +1) = up and P(D = −1) = down. */
function draw(random: () => number, up: number, down: number): -1 | 0 | 1 {
  const u = random()
  return u < up ? 1 : u < up + down ? -1 : 0
}

function add(tally: { worse: number; better: number; same: number }, d: -1 | 0 | 1): void {
  if (d === 1) tally.worse++
  else if (d === -1) tally.better++
  else tally.same++
}

describe('pairedConfidenceSequence', () => {
  it('is [−1, 1] without pairs and shrinks as concordant pairs accumulate', () => {
    expect(pairedConfidenceSequence(counts(0, 0, 0), 0.95)).toMatchObject({ point: 0, low: -1, high: 1 })
    const widths = [4, 16, 64, 256].map((n) => {
      const interval = pairedConfidenceSequence(counts(0, 0, n), 0.95)
      expect(interval.low).toBeCloseTo(-interval.high, 8)
      return interval.high - interval.low
    })
    for (let i = 1; i < widths.length; i++) expect(widths[i]).toBeLessThan(widths[i - 1] as number)
    expect(pairedConfidenceSequence(counts(0, 0, 16), 0.95).method).toBe('confidence-sequence')
  })

  it('is ordered, inside [−1, 1], contains the observed mean and never collapses', () => {
    fc.assert(
      fc.property(
        fc.nat(60),
        fc.nat(60),
        fc.nat(60),
        fc.constantFrom(0.8, 0.9, 0.95, 0.99),
        (w, b, s, confidence) => {
          const interval = pairedConfidenceSequence(counts(w, b, s), confidence)
          expect(interval.low).toBeGreaterThanOrEqual(-1)
          expect(interval.high).toBeLessThanOrEqual(1)
          expect(interval.low).toBeLessThanOrEqual(interval.point)
          expect(interval.point).toBeLessThanOrEqual(interval.high)
          expect(interval.high).toBeGreaterThan(interval.low)
        },
      ),
      { seed: 11, numRuns: 300 },
    )
  })

  it('ends where the one-sided e-values reach 2/α', () => {
    const threshold = Math.log(2 / 0.05)
    for (const c of [counts(0, 9, 7), counts(3, 3, 30), counts(5, 0, 2)]) {
      const { low, high } = pairedConfidenceSequence(c, 0.95)
      if (high < 1) {
        expect(logEValueBelow(c, high + 1e-6)).toBeGreaterThanOrEqual(threshold)
        expect(logEValueBelow(c, high - 1e-6)).toBeLessThan(threshold)
      }
      if (low > -1) {
        expect(logEValueAbove(c, low - 1e-6)).toBeGreaterThanOrEqual(threshold)
        expect(logEValueAbove(c, low + 1e-6)).toBeLessThan(threshold)
      }
    }
  })

  it('is wider at higher confidence', () => {
    const narrow = pairedConfidenceSequence(counts(2, 9, 20), 0.8)
    const wide = pairedConfidenceSequence(counts(2, 9, 20), 0.99)
    expect(wide.low).toBeLessThan(narrow.low)
    expect(wide.high).toBeGreaterThan(narrow.high)
  })

  it('covers the true mean at every n simultaneously in at least 95% of 2,000 simulated sequences', () => {
    // Time-uniform coverage: a sequence counts as a miss if the interval excludes the truth at ANY n.
    const threshold = Math.log(2 / 0.05)
    const cases = [
      { up: 0.05, down: 0.35 }, // a rescuing arm under CRN with some noise
      { up: 0, down: 0 }, // a step that never changes the outcome
      { up: 0.3, down: 0.3 }, // independent arms, no effect
    ]
    for (const [index, { up, down }] of cases.entries()) {
      const truth = up - down
      let misses = 0
      for (let sim = 0; sim < 2000; sim++) {
        const random = stepStream(1000 + index, sim, 0)
        const tally = { worse: 0, better: 0, same: 0 }
        for (let n = 1; n <= 64; n++) {
          add(tally, draw(random, up, down))
          // The sequence excludes the truth exactly when either one-sided e-value rejects it there
          // (checked by the next test), which is far cheaper than solving for the ends at every n.
          if (logEValueBelow(tally, truth) >= threshold || logEValueAbove(tally, truth) >= threshold) {
            misses++
            break
          }
        }
      }
      expect(misses).toBeLessThanOrEqual(WRONG_IN_2000.limit)
    }
  })
})

describe('the rescue e-process (logEValueBelow at 0)', () => {
  it('ignores concordant pairs: at d = 0 it is a sign test on the discordant ones', () => {
    expect(logEValueBelow(counts(1, 7, 0), 0)).toBeCloseTo(logEValueBelow(counts(1, 7, 500), 0), 12)
    expect(logEValueBelow(counts(0, 0, 500), 0)).toBeCloseTo(0, 12)
  })

  it('rejects "no rescue" at the Holm level 0.05/3 after 8 one-sided discordant pairs, not 7', () => {
    const threshold = Math.log(3 / 0.05)
    expect(logEValueBelow(counts(0, 7, 10), 0)).toBeLessThan(threshold)
    expect(logEValueBelow(counts(0, 8, 10), 0)).toBeGreaterThanOrEqual(threshold)
  })

  it('wrongly rejects at most α of the time at the boundary E[D] = 0, however often it is checked', () => {
    // Optional stopping: reject as soon as the e-value ever reaches 1/α within 200 pairs.
    for (const discordance of [0.1, 0.5]) {
      let rejections = 0
      for (let sim = 0; sim < 2000; sim++) {
        const random = stepStream(77, sim, Math.round(discordance * 10))
        const tally = { worse: 0, better: 0, same: 0 }
        for (let n = 1; n <= 200; n++) {
          add(tally, draw(random, discordance / 2, discordance / 2))
          if (logEValueBelow(tally, 0) >= Math.log(1 / 0.05)) {
            rejections++
            break
          }
        }
      }
      expect(rejections).toBeLessThanOrEqual(WRONG_IN_2000.limit)
    }
  })
})

describe('the futility e-process (logEValueAbove at −minEffect)', () => {
  it('rules out a rescue of 0.25 after 14 concordant pairs at α = 0.05, not 13', () => {
    const threshold = Math.log(1 / 0.05)
    expect(logEValueAbove(counts(0, 0, 13), -0.25)).toBeLessThan(threshold)
    expect(logEValueAbove(counts(0, 0, 14), -0.25)).toBeGreaterThanOrEqual(threshold)
  })

  it('wrongly rules out a rescue of 0.25 at most α of the time when the rescue is exactly 0.25', () => {
    let stops = 0
    for (let sim = 0; sim < 2000; sim++) {
      const random = stepStream(78, sim, 0)
      const tally = { worse: 0, better: 0, same: 0 }
      for (let n = 1; n <= 200; n++) {
        add(tally, draw(random, 0, 0.25))
        if (logEValueAbove(tally, -0.25) >= Math.log(1 / 0.05)) {
          stops++
          break
        }
      }
    }
    expect(stops).toBeLessThanOrEqual(WRONG_IN_2000.limit)
  })

  it('is nondecreasing in d for the lower side and nonincreasing for the upper side', () => {
    fc.assert(
      fc.property(
        fc.nat(30),
        fc.nat(30),
        fc.nat(30),
        fc.double({ min: -0.99, max: 0.98, noNaN: true }),
        (w, b, s, d) => {
          const c = counts(w, b, s)
          expect(logEValueBelow(c, d + 0.01)).toBeGreaterThanOrEqual(logEValueBelow(c, d) - 1e-9)
          expect(logEValueAbove(c, d + 0.01)).toBeLessThanOrEqual(logEValueAbove(c, d) + 1e-9)
        },
      ),
      { seed: 12, numRuns: 300 },
    )
  })
})
