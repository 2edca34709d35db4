import { describe, expect, it } from 'vitest'
import { cltMean } from '../../../src/stats/clt.js'
import { normalQuantile } from '../../../src/stats/normal.js'
import { studentTCdf, studentTMean, studentTQuantile, twoSidedT } from '../../../src/stats/student-t.js'

describe('studentTQuantile', () => {
  // Published critical values (e.g. NIST/SEMATECH e-Handbook §1.3.6.7.2, Abramowitz & Stegun
  // Table 26.10), quoted to 4 decimals, and closed forms at ν = 1 (Cauchy: tan(π(p − 1/2))) and
  // ν = 2 ((2p − 1)·√(2 / (4p(1 − p)))).
  it.each([
    [0.975, 1, 12.7062],
    [0.975, 2, 4.3027],
    [0.975, 5, 2.5706],
    [0.975, 10, 2.2281],
    [0.975, 31, 2.0395],
    [0.975, 100, 1.984],
    [0.995, 10, 3.1693],
    [0.95, 20, 1.7247],
    [0.9995, 3, 12.924],
  ])('t(%d, %d) = %d', (p, df, expected) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(expected, 4)
    expect(studentTQuantile(1 - p, df)).toBeCloseTo(-expected, 4)
  })

  it('matches the closed forms at 1 and 2 degrees of freedom to 1e-9 relative', () => {
    for (const p of [0.6, 0.9, 0.975, 0.999]) {
      expect(studentTQuantile(p, 1) / Math.tan(Math.PI * (p - 0.5))).toBeCloseTo(1, 9)
      expect(studentTQuantile(p, 2) / ((2 * p - 1) * Math.sqrt(2 / (4 * p * (1 - p))))).toBeCloseTo(1, 9)
    }
  })

  it('inverts studentTCdf, approaches the normal quantile, and is 0 at p = 1/2', () => {
    for (const df of [1, 3.5, 31, 1000]) {
      for (const p of [0.01, 0.3, 0.8, 0.975])
        expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 10)
    }
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(normalQuantile(0.975), 5)
    expect(studentTQuantile(0.5, 4)).toBe(0)
    expect(studentTQuantile(0, 4)).toBe(-Infinity)
    expect(studentTQuantile(1, 4)).toBe(Infinity)
    expect(twoSidedT(0.95, 31)).toBeCloseTo(2.0395, 4)
    expect(() => studentTQuantile(1.5, 3)).toThrow(RangeError)
    expect(() => studentTQuantile(0.9, 0)).toThrow(/degreesOfFreedom/)
  })
})

describe('studentTCdf', () => {
  it('gives the Cauchy distribution at ν = 1 and 1/2 at 0', () => {
    for (const t of [-3, -0.5, 0, 2, 40])
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 13)
    expect(studentTCdf(Infinity, 3)).toBe(1)
    expect(studentTCdf(-Infinity, 3)).toBe(0)
  })
})

describe('studentTMean', () => {
  it('is x̄ ± t·s/√n: wider than cltMean by t/z', () => {
    // 1..5: mean 3, s = √2.5, n = 5 ⇒ half-width 2.7764·√0.5 = 1.9632.
    const interval = studentTMean([1, 2, 3, 4, 5])
    expect(interval.point).toBe(3)
    expect(interval.high - interval.point).toBeCloseTo(2.776445 * Math.sqrt(0.5), 5)
    const clt = cltMean([1, 2, 3, 4, 5])
    expect((interval.high - interval.point) / (clt.high - clt.point)).toBeCloseTo(2.776445 / 1.959964, 5)
    expect(() => studentTMean([1])).toThrow(/two values/)
  })
})
