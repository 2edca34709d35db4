import { describe, expect, it } from 'vitest'
import { bootstrapMean } from '../../../src/stats/bootstrap.js'
import { cltMean } from '../../../src/stats/clt.js'

const scores = Array.from({ length: 60 }, (_, i) => ((i * 37) % 61) / 60)

describe('bootstrapMean', () => {
  it('is reproducible for a seed and changes with it', () => {
    const first = bootstrapMean(scores, { seed: 7 })
    expect(bootstrapMean(scores, { seed: 7 })).toEqual(first)
    expect(bootstrapMean(scores, { seed: 8 })).not.toEqual(first)
    expect(bootstrapMean(scores)).toEqual(
      bootstrapMean(scores, { seed: 0, resamples: 2000, confidence: 0.95 }),
    )
  })

  it('agrees with the CLT interval on a large smooth sample', () => {
    const boot = bootstrapMean(scores, { resamples: 4000, seed: 1 })
    const clt = cltMean(scores)
    expect(boot.point).toBeCloseTo(clt.point, 12)
    expect(boot.low).toBeCloseTo(clt.low, 2)
    expect(boot.high).toBeCloseTo(clt.high, 2)
    expect(boot.method).toBe('bootstrap')
  })

  it('widens with the confidence level', () => {
    const narrow = bootstrapMean(scores, { confidence: 0.8, seed: 3 })
    const wide = bootstrapMean(scores, { confidence: 0.99, seed: 3 })
    expect(wide.high - wide.low).toBeGreaterThan(narrow.high - narrow.low)
  })

  it('collapses on all-equal data, which is why meanScoreInterval avoids it there', () => {
    expect(bootstrapMean([1, 1, 1, 1])).toMatchObject({ low: 1, high: 1 })
  })

  it('refuses an empty sample, a non-finite value and a bad resample count', () => {
    expect(() => bootstrapMean([])).toThrow(/empty/)
    expect(() => bootstrapMean([0.1, Number.NaN])).toThrow(/values\[1\]/)
    expect(() => bootstrapMean([0.1], { resamples: 0 })).toThrow(/resamples/)
  })
})

describe('cltMean', () => {
  it('is x̄ ± z·s/√n', () => {
    // x̄ = 0.5, s² = ((0.3)² + (0.1)² + (0.1)² + (0.3)²) / 3 = 0.2 / 3
    const interval = cltMean([0.2, 0.4, 0.6, 0.8])
    const half = 1.959963984540054 * Math.sqrt(0.2 / 3 / 4)
    expect(interval).toMatchObject({ point: 0.5, method: 'clt', confidence: 0.95 })
    expect(interval.low).toBeCloseTo(0.5 - half, 12)
    expect(interval.high).toBeCloseTo(0.5 + half, 12)
  })

  it('does not clamp (Shapley values and differences are not in [0, 1])', () => {
    expect(cltMean([-1, 1, -1, 1]).low).toBeLessThan(-1 / 2)
  })

  it('needs two values', () => {
    expect(() => cltMean([0.5])).toThrow(/at least two/)
  })
})
