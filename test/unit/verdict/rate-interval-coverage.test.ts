import { describe, expect, it } from 'vitest'
import { wilson } from '../../../src/stats/wilson.js'
import type { ResolvedSequentialGate } from '../../../src/verdict/options.js'
import { runSequentialGate } from '../../../src/verdict/sequential-gate.js'
import { runZeroToleranceGate } from '../../../src/verdict/zero-tolerance-gate.js'
import { coinAgent, sequentialGate, subject, zeroToleranceGate, type GateOverrides } from './gate-helpers.js'

// The rate a gate prints must cover the true rate at the level it states, after the gate stopped
// wherever its test let it. Seeded simulations (the same counts on every run) on coin agents,
// including rates far from the bound, near it, and skewed (0.5%, 97%).

interface Coverage {
  runs: number
  covered: number
  /** How often the 95% Wilson interval the gate printed before covered the same runs. */
  wilsonCovered: number
  level: number
  meanPoint: number
}

async function sequentialCoverage(
  truth: number,
  runs: number,
  overrides: GateOverrides<ResolvedSequentialGate>,
): Promise<Coverage> {
  const agent = coinAgent(truth)
  let covered = 0
  let wilsonCovered = 0
  let pointSum = 0
  let level = 0
  for (let seed = 0; seed < runs; seed++) {
    const { verdict } = await runSequentialGate(
      agent.on({ p: truth }),
      subject(),
      sequentialGate({ seed, concurrency: 1, ...overrides }),
    )
    const { observed } = verdict
    // The rate is the predicate's (the coin coming up "bad"), for "at most" and "at least" alike.
    if (observed.low <= truth && truth <= observed.high) covered++
    const fixed = wilson(observed.successes, observed.n, 0.95)
    if (fixed.low <= truth && truth <= fixed.high) wilsonCovered++
    pointSum += observed.point
    level = observed.confidence
  }
  return { runs, covered, wilsonCovered, level, meanPoint: pointSum / runs }
}

describe("a sequential gate's printed rate interval", () => {
  // Each case: true rate, gate, and what the old 95% Wilson interval at the stop covered.
  const cases: ReadonlyArray<{
    name: string
    truth: number
    runs: number
    overrides: GateOverrides<ResolvedSequentialGate>
  }> = [
    { name: '"≤ 5%", true 10% (stops early to fail)', truth: 0.1, runs: 300, overrides: {} },
    { name: '"≤ 5%", true 20%', truth: 0.2, runs: 300, overrides: {} },
    { name: '"≤ 5%", true 1% (stops to pass)', truth: 0.01, runs: 150, overrides: {} },
    { name: '"≤ 1%", true 0.5% (skewed, small)', truth: 0.005, runs: 100, overrides: { bound: 0.01 } },
    {
      name: '"≥ 90%", true 97% (toUsually)',
      truth: 0.97,
      runs: 200,
      overrides: { direction: 'atLeast', bound: 0.9 },
    },
  ]

  for (const { name, truth, runs, overrides } of cases) {
    it(`covers at its stated level after early stops: ${name}`, async () => {
      const coverage = await sequentialCoverage(truth, runs, overrides)
      expect(coverage.level).toBeCloseTo(0.9, 12)
      // The anytime-valid sequence covers at any stop. Observed, in the order of the cases: 98.3%,
      // 100%, 100%, 100%, 99.5% (the old Wilson interval: 84.7%, 85.7%, 98.7%, 99%, 99%).
      expect(coverage.covered / coverage.runs).toBeGreaterThanOrEqual(0.9)
      expect(wilson(coverage.covered, coverage.runs, 0.95).high).toBeGreaterThan(0.95)
    })
  }

  it('where the Wilson interval it replaced fell short: a true 10% under "≤ 5%"', async () => {
    // The audit's case: stopping early to fail, a Wilson 95% interval at the stop covered 85–90%,
    // and the point read about 15%. Observed here: Wilson 254 of 300 (84.7%), the sequence 295 of
    // 300, the mean point 16.1%. The printed sequence covers; the point is still from the stop,
    // which is why every rendering says so.
    const coverage = await sequentialCoverage(0.1, 300, {})
    expect(coverage.wilsonCovered / coverage.runs).toBeLessThan(0.93)
    expect(coverage.covered / coverage.runs).toBeGreaterThan(0.95)
    expect(coverage.meanPoint).toBeGreaterThan(0.12)
  })
})

describe("a zero-tolerance gate's printed rate interval", () => {
  it('is two-sided at 1 − 2α: its upper end is the one-sided bound the pass line prints', async () => {
    const { verdict } = await runZeroToleranceGate(coinAgent(0).on({ p: 0 }), subject(), zeroToleranceGate())
    expect(verdict.kind).toBe('pass')
    expect(verdict.observed.confidence).toBeCloseTo(0.9, 12)
    expect(verdict.observed.high).toBe(verdict.oneSidedBound?.high)
  })

  // Observed: 287, 290 and 273 of 300 (95.7%, 96.7%, 91.0%).
  for (const truth of [0.002, 0.01, 0.03]) {
    it(`covers at its stated level when the first occurrence stops it: true rate ${truth}`, async () => {
      let covered = 0
      const runs = 300
      for (let seed = 0; seed < runs; seed++) {
        const { verdict } = await runZeroToleranceGate(
          coinAgent(truth).on({ p: truth }),
          subject(),
          zeroToleranceGate({ seed, concurrency: 1 }),
        )
        if (verdict.observed.low <= truth && truth <= verdict.observed.high) covered++
      }
      expect(covered / runs).toBeGreaterThanOrEqual(0.9)
    })
  }
})
