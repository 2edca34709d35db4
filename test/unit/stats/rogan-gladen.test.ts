import seedrandom from 'seedrandom'
import { describe, expect, test } from 'vitest'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import {
  apparentBounds,
  boxIsInformative,
  correctedRange,
  judgeErrorBox,
  roganGladen,
} from '../../../src/stats/rogan-gladen.js'

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
    expect(boxIsInformative(box)).toBe(true)
    expect(boxIsInformative(judgeErrorBox({ correct: 6, of: 10 }, { correct: 6, of: 10 }, 0.05))).toBe(false)
  })

  test('the apparent bounds decide exactly where the corrected interval crosses the bound', () => {
    const rng = seedrandom('apparent bounds')
    for (let i = 0; i < 2000; i++) {
      const positives = 10 + Math.floor(rng() * 90)
      const negatives = 10 + Math.floor(rng() * 90)
      const box = judgeErrorBox(
        { correct: Math.floor(positives * (0.7 + 0.3 * rng())), of: positives },
        { correct: Math.floor(negatives * (0.7 + 0.3 * rng())), of: negatives },
        0.05,
      )
      if (!boxIsInformative(box)) continue
      const bound = 0.05 + 0.9 * rng()
      const { below, above } = apparentBounds(bound, box)
      const q = rng()
      const range = correctedRange({ low: q, high: q }, box)
      // Away from the boundary (1e-9), below ⟺ the corrected high is under the bound.
      if (Math.abs(q - below) > 1e-9) expect(range.high < bound).toBe(q < below)
      if (Math.abs(q - above) > 1e-9) expect(range.low > bound).toBe(q > above)
      expect(range.low).toBeLessThanOrEqual(range.high)
    }
  })

  test('a box with a judge no better than chance bounds nothing', () => {
    const box = judgeErrorBox({ correct: 6, of: 10 }, { correct: 6, of: 10 }, 0.05)
    expect(correctedRange({ low: 0.2, high: 0.3 }, box)).toEqual({ low: 0, high: 1 })
  })
})
