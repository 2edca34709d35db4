import { describe, expect, it } from 'vitest'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'

/** P(X ≥ k) for X ~ Binomial(n, p), by summing the probability mass function. */
function binomialUpperTail(k: number, n: number, p: number): number {
  let tail = 0
  let logChoose = 0
  for (let x = 0; x <= n; x++) {
    if (x > 0) logChoose += Math.log((n - x + 1) / x)
    if (x >= k) tail += Math.exp(logChoose + x * Math.log(p) + (n - x) * Math.log1p(-p))
  }
  return tail
}

describe('clopperPearson', () => {
  // Published values (e.g. Newcombe 1998, method 5), to 4 decimals.
  it.each([
    [0, 10, 0, 0.3085],
    [10, 10, 0.6915, 1],
    [13, 16, 0.5435, 0.9595],
    [1, 10, 0.0025, 0.445],
  ])('reproduces the published 95%% interval for %i/%i', (k, n, low, high) => {
    const estimate = clopperPearson(k, n)
    expect(estimate.low).toBeCloseTo(low, 4)
    expect(estimate.high).toBeCloseTo(high, 4)
    expect(estimate).toMatchObject({ point: k / n, successes: k, n, method: 'clopper-pearson' })
  })

  it.each([
    [1, 10],
    [7, 40],
    [150, 400],
  ])('puts exactly α/2 of the binomial tail beyond each end for %i/%i', (k, n) => {
    const { low, high } = clopperPearson(k, n, 0.9)
    expect(binomialUpperTail(k, n, low)).toBeCloseTo(0.05, 10)
    expect(1 - binomialUpperTail(k + 1, n, high)).toBeCloseTo(0.05, 10)
  })

  it('is never narrower than Wilson at 0/n', () => {
    expect(clopperPearson(0, 10).high).toBeGreaterThan(0.2775)
  })

  it('refuses impossible counts', () => {
    expect(() => clopperPearson(11, 10)).toThrow(RangeError)
    expect(() => clopperPearson(1.5, 10)).toThrow(/successes must be an integer/)
    expect(() => clopperPearson(1, 10, 1)).toThrow(/confidence/)
  })
})
