import { describe, expect, it } from 'vitest'
import { holm } from '../../../src/stats/holm.js'

describe('holm', () => {
  it('matches a hand-computed example', () => {
    // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, max(0.04·1, 0.06) = 0.06.
    const adjusted = holm([0.01, 0.04, 0.03, 0.005])
    ;[0.03, 0.06, 0.06, 0.02].forEach((expected, i) => expect(adjusted[i]).toBeCloseTo(expected, 12))
  })

  it('caps at 1 and keeps the step-down order monotone', () => {
    expect(holm([0.5, 0.6])).toEqual([1, 1])
    expect(holm([0.02, 0.02, 0.9])).toEqual([0.06, 0.06, 0.9])
  })

  it('leaves a single p-value alone and accepts no p-values', () => {
    expect(holm([0.03])).toEqual([0.03])
    expect(holm([])).toEqual([])
  })

  it('refuses values that are not probabilities', () => {
    expect(() => holm([0.1, Number.NaN])).toThrow(/pValues\[1\]/)
    expect(() => holm([1.2])).toThrow(RangeError)
  })
})
