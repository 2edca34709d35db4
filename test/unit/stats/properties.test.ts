import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { confidenceSequence } from '../../../src/stats/confidence-sequence.js'
import { meanScoreInterval } from '../../../src/stats/mean-score.js'
import { newcombe } from '../../../src/stats/newcombe.js'
import { tango } from '../../../src/stats/tango.js'
import { wilson } from '../../../src/stats/wilson.js'

const count = fc
  .integer({ min: 0, max: 300 })
  .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)))
const confidence = fc.constantFrom(0.8, 0.9, 0.95, 0.99)

function expectOrdered(
  { low, point, high }: { low: number; point: number; high: number },
  min: number,
  max: number,
) {
  expect(Number.isFinite(low) && Number.isFinite(high)).toBe(true)
  expect(min).toBeLessThanOrEqual(low)
  expect(low).toBeLessThanOrEqual(point + 1e-12)
  expect(point).toBeLessThanOrEqual(high + 1e-12)
  expect(high).toBeLessThanOrEqual(max)
}

describe('interval invariants', () => {
  it('Wilson, Clopper–Pearson and the confidence sequence are ordered, in [0, 1] and contain the point', () => {
    fc.assert(
      fc.property(count, confidence, ([k, n], level) => {
        expectOrdered(wilson(k, n, level), 0, 1)
        expectOrdered(clopperPearson(k, n, level), 0, 1)
        expectOrdered(confidenceSequence(k, n, 1 - level), 0, 1)
      }),
    )
  })

  it('Newcombe is ordered, in [−1, 1] and contains the point', () => {
    fc.assert(
      fc.property(count, count, confidence, ([s1, n1], [s2, n2], level) => {
        expectOrdered(newcombe(s1, n1, s2, n2, level), -1, 1)
      }),
    )
  })

  it('Tango is ordered, in [−1, 1] and contains the point, degenerate tables included', () => {
    const cell = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 200 }))
    fc.assert(
      fc.property(cell, cell, cell, cell, confidence, (n11, n12, n21, n22, level) => {
        expectOrdered(tango({ n11, n12, n21, n22 }, level), -1, 1)
      }),
    )
  })

  it('mean score intervals are ordered, in [0, 1] and contain the mean', () => {
    const score = fc.oneof(fc.constantFrom(0, 1, 0.5), fc.double({ min: 0, max: 1, noNaN: true }))
    fc.assert(
      fc.property(fc.array(score, { minLength: 1, maxLength: 40 }), fc.boolean(), (scores, clt) => {
        expectOrdered(meanScoreInterval(scores, { method: clt ? 'clt' : 'bootstrap', resamples: 200 }), 0, 1)
      }),
    )
  })
})
