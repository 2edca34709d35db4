import { describe, expect, it } from 'vitest'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { FIXED_RUNS_MEAN_METHOD, fixedRunsMeanTest } from '../../../src/stats/fixed-runs-mean.js'

// The merged verdict of a dataset claim split across shards: every case ran K times, and the
// Clopper–Pearson interval of the pooled count covers p̄ = (1/N) Σ pᵢ. Its coverage is summed
// exactly over the Poisson-binomial distribution of the pooled count (the cases' runs convolved) on
// heterogeneous datasets, each side's miss at most α; then simulated on the fixture's shape.

const ALPHA = 0.05

/** P(S = s), s = 0 … N·K, for S the sum of K runs of each case at its own rate. */
function poissonBinomial(rates: readonly number[], runsPerCase: number): number[] {
  let distribution = [1]
  for (const rate of rates) {
    for (let run = 0; run < runsPerCase; run++) {
      const next = new Array<number>(distribution.length + 1).fill(0)
      distribution.forEach((probability, s) => {
        next[s] = (next[s] as number) + probability * (1 - rate)
        next[s + 1] = (next[s + 1] as number) + probability * rate
      })
      distribution = next
    }
  }
  return distribution
}

/** The chance that the interval lies wholly below p̄ (`low` side missed … i.e. high < p̄) and wholly above it. */
function exactMisses(rates: readonly number[], runsPerCase: number): { below: number; above: number } {
  const mean = rates.reduce((sum, rate) => sum + rate, 0) / rates.length
  const n = rates.length * runsPerCase
  let below = 0
  let above = 0
  poissonBinomial(rates, runsPerCase).forEach((probability, s) => {
    const interval = clopperPearson(s, n, 1 - 2 * ALPHA)
    if (interval.high < mean) below += probability
    if (interval.low > mean) above += probability
  })
  return { below, above }
}

/** A seeded uniform stream (mulberry32), so the datasets and the simulation are the same every run. */
function uniforms(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

const SHAPES: Record<string, (draw: () => number, index: number, cases: number) => number> = {
  'a few cases always fail, the rest rarely': (draw, index, cases) =>
    index < cases / 16 ? 1 : draw() * 0.02,
  'uniform rates in [0, 0.3]': (draw) => draw() * 0.3,
  'half never, half a coin': (_, index) => (index % 2 === 0 ? 0 : 0.5),
  'rates near 1 with one weak case': (draw, index) => (index === 0 ? 0.5 : 0.97 + draw() * 0.03),
  'spread over [0, 1]': (draw) => draw(),
}

describe('fixedRunsMeanTest', () => {
  it('prints the pooled Clopper–Pearson interval at 1 − 2α and decides each side at α', () => {
    const cases = [
      { runs: 4, successes: 4 },
      { runs: 4, successes: 0 },
      ...Array.from({ length: 48 }, () => ({ runs: 4, successes: 0 })),
    ]
    const test = fixedRunsMeanTest({ cases, bound: 0.25, alpha: ALPHA })
    expect(test.interval).toEqual(clopperPearson(4, 200, 0.9))
    expect(test.interval.point).toBeCloseTo(0.02, 12)
    expect(test.decision).toBe('below')
    expect(test.method).toBe(FIXED_RUNS_MEAN_METHOD)
    expect(fixedRunsMeanTest({ cases, bound: 0.005, alpha: ALPHA }).decision).toBe('above')
    expect(fixedRunsMeanTest({ cases, bound: 0.02, alpha: ALPHA }).decision).toBe('undecided')
  })

  it('refuses cases with different numbers of runs, which would weight the mean by runs', () => {
    expect(() =>
      fixedRunsMeanTest({
        cases: [
          { runs: 4, successes: 1 },
          { runs: 3, successes: 0 },
        ],
        bound: 0.1,
        alpha: ALPHA,
      }),
    ).toThrow(/same number of times \(4\), got 3/)
  })

  // 5 shapes × 3 sizes × 8 draws: 120 heterogeneous datasets, each side's exact miss at most α.
  it.each(Object.keys(SHAPES))('covers p̄ on each side at 1 − α, exactly, on datasets where %s', (shape) => {
    const draw = uniforms(7)
    const make = SHAPES[shape] as (typeof SHAPES)[string]
    let worst = 0
    for (const [cases, runsPerCase] of [
      [10, 3],
      [50, 4],
      [25, 8],
    ] as const) {
      for (let dataset = 0; dataset < 8; dataset++) {
        const rates = Array.from({ length: cases }, (_, index) => make(draw, index, cases))
        const { below, above } = exactMisses(rates, runsPerCase)
        worst = Math.max(worst, below, above)
      }
    }
    expect(worst).toBeLessThanOrEqual(ALPHA + 1e-9)
  })

  it('covers the fixture-shaped dataset in simulation: 3 of 50 cases at 100%, 47 at 0.5%, 4 runs each', () => {
    const rates = Array.from({ length: 50 }, (_, index) => ([6, 22, 40].includes(index) ? 1 : 0.005))
    const mean = rates.reduce((sum, rate) => sum + rate, 0) / rates.length
    const draw = uniforms(2026)
    const trials = 4000
    let below = 0
    let above = 0
    for (let trial = 0; trial < trials; trial++) {
      const cases = rates.map((rate) => {
        let successes = 0
        for (let run = 0; run < 4; run++) if (draw() < rate) successes++
        return { runs: 4, successes }
      })
      const { interval } = fixedRunsMeanTest({ cases, bound: 0.25, alpha: ALPHA })
      if (interval.high < mean) below++
      if (interval.low > mean) above++
    }
    // α = 5% per side: 200 of 4000 expected at worst, and a 3-sigma allowance over it (≈ 241).
    const allowed = trials * ALPHA + 3 * Math.sqrt(trials * ALPHA * (1 - ALPHA))
    expect({ below, above, allowed: Math.floor(allowed) }).toEqual({
      below: expect.any(Number),
      above: expect.any(Number),
      allowed: 241,
    })
    expect(below).toBeLessThanOrEqual(allowed)
    expect(above).toBeLessThanOrEqual(allowed)
  })
})
