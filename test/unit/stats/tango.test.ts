import { describe, expect, it } from 'vitest'
import { pairedScoreTestOneSided, tango, tangoScore } from '../../../src/stats/tango.js'

describe('tango', () => {
  // Tango (1998), Stat. Med. 17:891–908, worked example (PropCIs::scoreci.mp(6, 16, 161, 0.95)).
  it('reproduces the published 95% interval for [[59, 6], [16, 80]]', () => {
    const interval = tango([
      [59, 6],
      [16, 80],
    ])
    expect(interval.point).toBeCloseTo(-0.0621, 4)
    expect(interval.low).toBeCloseTo(-0.124, 4)
    expect(interval.high).toBeCloseTo(-0.0054, 4)
    expect(interval.method).toBe('tango')
  })

  it('reads named cells and rows alike', () => {
    expect(tango({ n11: 59, n12: 6, n21: 16, n22: 80 })).toEqual(
      tango([
        [59, 6],
        [16, 80],
      ]),
    )
  })

  it.each([
    [
      [0, 0],
      [0, 10],
    ],
    [
      [10, 0],
      [0, 0],
    ],
    [
      [1, 0],
      [0, 0],
    ],
    [
      [0, 1],
      [0, 0],
    ],
    [
      [0, 0],
      [1, 0],
    ],
    [
      [0, 5],
      [0, 0],
    ],
    [
      [0, 0],
      [7, 0],
    ],
    [
      [0, 3],
      [3, 0],
    ],
    [
      [2, 0],
      [0, 2],
    ],
  ] as const)('gives a finite ordered interval inside [−1, 1] for the degenerate table %j', (row1, row2) => {
    const { point, low, high } = tango([row1, row2])
    for (const end of [low, high]) expect(Number.isFinite(end)).toBe(true)
    expect(-1).toBeLessThanOrEqual(low)
    expect(low).toBeLessThanOrEqual(point)
    expect(point).toBeLessThanOrEqual(high)
    expect(high).toBeLessThanOrEqual(1)
    expect(high - low).toBeGreaterThan(0)
  })

  it('has the closed form ±z²/(N + z²) without discordant pairs', () => {
    const z2 = 1.959963984540054 ** 2
    const { low, high } = tango([
      [4, 0],
      [0, 6],
    ])
    expect(high).toBeCloseTo(z2 / (10 + z2), 9)
    expect(low).toBeCloseTo(-z2 / (10 + z2), 9)
  })

  it('is [−1, 1] for an empty table', () => {
    expect(
      tango([
        [0, 0],
        [0, 0],
      ]),
    ).toMatchObject({ point: 0, low: -1, high: 1 })
  })

  it('refuses cells that are not counts', () => {
    expect(() => tango({ n11: 1, n12: -1, n21: 0, n22: 0 })).toThrow(RangeError)
  })
})

describe('pairedScoreTestOneSided', () => {
  const table = [
    [59, 6],
    [16, 80],
  ] as const

  it("is McNemar's one-sided score test at margin 0", () => {
    // z = (6 − 16) / √22
    expect(tangoScore(table, 0)).toBeCloseTo(-10 / Math.sqrt(22), 12)
    expect(pairedScoreTestOneSided(table)).toBeCloseTo(0.016503, 6)
  })

  it('agrees with the interval: p = 0.025 where the 95% upper limit meets the margin', () => {
    expect(pairedScoreTestOneSided(table, tango(table).high)).toBeCloseTo(0.025, 8)
  })

  it('is 0.5 without discordant pairs and large for an increase', () => {
    expect(
      pairedScoreTestOneSided([
        [5, 0],
        [0, 5],
      ]),
    ).toBe(0.5)
    expect(
      pairedScoreTestOneSided([
        [5, 9],
        [1, 5],
      ]),
    ).toBeGreaterThan(0.99)
  })
})
