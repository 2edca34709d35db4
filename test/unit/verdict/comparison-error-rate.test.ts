import { describe, expect, it } from 'vitest'
import { stepStream } from '../../../src/random/streams.js'
import { comparisonDecision } from '../../../src/verdict/comparison-gate.js'
import { errorRateCheck } from '../../binomial-check.js'

/**
 * The A/B gate's error rates by seeded simulation of its stopping rule: pairs (bad for the
 * candidate, bad for the baseline) drawn from a joint law, the paired test asked after every pair,
 * up to 400 pairs, as the gate does. At the boundary (the candidate exactly `margin` worse) both
 * "no worse" and "worse beyond the margin" are wrong, so each must happen in at most α of runs —
 * whatever the coupling of a pair: common random numbers (one draw for both agents, positively
 * correlated), independent draws, and a negative coupling (one draw, read mirrored).
 */
type Coupling = 'crn' | 'independent' | 'negative'

const ALPHA = 0.05
const MAX_PAIRS = 400
const RUNS = 1000
// Each side may err in at most 69 of 1,000 runs: a side erring in 10% of runs (2α) is caught with
// probability 0.9996, and one erring in exactly α fails with probability 0.0069 (both sides).
const WRONG = errorRateCheck(RUNS, ALPHA, { checks: 2 })

function simulate(candidate: number, baseline: number, margin: number, coupling: Coupling, seed: number) {
  let passes = 0
  let fails = 0
  let pairsUsed = 0
  for (let run = 0; run < RUNS; run++) {
    const rng = stepStream(seed, run, 0)
    const pairs = { worse: 0, better: 0, same: 0 }
    let decision: 'pass' | 'fail' | null = null
    for (let i = 0; i < MAX_PAIRS && decision === null; i++) {
      const u = rng()
      const v = coupling === 'crn' ? u : coupling === 'negative' ? 1 - u : rng()
      const mine = u < candidate
      const theirs = v < baseline
      if (mine && !theirs) pairs.worse++
      else if (theirs && !mine) pairs.better++
      else pairs.same++
      decision = comparisonDecision(pairs, margin, ALPHA)
    }
    pairsUsed += pairs.worse + pairs.better + pairs.same
    if (decision === 'pass') passes++
    if (decision === 'fail') fails++
  }
  return { passes, fails, passRate: passes / RUNS, failRate: fails / RUNS, meanPairs: pairsUsed / RUNS }
}

describe('noWorseThan error rates (seeded simulation, 1000 runs of up to 400 pairs each)', () => {
  const boundary: Array<[string, number, number, Coupling]> = [
    ['20% → 25%, common random numbers', 0.25, 0.2, 'crn'],
    ['20% → 25%, independent pairs', 0.25, 0.2, 'independent'],
    ['20% → 25%, negatively coupled pairs', 0.25, 0.2, 'negative'],
    ['skewed: 1% → 6%, independent pairs', 0.06, 0.01, 'independent'],
    ['skewed: 1% → 6%, common random numbers', 0.06, 0.01, 'crn'],
    ['skewed: 90% → 95%, negatively coupled pairs', 0.95, 0.9, 'negative'],
  ]
  it.each(boundary)(
    'a candidate exactly 5 points worse, %s: wrong pass and wrong fail each ≤ α',
    (_name, candidate, baseline, coupling) => {
      const { passes, fails } = simulate(candidate, baseline, 0.05, coupling, 11)
      expect(passes).toBeLessThanOrEqual(WRONG.limit)
      expect(fails).toBeLessThanOrEqual(WRONG.limit)
    },
  )

  it('at margin 0, an unchanged rate (10% both, independent pairs) passes at most α of the time', () => {
    const { passes, fails } = simulate(0.1, 0.1, 0, 'independent', 12)
    expect(passes).toBeLessThanOrEqual(WRONG.limit)
    expect(fails).toBeLessThanOrEqual(WRONG.limit)
  })

  it('passes a clear improvement (30% → 10%) nearly always, and fastest under common random numbers', () => {
    const crn = simulate(0.1, 0.3, 0.05, 'crn', 13)
    const independent = simulate(0.1, 0.3, 0.05, 'independent', 13)
    expect(crn.passRate).toBe(1)
    expect(independent.passRate).toBeGreaterThanOrEqual(0.99)
    expect(crn.meanPairs).toBeLessThan(independent.meanPairs)
    expect(crn.meanPairs).toBeLessThan(40)
  })

  it('fails a clear regression (10% → 30%) nearly always', () => {
    const { failRate } = simulate(0.3, 0.1, 0.05, 'independent', 14)
    expect(failRate).toBeGreaterThanOrEqual(0.99)
  })
})
