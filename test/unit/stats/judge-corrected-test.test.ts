import seedrandom from 'seedrandom'
import { describe, expect, test } from 'vitest'
import { unionBoundDecider } from '../../../bench/union-bound-judge-gate.js'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { regularizedIncompleteBeta } from '../../../src/stats/incomplete-beta.js'
import {
  JUDGE_ALPHA_SHARES,
  judgeCorrectedFrontier,
  judgeCorrectedMargin,
  judgeCorrectedReach,
  judgeEvidence,
} from '../../../src/stats/judge-corrected-test.js'
import { compiledLogEBelow, mixtureLogEValues } from '../../../src/stats/mixture-e-process.js'
import { correctedDecision, judgeCorrectionPlan } from '../../../src/verdict/judge-correction.js'

/** A random calibration of 10–100 positives and negatives, mostly better than chance. */
function randomCalibration(rng: () => number) {
  const positives = 10 + Math.floor(rng() * 91)
  const negatives = 10 + Math.floor(rng() * 91)
  return {
    sensitivity: { correct: Math.floor(positives * (0.55 + 0.45 * rng())), of: positives },
    specificity: { correct: Math.floor(negatives * (0.55 + 0.45 * rng())), of: negatives },
  }
}

describe('judge-corrected weighted test', () => {
  test('its α shares add up to α', () => {
    const { apparent, sensitivity, specificity } = JUDGE_ALPHA_SHARES
    expect(apparent + sensitivity + specificity).toBeCloseTo(1, 15)
    // The box's tails (α/8 each) and ¾α weighed ½, ¼, ¼.
    expect(apparent).toBeCloseTo(3 / 8, 15)
    expect(sensitivity).toBeCloseTo(1 / 8 + 3 / 16, 15)
  })

  test('the compiled e-process is the mixture e-process', () => {
    for (const q0 of [1e-6, 0.01, 0.1, 0.5, 0.93]) {
      const compiled = compiledLogEBelow(Math.log(q0 / (1 - q0)))
      for (const [successes, n] of [
        [0, 1],
        [0, 400],
        [3, 100],
        [100, 100],
        [7.5, 90],
      ] as const) {
        expect(compiled(successes, n)).toBeCloseTo(mixtureLogEValues(successes, n, q0).below, 9)
      }
    }
  })

  // The frontier is a grid over the box; each cell takes its least apparent rate and least evidence.
  // Checked against the test itself at 31 × 31 judges inside the box, each evaluated at its own
  // point with an independent computation of its evidence: wherever the frontier decides 'below',
  // every such judge's own test rejects.
  test('the grid only makes the test stricter than the test at every judge of the box', () => {
    const rng = seedrandom('frontier is conservative')
    const alpha = 0.05
    let decided = 0
    for (let trial = 0; trial < 12; trial++) {
      const { sensitivity, specificity } = randomCalibration(rng)
      const bound = 0.05 + 0.5 * rng()
      const frontier = judgeCorrectedFrontier(judgeEvidence(sensitivity, specificity, alpha), bound)
      const falsePositives = specificity.of - specificity.correct
      const seLow = clopperPearson(sensitivity.correct, sensitivity.of, 1 - alpha / 4).low
      const fpLow = clopperPearson(falsePositives, specificity.of, 1 - alpha / 4).low
      const calibrated = (count: number, of: number, rate: number) =>
        (1 / 3) * (count === 0 ? 1 : regularizedIncompleteBeta(rate, count, of - count + 1)) ** (-2 / 3)
      for (let k = 0; k < 20; k++) {
        const n = 20 + Math.floor(rng() * 400)
        const successes = Math.floor(n * rng() * 0.4)
        if (judgeCorrectedMargin(successes, n, frontier, alpha) < 0) continue
        decided++
        for (let i = 0; i <= 30; i++) {
          for (let j = 0; j <= 30; j++) {
            const se = seLow + ((1 - seLow) * i) / 30
            const fp = fpLow + ((1 - fpLow) * j) / 30
            const apparent = Math.min(se * bound + fp * (1 - bound), se)
            const evidence =
              0.5 +
              0.25 * calibrated(sensitivity.correct, sensitivity.of, se) +
              0.25 * calibrated(falsePositives, specificity.of, fp)
            const logE =
              apparent <= 0 ? -Infinity : mixtureLogEValues(successes, n, Math.min(apparent, 1 - 1e-12)).below
            expect(logE + Math.log(evidence)).toBeGreaterThanOrEqual(Math.log(1 / (0.75 * alpha)) - 1e-9)
          }
        }
      }
    }
    expect(decided).toBeGreaterThan(20)
  })

  // The weighted test asks no judge for more than the union bound asked at the box's corner, and
  // every judge's null apparent rate is at least the corner's: on any counts the union bound decided,
  // the weighted test decides the same way. 3,000 random calibrations, bounds and counts.
  test('decides wherever the union bound over the box decided', () => {
    const rng = seedrandom('dominates the union bound')
    let unionDecided = 0
    let onlyWeighted = 0
    for (let trial = 0; trial < 60; trial++) {
      const calibration = randomCalibration(rng)
      const bound = 0.05 + 0.9 * rng()
      const plan = judgeCorrectionPlan(calibration, bound, 0.05)
      const unionBound = unionBoundDecider(calibration, bound, 0.05)
      for (let k = 0; k < 50; k++) {
        const n = 1 + Math.floor(rng() * 600)
        const successes = Math.floor((n + 1) * rng())
        const before = unionBound(successes, n)
        const after = correctedDecision(successes, n, plan)
        if (before !== 'undecided') {
          unionDecided++
          expect(after, JSON.stringify({ calibration, bound, successes, n })).toBe(before)
        } else if (after !== 'undecided') onlyWeighted++
      }
    }
    expect(unionDecided).toBeGreaterThan(300)
    // And it decides counts the union bound left undecided.
    expect(onlyWeighted).toBeGreaterThan(50)
  })

  test("its reach is the box corner's apparent rate", () => {
    const evidence = judgeEvidence({ correct: 18, of: 20 }, { correct: 19, of: 20 }, 0.05)
    const frontier = judgeCorrectedFrontier(evidence, 0.2)
    const seLow = clopperPearson(18, 20, 1 - 0.0125).low
    const fpLow = clopperPearson(1, 20, 1 - 0.0125).low
    expect(judgeCorrectedReach(frontier)).toBeCloseTo(0.2 * seLow + 0.8 * fpLow, 12)
    // Under it, enough rollouts at that apparent rate decide; over it, none do.
    const reach = judgeCorrectedReach(frontier)
    expect(judgeCorrectedMargin(0.8 * reach * 20_000, 20_000, frontier, 0.05)).toBeGreaterThanOrEqual(0)
    expect(judgeCorrectedMargin(1.05 * reach * 20_000, 20_000, frontier, 0.05)).toBeLessThan(0)
  })

  test('bad input is named', () => {
    expect(() => judgeEvidence({ correct: 21, of: 20 }, { correct: 5, of: 5 }, 0.05)).toThrow(/judgeEvidence/)
    expect(() =>
      judgeCorrectedFrontier(judgeEvidence({ correct: 5, of: 5 }, { correct: 5, of: 5 }, 0.05), 1),
    ).toThrow(/bound must be in \(0, 1\)/)
  })
})
