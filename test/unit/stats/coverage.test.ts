import seedrandom from 'seedrandom'
import { describe, expect, it } from 'vitest'
import { newcombe } from '../../../src/stats/newcombe.js'
import { tango } from '../../../src/stats/tango.js'
import { wilson } from '../../../src/stats/wilson.js'
import { coverageCheck } from '../../binomial-check.js'

// Coverage by simulation at points where each method is known to be close to nominal (moderate p,
// tens of observations; exact coverage 0.946–0.957 at every point below): 95% intervals should cover
// the truth in at least 1,877 (93.85%) and at most 97% of 2,000 seeded cases. The lower limit is the
// binomial design: 92% coverage is caught with probability 0.999, and exactly 95% fails with 0.0095;
// the upper one only keeps an interval from passing by being uselessly wide. Wilson's coverage oscillates with n·p — at p = 0.15,
// n = 100 it dips to 0.933 — so the points are chosen, not arbitrary.
const CASES = 2000
const ENOUGH = coverageCheck(CASES, 0.95).limit / CASES

function binomial(random: () => number, n: number, p: number): number {
  let count = 0
  for (let i = 0; i < n; i++) if (random() < p) count++
  return count
}

function coverage(seed: string, covers: (random: () => number) => boolean): number {
  const random = seedrandom.alea(seed)
  let covered = 0
  for (let i = 0; i < CASES; i++) if (covers(random)) covered++
  return covered / CASES
}

describe('coverage of 95% intervals', () => {
  it.each([
    [0.3, 50],
    [0.4, 80],
    [0.25, 120],
  ])('Wilson at p = %d, n = %i', (p, n) => {
    const rate = coverage(`wilson-${p}-${n}`, (random) => {
      const { low, high } = wilson(binomial(random, n, p), n)
      return low <= p && p <= high
    })
    expect(rate).toBeGreaterThanOrEqual(ENOUGH)
    expect(rate).toBeLessThanOrEqual(0.97)
  })

  it.each([
    [0.3, 50, 0.5, 50],
    [0.2, 80, 0.35, 60],
    [0.6, 40, 0.5, 40],
  ])('Newcombe at p1 = %d (n1 = %i), p2 = %d (n2 = %i)', (p1, n1, p2, n2) => {
    const rate = coverage(`newcombe-${p1}-${n1}-${p2}-${n2}`, (random) => {
      const { low, high } = newcombe(binomial(random, n1, p1), n1, binomial(random, n2, p2), n2)
      return low <= p1 - p2 && p1 - p2 <= high
    })
    expect(rate).toBeGreaterThanOrEqual(ENOUGH)
    expect(rate).toBeLessThanOrEqual(0.97)
  })

  it.each([
    [[0.35, 0.15, 0.1, 0.4], 100],
    [[0.3, 0.2, 0.1, 0.4], 60],
    [[0.45, 0.05, 0.1, 0.4], 150],
  ] as const)('Tango at cell probabilities %j, N = %i', (cells, total) => {
    const [p11, p12, p21] = cells
    const truth = p12 - p21
    const rate = coverage(`tango-${cells.join('-')}-${total}`, (random) => {
      const table = { n11: 0, n12: 0, n21: 0, n22: 0 }
      for (let i = 0; i < total; i++) {
        const u = random()
        if (u < p11) table.n11++
        else if (u < p11 + p12) table.n12++
        else if (u < p11 + p12 + p21) table.n21++
        else table.n22++
      }
      const { low, high } = tango(table)
      return low <= truth && truth <= high
    })
    expect(rate).toBeGreaterThanOrEqual(ENOUGH)
    expect(rate).toBeLessThanOrEqual(0.97)
  })
})
