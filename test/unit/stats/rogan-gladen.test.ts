import { describe, expect, test } from 'vitest'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { judgeErrorBox, roganGladen } from '../../../src/stats/rogan-gladen.js'

describe('roganGladen', () => {
  test('inverts the apparent rate of a judge (hand-computed)', () => {
    // Apparent 20% with Se 0.9, Sp 0.95: (0.2 + 0.95 − 1) / (0.9 + 0.95 − 1) = 0.15 / 0.85.
    expect(roganGladen(0.2, 0.9, 0.95)).toBeCloseTo(0.15 / 0.85, 12)
    // Se 0.8, Sp 0.97, true 10%: apparent 0.8·0.1 + 0.03·0.9 = 0.107, and back.
    expect(roganGladen(0.107, 0.8, 0.97)).toBeCloseTo(0.1, 12)
    // A perfect judge changes nothing; estimates outside [0, 1] are clamped.
    expect(roganGladen(0.37, 1, 1)).toBeCloseTo(0.37, 12)
    expect(roganGladen(0.01, 0.9, 0.95)).toBe(0)
    expect(roganGladen(0.99, 0.9, 0.95)).toBe(1)
    expect(() => roganGladen(0.2, 0.5, 0.5)).toThrow(/must exceed 1/)
  })

  test('the box is the two Clopper–Pearson intervals at 1 − α/4 each', () => {
    const box = judgeErrorBox({ correct: 47, of: 50 }, { correct: 95, of: 100 }, 0.05)
    const se = clopperPearson(47, 50, 1 - 0.0125)
    const sp = clopperPearson(95, 100, 1 - 0.0125)
    expect(box).toEqual({
      sensitivity: { low: se.low, high: se.high },
      specificity: { low: sp.low, high: sp.high },
    })
  })
})
