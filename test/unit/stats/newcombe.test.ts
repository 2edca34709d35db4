import { describe, expect, it } from 'vitest'
import { independentScoreTestOneSided, newcombe, newcombeCorrected } from '../../../src/stats/newcombe.js'

describe('newcombe', () => {
  // Newcombe (1998), "Interval estimation for the difference between independent proportions",
  // method 10, on the paper's worked examples.
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [6, 7, 2, 7, 0.0582, 0.8062],
    [5, 56, 0, 29, -0.0381, 0.1926],
    [0, 10, 0, 20, -0.1611, 0.2775],
    [10, 10, 0, 10, 0.6075, 1],
  ])('reproduces the published 95%% interval for %i/%i − %i/%i', (s1, n1, s2, n2, low, high) => {
    const interval = newcombe(s1, n1, s2, n2)
    expect(interval.low).toBeCloseTo(low, 4)
    expect(interval.high).toBeCloseTo(high, 4)
    expect(interval.point).toBeCloseTo(s1 / n1 - s2 / n2, 12)
    expect(interval.method).toBe('newcombe')
  })
})

describe('independentScoreTestOneSided', () => {
  it('agrees with the interval: p = α/2 exactly where the 1 − α upper limit meets the margin', () => {
    const { high, low } = newcombe(2, 30, 10, 30)
    expect(independentScoreTestOneSided(2, 30, 10, 30, high)).toBeCloseTo(0.025, 8)
    expect(1 - independentScoreTestOneSided(2, 30, 10, 30, low)).toBeCloseTo(0.025, 8)
  })

  it('is small for a clear reduction, large for an increase, 0.5 at no difference', () => {
    const reduction = independentScoreTestOneSided(2, 30, 10, 30)
    expect(reduction).toBeLessThan(0.01)
    expect(independentScoreTestOneSided(10, 30, 2, 30)).toBeGreaterThan(0.99)
    expect(independentScoreTestOneSided(5, 30, 5, 30)).toBe(0.5)
  })

  it('rejects at 0.05 exactly when the 90% interval lies below 0', () => {
    for (const [s1, s2] of [
      [3, 9],
      [4, 9],
      [5, 9],
      [6, 12],
    ] as const) {
      const rejects = independentScoreTestOneSided(s1, 40, s2, 40) < 0.05
      expect(rejects).toBe(newcombe(s1, 40, s2, 40, 0.9).high < 0)
    }
  })
})

describe('newcombeCorrected', () => {
  // Newcombe (1998), method 11 (continuity-corrected Wilson limits), on the paper's worked examples.
  it.each([
    [56, 70, 48, 80, 0.0428, 0.3422],
    [9, 10, 3, 10, 0.1013, 0.8387],
  ])('reproduces the published 95%% interval for %i/%i − %i/%i', (s1, n1, s2, n2, low, high) => {
    const interval = newcombeCorrected(s1, n1, s2, n2)
    expect(interval.low).toBeCloseTo(low, 4)
    expect(interval.high).toBeCloseTo(high, 4)
    expect(interval.method).toBe('newcombe-corrected')
  })

  it('contains method 10 and stays ordered inside [−1, 1], at the edges too', () => {
    for (const [s1, n1, s2, n2] of [
      [0, 10, 0, 20],
      [10, 10, 0, 10],
      [5, 56, 0, 29],
      [1, 100, 99, 100],
      [23, 100, 40, 100],
    ] as const) {
      const corrected = newcombeCorrected(s1, n1, s2, n2, 0.9)
      const plain = newcombe(s1, n1, s2, n2, 0.9)
      expect(corrected.low).toBeLessThanOrEqual(plain.low + 1e-12)
      expect(corrected.high).toBeGreaterThanOrEqual(plain.high - 1e-12)
      expect(-1).toBeLessThanOrEqual(corrected.low)
      expect(corrected.low).toBeLessThanOrEqual(corrected.point)
      expect(corrected.point).toBeLessThanOrEqual(corrected.high)
      expect(corrected.high).toBeLessThanOrEqual(1)
    }
  })
})
