import { describe, expect, it } from 'vitest'
import { confidenceSequence } from '../../../src/stats/confidence-sequence.js'
import { sequentialOperatingCharacteristics } from '../../../src/stats/operating-characteristics.js'
import { wilson } from '../../../src/stats/wilson.js'

describe('confidenceSequence', () => {
  it('is [0, 1] before any observation and keeps the exact ends at 0/n and n/n', () => {
    expect(confidenceSequence(0, 0)).toMatchObject({
      point: 0,
      low: 0,
      high: 1,
      method: 'confidence-sequence',
    })
    expect(confidenceSequence(0, 50)).toMatchObject({ low: 0 })
    expect(confidenceSequence(50, 50)).toMatchObject({ high: 1 })
  })

  it('is wider than the fixed-n Wilson interval (the price of optional stopping) and shrinks with n', () => {
    const sequence = confidenceSequence(23, 100)
    const fixed = wilson(23, 100)
    expect(sequence.low).toBeLessThan(fixed.low)
    expect(sequence.high).toBeGreaterThan(fixed.high)
    const later = confidenceSequence(230, 1000)
    expect(later.high - later.low).toBeLessThan(sequence.high - sequence.low)
  })

  it.each([0.02, 0.3, 0.5])(
    'covers the true rate %d at every n at once with probability ≥ 1 − α (exact)',
    (rate) => {
      // The sequence misses the rate at some n exactly when an α/2 test at bound = rate decides.
      const misses = sequentialOperatingCharacteristics({
        rate,
        bound: rate,
        alpha: 0.025,
        maxRollouts: 1000,
      })
      expect(misses.pBelow + misses.pAbove).toBeLessThanOrEqual(0.05)
    },
  )
})
