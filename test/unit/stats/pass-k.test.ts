import { describe, expect, it } from 'vitest'
import { passHatK, passK } from '../../../src/stats/pass-k.js'
import { wilson } from '../../../src/stats/wilson.js'

/** log C(n, k), exactly enough for n ≤ 60. */
function choose(n: number, k: number): number {
  let value = 1
  for (let i = 1; i <= k; i++) value = (value * (n - k + i)) / i
  return value
}

function binomialPmf(n: number, c: number, p: number): number {
  return choose(n, c) * p ** c * (1 - p) ** (n - c)
}

describe('passHatK', () => {
  it('is C(c, k)/C(n, k)', () => {
    expect(passHatK(6, 8, 3)).toBeCloseTo(20 / 56, 14)
    expect(passHatK(8, 8, 8)).toBe(1)
    expect(passHatK(7, 8, 8)).toBe(0)
    expect(passHatK(2, 8, 3)).toBe(0)
    expect(passHatK(5, 10, 1)).toBe(0.5)
  })

  it('is exactly unbiased for p^k over Binomial(n, p), where the plug-in (c/n)^k is not', () => {
    for (const n of [8, 20, 40]) {
      for (const k of [1, 3, 8]) {
        for (const p of [0.05, 0.3, 0.7, 0.95]) {
          let unbiased = 0
          let plugIn = 0
          for (let c = 0; c <= n; c++) {
            unbiased += binomialPmf(n, c, p) * passHatK(c, n, k)
            plugIn += binomialPmf(n, c, p) * (c / n) ** k
          }
          expect(unbiased).toBeCloseTo(p ** k, 12)
          if (k > 1) expect(plugIn).toBeGreaterThan(p ** k)
        }
      }
    }
  })

  it('names a bad k', () => {
    expect(() => passHatK(3, 5, 6)).toThrowError(/k must be an integer in \[1, n = 5\]/)
    expect(() => passHatK(3, 5, 0)).toThrowError(/k/)
  })
})

describe('passK', () => {
  it('maps the rate interval through x^k, holds its point, and leaves out k > n', () => {
    const rate = wilson(30, 40, 0.95)
    const values = passK(30, 40, [1, 3, 8, 50], rate)
    expect(values.map((value) => value.k)).toEqual([1, 3, 8])
    for (const value of values) {
      expect(value.low).toBeLessThanOrEqual(value.point)
      expect(value.point).toBeLessThanOrEqual(value.high)
      expect(value.high).toBeCloseTo(rate.high ** value.k, 14)
    }
  })

  it('covers p^k exactly as often as the rate interval covers p (exact enumeration, Wilson 95%, n = 30)', () => {
    const n = 30
    for (const p of [0.1, 0.5, 0.8, 0.97]) {
      for (const k of [3, 8]) {
        let rateCoverage = 0
        let passCoverage = 0
        for (let c = 0; c <= n; c++) {
          const rate = wilson(c, n, 0.95)
          const [value] = passK(c, n, [k], rate)
          const weight = binomialPmf(n, c, p)
          if (rate.low <= p && p <= rate.high) rateCoverage += weight
          if (value!.low <= p ** k && p ** k <= value!.high) passCoverage += weight
        }
        expect(passCoverage).toBeGreaterThanOrEqual(rateCoverage - 1e-12)
      }
    }
  })
})
