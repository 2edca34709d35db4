import { describe, expect, it } from 'vitest'
import { wilson, wilsonLimits } from '../../../src/stats/wilson.js'

describe('wilson', () => {
  // Published values (e.g. Newcombe 1998, method 3), to 4 decimals.
  it.each([
    [0, 10, 0, 0.2775],
    [1, 10, 0.0179, 0.4042],
    [5, 20, 0.1119, 0.4687],
    [13, 16, 0.5699, 0.9341],
  ])('reproduces the published 95%% interval for %i/%i', (k, n, low, high) => {
    const estimate = wilson(k, n)
    expect(estimate.low).toBeCloseTo(low, 4)
    expect(estimate.high).toBeCloseTo(high, 4)
    expect(estimate).toMatchObject({ point: k / n, successes: k, n, confidence: 0.95, method: 'wilson' })
  })

  it('is [0, 1] with no observations', () => {
    expect(wilson(0, 0)).toMatchObject({ point: 0, low: 0, high: 1 })
  })

  it('collapses onto the point at z = 0 and widens with z', () => {
    expect(wilsonLimits(3, 10, 0)).toEqual({ low: 0.3, high: 0.3 })
    const narrow = wilsonLimits(3, 10, 1)
    const wide = wilsonLimits(3, 10, 2)
    expect(wide.low).toBeLessThan(narrow.low)
    expect(wide.high).toBeGreaterThan(narrow.high)
  })
})
