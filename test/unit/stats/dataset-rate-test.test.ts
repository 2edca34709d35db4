import seedrandom from 'seedrandom'
import { describe, expect, it } from 'vitest'
import { roundOrder } from '../../../src/random/round-order.js'
import {
  DATASET_E_PROCESS_METHOD,
  datasetDecision,
  datasetLogEValues,
  datasetRateTest,
  type RoundCounts,
} from '../../../src/stats/dataset-rate-test.js'
import { logRoundCorrection, roundLikelihoodMajorant } from '../../../src/stats/hypergeometric-majorant.js'
import { mixtureLogEValues } from '../../../src/stats/mixture-e-process.js'
import { coverageCheck, errorRateCheck } from '../../binomial-check.js'

/** Every (cases, runs, successes) of a round up to 13 cases, and a spread of them at 40 and 500. */
function roundShapes(): [cases: number, runs: number, successes: number][] {
  const shapes: [number, number, number][] = []
  for (let cases = 1; cases <= 13; cases++)
    for (let runs = 0; runs <= cases; runs++)
      for (let successes = 0; successes <= runs; successes++) shapes.push([cases, runs, successes])
  for (const cases of [40, 500])
    for (let runs = 1; runs <= cases; runs += Math.ceil(cases / 23))
      for (let successes = 0; successes <= runs; successes += Math.ceil(runs / 11))
        shapes.push([cases, runs, successes])
  for (const [runs, successes] of [
    [500, 25],
    [500, 0],
    [499, 1],
    [131, 1],
    [40, 6],
    [60, 3],
  ] as const)
    shapes.push([500, runs, successes])
  return shapes
}

/** [k]_s [N − k]_(t−s) / [N]_t, by its products. */
function prefixLikelihood(cases: number, runs: number, successes: number, k: number): number {
  let value = 1
  for (let i = 0; i < successes; i++) value *= (k - i) / (cases - i)
  for (let i = 0; i < runs - successes; i++) value *= (cases - k - i) / (cases - successes - i)
  return Math.max(value, 0)
}

/** P(K = k), k = 0 … N, for K the number of ones among independent Bernoulli(rates[i]). */
function poissonBinomial(rates: readonly number[]): number[] {
  let distribution = [1]
  for (const rate of rates) {
    const next = new Array<number>(distribution.length + 1).fill(0)
    distribution.forEach((probability, k) => {
      next[k] = (next[k] as number) + probability * (1 - rate)
      next[k + 1] = (next[k + 1] as number) + probability * rate
    })
    distribution = next
  }
  return distribution
}

const binomial = (cases: number, rate: number) => poissonBinomial(new Array<number>(cases).fill(rate))
const logOdds = (rate: number) => Math.log(rate / (1 - rate))

describe('a round prefix likelihood and its majorant', () => {
  it("h is the chance of the prefix when K of the round's coins are ones, by enumerating every order", () => {
    // All N! orders of a round with the first K cases at 1: the share whose first t outcomes are a
    // given pattern with s ones is h(K), whatever the pattern.
    const cases = 5
    const orders: number[][] = []
    const extend = (order: number[]) => {
      if (order.length === cases) orders.push(order)
      else for (let c = 0; c < cases; c++) if (!order.includes(c)) extend([...order, c])
    }
    extend([])
    for (let k = 0; k <= cases; k++) {
      for (const pattern of [[1], [0, 1], [1, 0, 1], [0, 0, 1, 0], [1, 1, 0, 1, 0]]) {
        const successes = pattern.filter((x) => x === 1).length
        const matching = orders.filter((order) =>
          pattern.every((x, j) => ((order[j] as number) < k ? 1 : 0) === x),
        )
        const { likelihood, logScale } = roundLikelihoodMajorant(cases, pattern.length, successes)
        expect((likelihood[k] as number) * Math.exp(logScale)).toBeCloseTo(
          matching.length / orders.length,
          12,
        )
      }
    }
  })

  it('averages to the iid likelihood q^s (1 − q)^(t−s) over K ~ Binomial(N, q)', () => {
    for (const [cases, runs, successes] of roundShapes().filter(([cases]) => cases <= 40)) {
      for (const rate of [0.01, 0.2, 0.5, 0.93]) {
        const average = binomial(cases, rate).reduce(
          (sum, probability, k) => sum + probability * prefixLikelihood(cases, runs, successes, k),
          0,
        )
        const iid = rate ** successes * (1 - rate) ** (runs - successes)
        expect(Math.abs(average - iid)).toBeLessThanOrEqual(1e-12 * iid + 1e-300)
      }
    }
  })

  it('is computed exactly in logs', () => {
    for (const [cases, runs, successes] of roundShapes().filter(([cases]) => cases <= 40)) {
      const { likelihood, logScale } = roundLikelihoodMajorant(cases, runs, successes)
      for (let k = 0; k <= cases; k++) {
        const exact = prefixLikelihood(cases, runs, successes, k)
        expect(Math.abs((likelihood[k] as number) * Math.exp(logScale) - exact)).toBeLessThanOrEqual(
          1e-11 * exact,
        )
      }
    }
  })

  it('is majorized by a convex, nonincreasing ĥ on every shape', () => {
    // Plain comparisons, the failures collected: an expect per entry costs a minute here.
    const failures: string[] = []
    let shapes = 0
    for (const [cases, runs, successes] of roundShapes()) {
      const { likelihood, majorant, mode, cut } = roundLikelihoodMajorant(cases, runs, successes)
      const tolerance = 1e-12
      const fail = (what: string, k: number) =>
        failures.push(`${what} at k = ${k} of (${cases}, ${runs}, ${successes})`)
      if (cut < mode) fail('cut left of the mode', cut)
      for (let k = 0; k <= cases; k++) {
        const value = majorant[k] as number
        if (!(value >= (likelihood[k] as number) - tolerance)) fail('below h', k)
        if (k > 0 && !(value <= (majorant[k - 1] as number) + tolerance)) fail('rising', k)
        if (
          k > 0 &&
          k < cases &&
          !((majorant[k + 1] as number) - 2 * value + (majorant[k - 1] as number) >= -tolerance)
        )
          fail('concave', k)
      }
      shapes++
    }
    expect(failures).toEqual([])
    expect(shapes).toBeGreaterThan(900)
  })

  it('is h itself with no success yet, and the triangle h(s)(s + 1 − k)⁺ for a complete round', () => {
    for (const [cases, runs] of [
      [40, 7],
      [500, 131],
      [13, 13],
    ] as const) {
      const { likelihood, majorant, cut } = roundLikelihoodMajorant(cases, runs, 0)
      expect(cut).toBe(0)
      expect([...majorant]).toEqual([...likelihood])
      expect(logRoundCorrection(cases, runs, 0, logOdds(0.05))).toBe(0)
    }
    for (const [cases, successes] of [
      [40, 3],
      [500, 25],
      [5, 0],
      [5, 4],
    ] as const) {
      const { likelihood, majorant } = roundLikelihoodMajorant(cases, cases, successes)
      for (let k = 0; k <= cases; k++) {
        expect(majorant[k]).toBeCloseTo(
          (likelihood[successes] as number) * Math.max(successes + 1 - k, 0),
          12,
        )
      }
    }
    // With no zero yet h rises to k = N, and ĥ is the constant h(N).
    expect([...roundLikelihoodMajorant(5, 5, 5).majorant]).toEqual([1, 1, 1, 1, 1, 1])
  })

  it('bounds the true chance of a prefix under every null mean ≥ the bound (Hoeffding)', () => {
    // E h(K) for K Poisson-binomial, by convolution, against C · b^s (1 − b)^(t−s): rates from
    // all-or-nothing to spread out, at and above the bound, on small and mid-sized rounds.
    const random = seedrandom.alea('dataset-hoeffding')
    for (const cases of [3, 5, 8, 20, 40]) {
      for (let trial = 0; trial < 12; trial++) {
        const bound = [0.05, 0.2, 0.5][trial % 3] as number
        const mean = bound * (trial % 2 === 0 ? 1 : 1.3)
        const rates = spreadRates(cases, mean, random, trial % 4)
        const distribution = poissonBinomial(rates)
        for (let runs = 1; runs <= cases; runs++) {
          for (let successes = 0; successes <= runs; successes++) {
            const truth = distribution.reduce(
              (sum, probability, k) => sum + probability * prefixLikelihood(cases, runs, successes, k),
              0,
            )
            const boundOnIt = Math.exp(
              logRoundCorrection(cases, runs, successes, logOdds(bound)) +
                successes * Math.log(bound) +
                (runs - successes) * Math.log1p(-bound),
            )
            expect(truth).toBeLessThanOrEqual(boundOnIt * (1 + 1e-9))
          }
        }
      }
    }
  })
})

/**
 * `cases` rates with mean exactly `mean` (≤ 1): shape 0 all equal, 1 all-or-nothing (plus one
 * fractional case), 2 Beta(0.5, ·)-distributed and rescaled, 3 two levels.
 */
function spreadRates(cases: number, mean: number, random: () => number, shape: number): number[] {
  if (shape === 0) return new Array<number>(cases).fill(mean)
  if (shape === 1) {
    const ones = Math.floor(mean * cases)
    return Array.from({ length: cases }, (_, i) => (i < ones ? 1 : i === ones ? mean * cases - ones : 0))
  }
  if (shape === 3) {
    const high = Math.min(1, 4 * mean)
    const share = mean / high
    const highCases = Math.max(1, Math.round(share * cases))
    const low = (mean * cases - highCases * high) / (cases - highCases)
    if (low >= 0) return Array.from({ length: cases }, (_, i) => (i < highCases ? high : low))
  }
  // Gamma(0.5)-like weights (the square of a normal), capped at 1 after scaling, then mass moved to
  // the others until the mean is exact.
  let rates = Array.from({ length: cases }, () => normal(random) ** 2)
  for (let pass = 0; pass < 50; pass++) {
    const total = rates.reduce((sum, rate) => sum + rate, 0)
    rates = rates.map((rate) => Math.min(1, (rate * mean * cases) / total))
  }
  return rates
}

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

describe('datasetLogEValues', () => {
  it("is the pooled mixture e-value less each round's correction", () => {
    const rounds: RoundCounts[] = [
      { successes: 3, runs: 40 },
      { successes: 1, runs: 40 },
      { successes: 0, runs: 17 },
    ]
    const mixture = mixtureLogEValues(4, 97, 0.1)
    const logE = datasetLogEValues(40, rounds, 0.1)
    const correction = [3, 1, 0].map((s, i) => logRoundCorrection(40, i < 2 ? 40 : 17, s, logOdds(0.1)))
    expect(logE.below).toBeCloseTo(mixture.below - correction.reduce((a, b) => a + b), 12)
    expect(logE.below).toBeLessThan(mixture.below)
    expect(logE.above).toBeLessThanOrEqual(mixture.above)
    // Zeros and ones swap the sides (and the bound its complement).
    const swapped = datasetLogEValues(
      40,
      rounds.map(({ successes, runs }) => ({ successes: runs - successes, runs })),
      0.9,
    )
    expect(swapped.above).toBeCloseTo(logE.below, 9)
    expect(swapped.below).toBeCloseTo(logE.above, 9)
  })

  it('costs next to nothing where a "≤ 5%" gate passes or fails a 500-case dataset', () => {
    expect(logRoundCorrection(500, 131, 1, logOdds(0.05))).toBeLessThan(1e-4)
    expect(logRoundCorrection(500, 40, 40 - 6, logOdds(0.95))).toBeLessThan(1e-4)
  })

  it('is monotone in the null, so bisection finds the ends of the interval', () => {
    // ln E_below must not fall and ln E_above not rise as the null rate rises, on a fine grid, for
    // states from every kind of round: the interval is then exactly the set of nulls not rejected.
    const random = seedrandom.alea('dataset-monotone')
    let states = 0
    for (const cases of [1, 2, 5, 40, 500]) {
      for (let trial = 0; trial < 12; trial++) {
        const completed = Math.floor(random() * 3)
        const rate = [0.01, 0.1, 0.5, 0.9][trial % 4] as number
        const rounds: RoundCounts[] = []
        for (let r = 0; r <= completed; r++) {
          const runs = r < completed ? cases : Math.floor(random() * (cases + 1))
          let successes = 0
          for (let i = 0; i < runs; i++) if (random() < rate) successes++
          rounds.push({ successes, runs })
        }
        let previous = datasetLogEValues(cases, rounds, 1e-6)
        for (let theta = -13.8; theta <= 13.8; theta += 0.05) {
          const logE = datasetLogEValues(cases, rounds, 1 / (1 + Math.exp(-theta)))
          expect(logE.below).toBeGreaterThanOrEqual(previous.below - 1e-9)
          expect(logE.above).toBeLessThanOrEqual(previous.above + 1e-9)
          previous = logE
        }
        states++
      }
    }
    expect(states).toBe(60)
  })
})

describe('datasetRateTest', () => {
  it('decides as datasetDecision does, with its interval on the side of its decision', () => {
    const cases = [
      { cases: 500, rounds: [{ successes: 1, runs: 140 }], bound: 0.05, decision: 'below' },
      { cases: 500, rounds: [{ successes: 1, runs: 60 }], bound: 0.05, decision: 'undecided' },
      { cases: 500, rounds: [{ successes: 12, runs: 60 }], bound: 0.05, decision: 'above' },
      {
        cases: 5,
        rounds: [
          { successes: 0, runs: 5 },
          { successes: 0, runs: 5 },
          { successes: 0, runs: 3 },
        ],
        bound: 0.3,
        decision: 'below',
      },
      {
        cases: 5,
        rounds: [
          { successes: 1, runs: 5 },
          { successes: 0, runs: 5 },
          { successes: 0, runs: 3 },
        ],
        bound: 0.3,
        decision: 'undecided',
      },
      { cases: 5, rounds: [], bound: 0.3, decision: 'undecided' },
    ] as const
    for (const { decision, ...input } of cases) {
      const result = datasetRateTest(input)
      expect(result.decision).toBe(decision)
      expect(datasetDecision(input.cases, input.rounds, input.bound)).toBe(decision)
      expect(result.method).toBe(DATASET_E_PROCESS_METHOD)
      expect(result.low).toBeLessThanOrEqual(result.point)
      expect(result.high).toBeGreaterThanOrEqual(result.point)
      expect(result.high <= input.bound).toBe(decision === 'below')
      expect(result.low >= input.bound).toBe(decision === 'above')
    }
    const first = datasetRateTest(cases[0])
    expect(first).toMatchObject({ successes: 1, n: 140, alpha: 0.05, cases: 500 })
    expect(first.eBelow).toBeGreaterThanOrEqual(20)
    expect(datasetRateTest(cases[5])).toMatchObject({ low: 0, high: 1, point: 0, eBelow: 1, eAbove: 1 })
  })

  it('refuses rounds that are not rounds', () => {
    expect(() =>
      datasetRateTest({
        cases: 5,
        rounds: [
          { successes: 0, runs: 4 },
          { successes: 0, runs: 1 },
        ],
        bound: 0.1,
      }),
    ).toThrow(/round 1 has 4 runs; every round but the last must run all 5 cases/)
    expect(() => datasetRateTest({ cases: 5, rounds: [{ successes: 2, runs: 1 }], bound: 0.1 })).toThrow(
      /round 1 has 2 successes in 1 runs/,
    )
    expect(() => datasetRateTest({ cases: 0, rounds: [], bound: 0.1 })).toThrow(
      /cases must be a positive integer/,
    )
    expect(() => datasetRateTest({ cases: 5, rounds: [], bound: 1 })).toThrow(/bound must be in \(0, 1\)/)
    expect(() => datasetRateTest({ cases: 5, rounds: [], bound: 0.1, alpha: 0 })).toThrow(
      /alpha must be in \(0, 1\)/,
    )
  })
})

/** One seeded gate over a dataset: runs in rounds, asked after every run, up to `maxRuns`. */
function runGate(
  rates: readonly number[],
  bound: number,
  maxRuns: number,
  seed: number,
  alpha = 0.05,
): { decision: 'below' | 'above' | 'undecided'; rounds: RoundCounts[] } {
  const random = seedrandom.alea(`dataset-gate/${seed}`)
  const rounds: RoundCounts[] = []
  let runs = 0
  for (let round = 0; runs < maxRuns; round++) {
    let current = { successes: 0, runs: 0 }
    rounds.push(current)
    for (const index of roundOrder(seed, round, rates.length)) {
      current = {
        successes: current.successes + (random() < (rates[index] as number) ? 1 : 0),
        runs: current.runs + 1,
      }
      rounds[round] = current
      runs++
      const decision = datasetDecision(rates.length, rounds, bound, alpha)
      if (decision !== 'undecided' || runs >= maxRuns) return { decision, rounds }
    }
  }
  return { decision: 'undecided', rounds }
}

// Datasets at the bound the gate was not tuned on (the bench's are 500 cases at 1%, 5% and 15%):
// a wrong decision on either side is an error, each ≤ α = 0.05 whenever the gate is asked.
const AT_THE_BOUND: readonly { name: string; bound: number; maxRuns: number; rates: () => number[] }[] = [
  {
    name: 'most cases 0%, 4 of 40 at 100%',
    bound: 0.1,
    maxRuns: 240,
    rates: () => spreadRates(40, 0.1, seedrandom.alea('unused'), 1),
  },
  {
    name: 'all 40 cases at 10%',
    bound: 0.1,
    maxRuns: 240,
    rates: () => spreadRates(40, 0.1, seedrandom.alea('unused'), 0),
  },
  {
    name: '40 cases spread like Gamma(½), mean 10%',
    bound: 0.1,
    maxRuns: 240,
    rates: () => spreadRates(40, 0.1, seedrandom.alea('dataset-spread'), 2),
  },
  { name: 'n = 5: 70%, 30%, 0, 0, 0', bound: 0.2, maxRuns: 100, rates: () => [0.7, 0.3, 0, 0, 0] },
]

describe('wrong decisions at the bound', () => {
  // 600 seeded gates a dataset, each side counted (8 checks): an implementation erring at exactly
  // α fails with probability ≤ 0.9%, and one erring at 2α is caught with probability 0.96.
  const design = errorRateCheck(600, 0.05, { checks: 8 })
  it.each(AT_THE_BOUND.map((dataset) => [dataset.name, dataset] as const))(
    `stay ≤ α on a dataset with %s (≤ ${design.limit} of ${design.runs} a side)`,
    (_, { bound, maxRuns, rates }) => {
      const dataset = rates()
      expect(dataset.reduce((a, b) => a + b) / dataset.length).toBeCloseTo(bound, 12)
      let below = 0
      let above = 0
      for (let seed = 0; seed < design.runs; seed++) {
        const { decision } = runGate(dataset, bound, maxRuns, seed)
        if (decision === 'below') below++
        if (decision === 'above') above++
      }
      expect(below).toBeLessThanOrEqual(design.limit)
      expect(above).toBeLessThanOrEqual(design.limit)
    },
  )
})

describe('the printed interval', () => {
  // 2000 gates a dataset, read where each stops (the gate's own stopping rule, the reading most
  // at risk): the (1 − 2α) = 90% interval must hold the mean. A 90% implementation fails one of the
  // two checks with probability ≤ 1%; one covering 87% is caught with probability 0.9.
  const design = coverageCheck(2000, 0.9, { checks: 2 })
  const datasets = [
    {
      name: '8 of 40 cases at 100%, 4 at 50% (mean 25%) against "≤ 10%"',
      bound: 0.1,
      rates: [...new Array<number>(8).fill(1), 0.5, 0.5, 0.5, 0.5, ...new Array<number>(28).fill(0)],
    },
    {
      name: '5 of 50 cases at 20%, the rest 0% (mean 2%) against "≤ 10%"',
      bound: 0.1,
      rates: Array.from({ length: 50 }, (_, i) => (i < 5 ? 0.2 : 0)),
    },
  ]
  it.each(datasets.map((dataset) => [dataset.name, dataset] as const))(
    `covers the mean at its level where the gate stops: %s (≥ ${design.limit} of ${design.runs})`,
    { timeout: 60_000 },
    (_, { bound, rates }) => {
      const mean = rates.reduce((a, b) => a + b) / rates.length
      let covered = 0
      for (let seed = 0; seed < design.runs; seed++) {
        const { rounds } = runGate(rates, bound, 240, 10_000 + seed)
        const { low, high } = datasetRateTest({ cases: rates.length, rounds, bound })
        if (low <= mean && mean <= high) covered++
      }
      expect(covered).toBeGreaterThanOrEqual(design.limit)
    },
  )
})
