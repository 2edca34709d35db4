// The dataset gate through the engine, at the bound: on heterogeneous datasets the chance of a
// wrong pass stays ≤ α, the per-case intervals cover their cases' rates where the gate stops, and
// toNever's exact bound holds for the mean over cases (by exact enumeration of the round orders).
import { describe, expect, it } from 'vitest'
import { defineAgent, defineDataset } from '../../../src/index.js'
import { runSequentialGate } from '../../../src/verdict/sequential-gate.js'
import { coverageCheck, errorRateCheck } from '../../binomial-check.js'
import { returnedBad, sequentialGate, subject } from './gate-helpers.js'

const coin = defineAgent<{ p: number }, string>({
  name: 'coin',
  run: async ({ p }, ctx) => ctx.step('decide', (rng) => (rng() < p ? 'bad' : 'good')),
})

function dataset(rates: readonly number[]) {
  return defineDataset(
    'rates',
    rates.map((p, index) => ({ id: `c${index}`, input: { p } })),
  )
}

// Datasets with mean exactly at the bound, none of them the bench's: the "≤ bound" claim must pass
// (a wrong pass) in at most α of the gates.
const AT_THE_BOUND = [
  {
    name: '2 of 20 cases at 100%, the rest 0% (mean 10%)',
    bound: 0.1,
    rates: [1, 1, ...Array<number>(18).fill(0)],
  },
  { name: 'n = 5: 70%, 30%, 0, 0, 0 (mean 20%)', bound: 0.2, rates: [0.7, 0.3, 0, 0, 0] },
  {
    name: '10 cases at 5%, 10 at 15% (mean 10%)',
    bound: 0.1,
    rates: [...Array<number>(10).fill(0.05), ...Array<number>(10).fill(0.15)],
  },
] as const

describe('the dataset gate at the bound, through the engine', () => {
  // 400 seeded gates a dataset, 3 datasets: a gate wrong at exactly α fails one of the checks with
  // probability ≤ 1%.
  const design = errorRateCheck(400, 0.05, { checks: 3, power: 0.8 })
  it.each(AT_THE_BOUND.map((d) => [d.name, d] as const))(
    `wrong passes stay ≤ α: %s (≤ ${design.limit} of ${design.runs}, power ${design.power.toFixed(2)} at 2α)`,
    { timeout: 120_000 },
    async (_, { bound, rates }) => {
      const scenario = coin.over(dataset(rates))
      let wrongPasses = 0
      for (let seed = 0; seed < design.runs; seed++) {
        const { verdict } = await runSequentialGate(
          scenario,
          subject(returnedBad),
          sequentialGate({ bound, seed, maxRollouts: 100, concurrency: 1 }),
        )
        if (verdict.kind === 'pass') wrongPasses++
      }
      expect(wrongPasses).toBeLessThanOrEqual(design.limit)
    },
  )
})

describe('the per-case intervals', () => {
  // Each case's 95% Clopper–Pearson interval, read where the gate stopped to fail a clearly bad
  // dataset (the reading most at risk: the stop follows the failures), over every case that ran.
  const rates = [0.9, 0.6, 0.3, 0.1, 0, 0, 0.2, 0.05]
  const design = coverageCheck(1200, 0.95)
  it(`cover their cases' rates where the gate stops (≥ ${design.limit} of ${design.runs} case readings)`, async () => {
    const scenario = coin.over(dataset(rates))
    let readings = 0
    let covered = 0
    for (let seed = 0; readings < design.runs; seed++) {
      const { verdict } = await runSequentialGate(
        scenario,
        subject(returnedBad),
        sequentialGate({ bound: 0.1, seed, maxRollouts: 100, concurrency: 1 }),
      )
      verdict.dataset!.table.forEach((row, index) => {
        if (row.interval === null || readings >= design.runs) return
        readings++
        const rate = rates[index] as number
        if (row.interval.low <= rate && rate <= row.interval.high) covered++
      })
    }
    expect(covered).toBeGreaterThanOrEqual(design.limit)
  })
})

describe("toNever's bound over a dataset, by exact enumeration", () => {
  /**
   * P(no occurrence in `runs` runs drawn in rounds over cases with these rates): each complete round
   * contributes Π(1 − pᵢ); the partial round's t runs are a uniformly random t-subset of the cases.
   */
  function noOccurrence(rates: readonly number[], runs: number): number {
    const n = rates.length
    const full = Math.floor(runs / n)
    const t = runs % n
    const round = rates.reduce((product, p) => product * (1 - p), 1)
    let subsets = 0
    let total = 0
    for (let mask = 0; mask < 1 << n; mask++) {
      let size = 0
      let product = 1
      for (let i = 0; i < n; i++)
        if (mask & (1 << i)) {
          size++
          product *= 1 - (rates[i] as number)
        }
      if (size !== t) continue
      subsets++
      total += product
    }
    return round ** full * (total / subsets)
  }

  it('passes with probability ≤ α at a mean equal to its bound 1 − α^(1/runs), on every rate set tried', () => {
    const alpha = 0.05
    for (const runs of [3, 7, 12, 30, 59]) {
      const bound = 1 - alpha ** (1 / runs)
      // n = 5 rate sets with mean `bound`: all equal, all-or-nothing-like, and mixes.
      const shapes = [
        [1, 1, 1, 1, 1],
        [5, 0, 0, 0, 0],
        [2.5, 2.5, 0, 0, 0],
        [3, 1, 0.5, 0.5, 0],
        [0.2, 0.4, 0.6, 1.5, 2.3],
      ]
      for (const shape of shapes) {
        const rates = shape.map((weight) => Math.min(1, weight * bound))
        const mean = rates.reduce((a, b) => a + b) / rates.length
        if (Math.abs(mean - bound) > 1e-12) continue
        expect(noOccurrence(rates, runs)).toBeLessThanOrEqual(alpha + 1e-12)
      }
    }
  })
})
