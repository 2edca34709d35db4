import { describe, expect, it } from 'vitest'
import { roundOrder, roundStreamKey } from '../../../src/random/round-order.js'

describe('roundOrder', () => {
  it('is a permutation of the cases, the same for the same seed and round', () => {
    for (const cases of [0, 1, 2, 5, 500]) {
      const order = roundOrder(7, 3, cases)
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: cases }, (_, i) => i))
      expect(roundOrder(7, 3, cases)).toEqual(order)
    }
    expect(roundOrder(7, 3, 50)).not.toEqual(roundOrder(7, 4, 50))
    expect(roundOrder(7, 3, 50)).not.toEqual(roundOrder(8, 3, 50))
    expect(roundStreamKey(7, 3)).toBe('7/round:3')
  })

  it('puts each case first about equally often', () => {
    // 5 cases first-placed over 4000 rounds: each count is Binomial(4000, 0.2) under a uniform order,
    // so a case leaves 800 ± 4.5 sd (|z| > 4.5: probability < 1e-4 over the five) only for a biased shuffle.
    const firsts = [0, 0, 0, 0, 0]
    for (let round = 0; round < 4000; round++) firsts[roundOrder(1, round, 5)[0] as number]!++
    for (const count of firsts) expect(Math.abs(count - 800)).toBeLessThan(4.5 * Math.sqrt(4000 * 0.2 * 0.8))
  })

  it('refuses a negative or fractional number of cases', () => {
    expect(() => roundOrder(1, 0, -1)).toThrow(/cases must be a non-negative integer, got -1/)
    expect(() => roundOrder(1, 0, 1.5)).toThrow(/got 1.5/)
  })
})
