import { describe, expect, it } from 'vitest'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { meanScoreInterval } from '../../../src/stats/mean-score.js'
import { wilson } from '../../../src/stats/wilson.js'
import { passKReport } from '../../../src/verdict/pass-k-report.js'
import { binomialProbability } from '../../binomial-check.js'

// Every rate interval the library prints from a fixed sample is Clopper–Pearson's: the stored-baseline
// gate's observed and stored rates, the score gate's share on the claim's side, a rollout set's
// `rate`, a mean of 0/1 scores, attribution's P(bad) per arm and its replay fidelity, and `toNever` /
// `toAlways` at 1 − 2α; pass^k is such an interval raised to the k-th power. Their coverage is summed
// exactly over the binomial, not simulated, at 999 rates in (0, 1), for each sample size and level,
// and must reach the level at every rate. Wilson's interval, which several of them printed before,
// falls short near 0 and 1, and the last test shows that this check sees it.

const RATES = Array.from({ length: 999 }, (_, i) => (i + 1) / 1000)
const SIZES = [20, 50, 100, 400] as const
const LEVELS = [0.9, 0.95, 0.99] as const
const PASS_KS = [1, 3, 8] as const

type Limits = { readonly low: number; readonly high: number }

const distributions = new Map<number, number[][]>()

/** P(X = c), c = 0 … n, for X ~ Binomial(n, p) at each rate of the grid; computed once per n. */
function distributionsAt(n: number): number[][] {
  let table = distributions.get(n)
  if (table === undefined) {
    table = RATES.map((rate) => Array.from({ length: n + 1 }, (_, c) => binomialProbability(c, n, rate)))
    distributions.set(n, table)
  }
  return table
}

/**
 * The lowest exact coverage over the grid of the intervals `byCount[c]` (one per count c of n) of
 * `truth(rate)`, and the rate where it is lowest.
 */
function lowestCoverage(
  n: number,
  byCount: readonly Limits[],
  truth: (rate: number) => number,
): { coverage: number; rate: number } {
  expect(byCount).toHaveLength(n + 1)
  const table = distributionsAt(n)
  expect(table).toHaveLength(RATES.length)
  let lowest = { coverage: Infinity, rate: NaN }
  RATES.forEach((rate, i) => {
    const target = truth(rate)
    let coverage = 0
    byCount.forEach(({ low, high }, c) => {
      if (low <= target && target <= high) coverage += table[i]?.[c] ?? 0
    })
    if (coverage < lowest.coverage) lowest = { coverage, rate }
  })
  return lowest
}

/** `made(c)` for each count c = 0 … n. */
function byCount<T>(n: number, made: (count: number) => T): T[] {
  return Array.from({ length: n + 1 }, (_, count) => made(count))
}

const CASES = LEVELS.flatMap((level) => SIZES.map((n) => ({ level, n })))

describe('exact coverage of the fixed-sample rate intervals, 999 rates in (0, 1)', () => {
  it.each(CASES)('a rate (Clopper–Pearson) at $level, n = $n', ({ level, n }) => {
    const lowest = lowestCoverage(
      n,
      byCount(n, (count) => clopperPearson(count, n, level)),
      (rate) => rate,
    )
    expect(lowest.coverage, `at a rate of ${lowest.rate}`).toBeGreaterThanOrEqual(level)
  })

  it.each(CASES)('a mean of 0/1 scores at $level, n = $n', ({ level, n }) => {
    const scores = (ones: number) => Array.from({ length: n }, (_, i) => (i < ones ? 1 : 0))
    const lowest = lowestCoverage(
      n,
      byCount(n, (ones) => meanScoreInterval(scores(ones), { confidence: level })),
      (rate) => rate,
    )
    expect(lowest.coverage, `at a rate of ${lowest.rate}`).toBeGreaterThanOrEqual(level)
  })

  // The observed count is of rollouts where the predicate holds; a run succeeds where it does not
  // (`toRarely`, a lower-is-better baseline) or where it does (`toUsually`, higher is better).
  it.each(CASES.flatMap((row) => [true, false].map((predicateIsBad) => ({ ...row, predicateIsBad }))))(
    'pass^k of a rate at $level, n = $n, predicate is bad: $predicateIsBad',
    ({ level, n, predicateIsBad }) => {
      const reports = byCount(
        n,
        (count) => passKReport(clopperPearson(count, n, level), predicateIsBad, PASS_KS)?.values ?? [],
      )
      for (const [index, k] of PASS_KS.entries()) {
        const intervals = reports.map((values) => {
          expect(values.map((value) => value.k)).toEqual(PASS_KS)
          return values[index] as Limits
        })
        const lowest = lowestCoverage(n, intervals, (rate) => (predicateIsBad ? 1 - rate : rate) ** k)
        expect(lowest.coverage, `pass^${k} at a rate of ${lowest.rate}`).toBeGreaterThanOrEqual(level)
      }
    },
  )

  it("tells an interval that falls short: Wilson's, at the audit's rates", () => {
    const wilson100 = byCount(100, (count) => wilson(count, 100, 0.95))
    const coverageAt = (rate: number) => {
      let coverage = 0
      wilson100.forEach(({ low, high }, c) => {
        if (low <= rate && rate <= high) coverage += binomialProbability(c, 100, rate)
      })
      return coverage
    }
    expect(coverageAt(0.0015)).toBeCloseTo(0.8606, 4)
    expect(coverageAt(0.0055)).toBeCloseTo(0.8947, 4)
    for (const n of SIZES) {
      const lowest = lowestCoverage(
        n,
        byCount(n, (count) => wilson(count, n, 0.95)),
        (rate) => rate,
      )
      expect(lowest.coverage).toBeLessThan(0.94)
    }
  })
})
