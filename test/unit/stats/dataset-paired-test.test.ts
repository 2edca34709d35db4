import seedrandom from 'seedrandom'
import { describe, expect, it } from 'vitest'
import { roundOrder } from '../../../src/random/round-order.js'
import {
  DATASET_PAIRED_METHOD,
  datasetPairedDecision,
  datasetPairedTest,
} from '../../../src/stats/dataset-paired-test.js'
import { datasetRateTest, type RoundCounts } from '../../../src/stats/dataset-rate-test.js'
import { errorRateCheck } from '../../binomial-check.js'

/** A case's pair law: P(worse for the candidate), P(better for it); the rest are ties. */
type PairLaw = readonly [worse: number, better: number]

interface PairedRun {
  decision: 'below' | 'above' | 'undecided'
  worse: RoundCounts[]
  better: RoundCounts[]
  pairs: number
}

/** One seeded A/B over a dataset: pairs in rounds, asked after every pair, up to `maxPairs`. */
function runPaired(
  laws: readonly PairLaw[],
  margin: number,
  maxPairs: number,
  seed: number,
  alpha = 0.05,
): PairedRun {
  const random = seedrandom.alea(`dataset-paired/${seed}`)
  const worse: RoundCounts[] = []
  const better: RoundCounts[] = []
  let pairs = 0
  for (let round = 0; pairs < maxPairs; round++) {
    worse.push({ successes: 0, runs: 0 })
    better.push({ successes: 0, runs: 0 })
    for (const index of roundOrder(seed, round, laws.length)) {
      const [w, b] = laws[index] as PairLaw
      const u = random()
      const w0 = worse[round] as RoundCounts
      const b0 = better[round] as RoundCounts
      worse[round] = { successes: w0.successes + (u < w ? 1 : 0), runs: w0.runs + 1 }
      better[round] = { successes: b0.successes + (u >= w && u < w + b ? 1 : 0), runs: b0.runs + 1 }
      pairs++
      const decision = datasetPairedDecision(laws.length, worse, better, margin, alpha)
      if (decision !== 'undecided' || pairs >= maxPairs) return { decision, worse, better, pairs }
    }
  }
  return { decision: 'undecided', worse, better, pairs }
}

const cases = (count: number, law: PairLaw): PairLaw[] => Array.from({ length: count }, () => law)
const meanDifference = (laws: readonly PairLaw[]) =>
  laws.reduce((sum, [w, b]) => sum + w - b, 0) / laws.length

describe('datasetPairedTest', () => {
  it('bounds the difference by the worse and better rates, each one-sided at α/2', () => {
    const worse = [
      { successes: 3, runs: 20 },
      { successes: 1, runs: 7 },
    ]
    const better = [
      { successes: 1, runs: 20 },
      { successes: 0, runs: 7 },
    ]
    const result = datasetPairedTest({ cases: 20, worse, better, margin: 0.1, alpha: 0.05 })
    const w = datasetRateTest({ cases: 20, rounds: worse, bound: 0.5, alpha: 0.025 })
    const b = datasetRateTest({ cases: 20, rounds: better, bound: 0.5, alpha: 0.025 })
    expect(result.high).toBeCloseTo(w.high - b.low, 8)
    expect(result.low).toBeCloseTo(w.low - b.high, 8)
    expect(result.point).toBeCloseTo(3 / 27, 12)
    expect(result.low).toBeLessThanOrEqual(result.point)
    expect(result.high).toBeGreaterThanOrEqual(result.point)
    expect(result).toMatchObject({
      n: 27,
      worse: 4,
      better: 1,
      decision: 'undecided',
      method: DATASET_PAIRED_METHOD,
    })
  })

  it('agrees with the decision asked alone', () => {
    for (const seed of [1, 2, 3]) {
      const run = runPaired([...cases(45, [0.02, 0.02]), ...cases(5, [0.9, 0])], 0.05, 300, seed)
      const full = datasetPairedTest({ cases: 50, worse: run.worse, better: run.better, margin: 0.05 })
      expect(full.decision).toBe(run.decision)
    }
  })

  it('passes an unchanged agent within a 5-point margin, and fails a clearly worse one', () => {
    const unchanged = runPaired(cases(50, [0.01, 0.01]), 0.05, 1000, 7)
    expect(unchanged.decision).toBe('below')
    expect(unchanged.pairs).toBeLessThan(250)
    const worse = runPaired([...cases(40, [0, 0]), ...cases(10, [1, 0])], 0.05, 1000, 7)
    expect(worse.decision).toBe('above')
    expect(worse.pairs).toBeLessThan(200)
    console.log(
      `dataset-paired power: unchanged decided in ${unchanged.pairs} pairs, 20% worse in ${worse.pairs}`,
    )
  })

  it('refuses counts that do not describe pairs', () => {
    const round = { successes: 1, runs: 5 }
    expect(() => datasetPairedTest({ cases: 5, worse: [round], better: [], margin: 0 })).toThrow(/same pairs/)
    expect(() =>
      datasetPairedTest({
        cases: 5,
        worse: [{ successes: 3, runs: 5 }],
        better: [{ successes: 3, runs: 5 }],
        margin: 0,
      }),
    ).toThrow(/at most one of them/)
    expect(() => datasetPairedTest({ cases: 5, worse: [round], better: [round], margin: 1 })).toThrow(
      /margin must be in \[0, 1\)/,
    )
    expect(() =>
      datasetPairedTest({
        cases: 5,
        worse: [{ successes: 0, runs: 4 }, round],
        better: [{ successes: 0, runs: 4 }, round],
        margin: 0,
      }),
    ).toThrow(/every round but the last must run all 5 cases/)
  })
})

// Datasets at the margin, not the ones the test was written against: a wrong decision on either
// side is an error, each ≤ α = 0.05 whenever the test is asked.
const AT_THE_MARGIN: readonly { name: string; margin: number; maxPairs: number; laws: PairLaw[] }[] = [
  {
    // Most cases equal, 4 always worse, 2 always better: mean difference 2/50.
    name: '44 of 50 equal, 4 always worse, 2 always better',
    margin: 0.04,
    maxPairs: 300,
    laws: [...cases(44, [0, 0]), ...cases(4, [1, 0]), ...cases(2, [0, 1])],
  },
  {
    name: '40 cases at 20% worse / 15% better, 10 always worse with 5 always better',
    margin: 0.135,
    maxPairs: 300,
    laws: [...cases(35, [0.2, 0.15]), ...cases(10, [1, 0]), ...cases(5, [0, 1])],
  },
  {
    name: 'n = 5: one case always worse',
    margin: 0.2,
    maxPairs: 100,
    laws: [
      [1, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ],
  },
  {
    name: 'n = 5: 60% worse, 40% better, 60% worse and ties',
    margin: 0.16,
    maxPairs: 100,
    laws: [
      [0.6, 0],
      [0, 0.4],
      [0.6, 0],
      [0, 0],
      [0, 0],
    ],
  },
]

describe('wrong decisions at the margin', () => {
  // 600 seeded tests a dataset, each side counted (8 checks): an implementation erring at exactly
  // α fails with probability ≤ 0.9%, and one erring at 2α is caught with probability 0.96.
  const design = errorRateCheck(600, 0.05, { checks: 8 })
  it.each(AT_THE_MARGIN.map((dataset) => [dataset.name, dataset] as const))(
    `stay ≤ α on a dataset with %s (≤ ${design.limit} of ${design.runs} a side)`,
    (_, { margin, maxPairs, laws }) => {
      expect(meanDifference(laws)).toBeCloseTo(margin, 12)
      let below = 0
      let above = 0
      for (let seed = 0; seed < design.runs; seed++) {
        const { decision } = runPaired(laws, margin, maxPairs, seed)
        if (decision === 'below') below++
        if (decision === 'above') above++
      }
      // Printed so the figures can be quoted: wrong 'below' (a wrong pass) and wrong 'above'.
      console.log(
        `dataset-paired at the margin: ${laws.length} cases, margin ${margin}: below ${below}, above ${above} of ${design.runs}`,
      )
      expect(below).toBeLessThanOrEqual(design.limit)
      expect(above).toBeLessThanOrEqual(design.limit)
    },
    120_000,
  )
})
