import { describe, expect, it } from 'vitest'
import { bootstrapMean } from '../../../src/stats/bootstrap.js'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { meanScoreInterval } from '../../../src/stats/mean-score.js'
import { wilson } from '../../../src/stats/wilson.js'

describe('meanScoreInterval', () => {
  it('uses Clopper–Pearson on the sum for 0/1 scores, where a bootstrap at k = 0 or k = n has zero width', () => {
    const zeros = Array.from({ length: 10 }, () => 0)
    expect(meanScoreInterval(zeros)).toMatchObject({ point: 0, low: 0, method: 'clopper-pearson' })
    // Newcombe (1998), method 5: 0/10 gives [0, 0.3085].
    expect(meanScoreInterval(zeros).high).toBeCloseTo(0.3085, 4)
    const mixed = [1, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    const exact = clopperPearson(2, 10, 0.9)
    expect(meanScoreInterval(mixed, { confidence: 0.9 })).toEqual({
      point: 0.2,
      low: exact.low,
      high: exact.high,
      confidence: 0.9,
      method: 'clopper-pearson',
    })
  })

  it('uses Wilson on the fractional sum for all-equal scores', () => {
    const interval = meanScoreInterval([0.5, 0.5, 0.5, 0.5, 0.5, 0.5])
    expect(interval).toMatchObject({
      point: 0.5,
      low: wilson(3, 6).low,
      high: wilson(3, 6).high,
      method: 'wilson',
    })
  })

  it('bootstraps varied scores by default, seeded, and clamps to [0, 1]', () => {
    const scores = [0.9, 1, 1, 0.95, 1, 1, 0.99, 1]
    const interval = meanScoreInterval(scores, { seed: 4 })
    expect(interval.method).toBe('bootstrap')
    expect(interval).toEqual({ ...bootstrapMean(scores, { seed: 4 }), high: Math.min(1, interval.high) })
    const clt = meanScoreInterval(scores, { method: 'clt' })
    expect(clt.method).toBe('clt')
    expect(clt.high).toBe(1)
  })

  it('knows nothing from no scores', () => {
    expect(meanScoreInterval([])).toMatchObject({ point: 0, low: 0, high: 1 })
  })

  it('refuses scores outside [0, 1]', () => {
    expect(() => meanScoreInterval([0.2, 1.5])).toThrow(/scores\[1\] is 1.5/)
  })
})
