import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normalCdf } from '../../../src/stats/normal.js'
import { pairedScoreTestOneSided, tango } from '../../../src/stats/tango.js'
import {
  pairedCorrectedScoreTestOneSided,
  TANGO_CONTINUITY_CORRECTION,
  tangoCorrected,
} from '../../../src/stats/tango-corrected.js'

const table = fc.integer({ min: 1, max: 120 }).chain((n) =>
  fc
    .tuple(fc.integer({ min: 0, max: n }), fc.integer({ min: 0, max: n }), fc.integer({ min: 0, max: n }))
    .map(([a, b, c]) => {
      const [n12, rest] = [Math.min(a, n), n - Math.min(a, n)]
      const n21 = Math.min(b, rest)
      const n11 = Math.min(c, rest - n21)
      return { n11, n12, n21, n22: n - n12 - n21 - n11 }
    }),
)

describe('tangoCorrected', () => {
  it('defaults to a correction of half a pair', () => {
    expect(TANGO_CONTINUITY_CORRECTION).toBe(0.5)
  })

  // Tango (1998), Stat. Med. 17:891–908, worked example (PropCIs::scoreci.mp(6, 16, 161, 0.95)):
  // with no correction the interval is Tango's own.
  it('reproduces the published uncorrected 95% interval for [[59, 6], [16, 80]] at c = 0', () => {
    const interval = tangoCorrected({ n11: 59, n12: 6, n21: 16, n22: 80 }, 0.95, 0)
    expect(interval.point).toBeCloseTo(-0.0621, 4)
    expect(interval.low).toBeCloseTo(-0.124, 4)
    expect(interval.high).toBeCloseTo(-0.0054, 4)
  })

  it('equals tango() at c = 0 on any table', () => {
    fc.assert(
      fc.property(table, fc.constantFrom(0.8, 0.9, 0.95, 0.99), (cells, level) => {
        const corrected = tangoCorrected(cells, level, 0)
        const plain = tango(cells, level)
        expect(corrected.low).toBeCloseTo(plain.low, 9)
        expect(corrected.high).toBeCloseTo(plain.high, 9)
      }),
    )
  })

  // McNemar's test with Edwards' correction, χ² = (|b − c| − 1)² / (b + c), on the Bentur et al.
  // (2009) table [[1, 1], [7, 12]] of Fagerland, Lydersen & Laake, "Statistical Analysis of
  // Contingency Tables" (2017), ch. 8: χ² = 3.125, two-sided P = 0.077.
  it('is the continuity-corrected McNemar test at Δ0 = 0 with c = 1 (published example)', () => {
    const p = pairedCorrectedScoreTestOneSided({ n11: 1, n12: 1, n21: 7, n22: 12 }, 0, 1)
    expect(2 * p).toBeCloseTo(0.0771, 4)
    expect(p).toBeCloseTo(normalCdf(-5 / Math.sqrt(8)), 12)
  })

  it('at Δ0 = 0 with c = ½ is Φ((n12 − n21 + ½) / √(n12 + n21)) (hand-computed)', () => {
    expect(pairedCorrectedScoreTestOneSided({ n11: 20, n12: 2, n21: 9, n22: 1 })).toBeCloseTo(
      normalCdf(-6.5 / Math.sqrt(11)),
      12,
    )
    // Not below 0 by more than the correction: no evidence.
    expect(pairedCorrectedScoreTestOneSided({ n11: 20, n12: 3, n21: 3, n22: 1 })).toBe(0.5)
  })

  it('is wider than Tango on both sides, ordered, in [−1, 1] and contains the point', () => {
    fc.assert(
      fc.property(table, fc.constantFrom(0.8, 0.9, 0.95, 0.99), (cells, level) => {
        const corrected = tangoCorrected(cells, level)
        const plain = tango(cells, level)
        expect(corrected.low).toBeLessThanOrEqual(plain.low + 1e-9)
        expect(corrected.high).toBeGreaterThanOrEqual(plain.high - 1e-9)
        expect(-1).toBeLessThanOrEqual(corrected.low)
        expect(corrected.low).toBeLessThanOrEqual(corrected.point)
        expect(corrected.point).toBeLessThanOrEqual(corrected.high)
        expect(corrected.high).toBeLessThanOrEqual(1)
      }),
    )
  })

  it('reaches ±1 only when every pair is discordant that way', () => {
    expect(tangoCorrected({ n11: 0, n12: 0, n21: 20, n22: 0 }).low).toBe(-1)
    expect(tangoCorrected({ n11: 0, n12: 20, n21: 0, n22: 0 }).high).toBe(1)
    expect(tangoCorrected({ n11: 1, n12: 0, n21: 19, n22: 0 }).low).toBeGreaterThan(-1)
    expect(tangoCorrected({ n11: 0, n12: 0, n21: 0, n22: 0 })).toMatchObject({ point: 0, low: -1, high: 1 })
  })

  it('rejects at α exactly when the two-sided (1 − 2α) upper end lies below the margin', () => {
    fc.assert(
      fc.property(
        table,
        fc.double({ min: 0.001, max: 0.2, noNaN: true }),
        fc.constantFrom(0, -0.1, 0.2),
        (cells, alpha, margin) => {
          const p = pairedCorrectedScoreTestOneSided(cells, margin)
          const high = tangoCorrected(cells, 1 - 2 * alpha).high
          // Bisection resolves the end to 1e-12; skip the measure-zero ties.
          fc.pre(Math.abs(high - margin) > 1e-9 && Math.abs(p - alpha) > 1e-12)
          expect(p <= alpha).toBe(high < margin)
        },
      ),
    )
  })

  it('is more conservative than the uncorrected test', () => {
    fc.assert(
      fc.property(table, (cells) => {
        expect(pairedCorrectedScoreTestOneSided(cells)).toBeGreaterThanOrEqual(
          Math.min(0.5, pairedScoreTestOneSided(cells)) - 1e-12,
        )
      }),
    )
  })

  it('refuses a correction outside [0, 1] and a margin outside (−1, 1)', () => {
    expect(() => tangoCorrected({ n11: 1, n12: 1, n21: 1, n22: 1 }, 0.95, -0.5)).toThrow(RangeError)
    expect(() => pairedCorrectedScoreTestOneSided({ n11: 1, n12: 1, n21: 1, n22: 1 }, 1)).toThrow(
      /margin must be in/,
    )
  })
})
