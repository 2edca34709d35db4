import { describe, expect, it } from 'vitest'
import {
  inverseRegularizedIncompleteBeta,
  logIncompleteBeta,
  regularizedIncompleteBeta,
} from '../../../src/stats/incomplete-beta.js'
import { regularizedGammaP, regularizedGammaQ } from '../../../src/stats/incomplete-gamma.js'
import { logBeta, logGamma } from '../../../src/stats/log-gamma.js'
import { normalCdf, normalQuantile } from '../../../src/stats/normal.js'

describe('logGamma', () => {
  it('matches factorials and Γ(1/2) = √π', () => {
    expect(logGamma(1)).toBeCloseTo(0, 14)
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12)
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 14)
    expect(logBeta(2, 3)).toBeCloseTo(Math.log(1 / 12), 14)
  })
})

describe('incomplete gamma', () => {
  it('gives P(1, x) = 1 − e^(−x) on both branches', () => {
    for (const x of [0.1, 1, 5, 30]) {
      expect(regularizedGammaP(1, x)).toBeCloseTo(1 - Math.exp(-x), 14)
      expect(regularizedGammaQ(1, x) / Math.exp(-x)).toBeCloseTo(1, 12)
    }
  })
})

describe('normalCdf', () => {
  it.each([
    [0, 0.5],
    [1.959963984540054, 0.975],
    [-1, 0.15865525393145707],
    [-10, 7.61985302416047e-24],
    [3, 0.9986501019683699],
  ])('Φ(%d) = %d', (x, expected) => {
    expect(normalCdf(x) / expected).toBeCloseTo(1, 12)
  })

  it('inverts normalQuantile', () => {
    for (const p of [1e-12, 0.001, 0.2, 0.5, 0.77, 0.999])
      expect(normalCdf(normalQuantile(p)) / p).toBeCloseTo(1, 12)
  })
})

describe('incomplete beta', () => {
  it('matches binomial tails: I_x(k, n − k + 1) = P(Binomial(n, x) ≥ k)', () => {
    // I_0.3(2, 5) = 1 − 0.7⁶ − 6·0.3·0.7⁵
    expect(regularizedIncompleteBeta(0.3, 2, 5)).toBeCloseTo(0.579825, 14)
    expect(regularizedIncompleteBeta(0.5, 10, 10)).toBeCloseTo(0.5, 13)
    // Beta(½, ½) is the arcsine law.
    expect(regularizedIncompleteBeta(0.9, 0.5, 0.5)).toBeCloseTo(
      (2 / Math.PI) * Math.asin(Math.sqrt(0.9)),
      13,
    )
  })

  it('keeps tails far below double precision relative to the whole', () => {
    // ∫_0.05^1 (1 − t)^999 dt = 0.95^1000 / 1000
    expect(logIncompleteBeta(0.05, 1, 1000, 'upper')).toBeCloseTo(1000 * Math.log(0.95) - Math.log(1000), 10)
  })

  it('inverts to 1e-10', () => {
    for (const [p, a, b] of [
      [0.025, 1, 10],
      [0.975, 2, 9],
      [0.5, 0.5, 0.5],
      [1e-6, 30, 400],
    ] as const) {
      const x = inverseRegularizedIncompleteBeta(p, a, b)
      expect(Math.abs(regularizedIncompleteBeta(x, a, b) - p)).toBeLessThan(1e-10)
    }
  })
})
