import { describe, expect, test } from 'vitest'
import { NULL_MODELS, simulateJudgeGates } from '../../../bench/judge-correction.js'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import {
  correctedDecision,
  correctedRates,
  judgeCorrectionPlan,
} from '../../../src/verdict/judge-correction.js'
import { errorRateCheck } from '../../binomial-check.js'

const calibration = { sensitivity: { correct: 47, of: 50 }, specificity: { correct: 95, of: 100 } }

describe('judge-corrected rate gate', () => {
  test('the corrected interval holds its point and reads [0, 1] before any rollout', () => {
    const plan = judgeCorrectionPlan(calibration, 0.1, 0.05)
    const none = correctedRates(0, 0, plan)
    expect(none.corrected).toMatchObject({ low: 0, high: 1, n: 0, method: 'rogan-gladen' })
    for (const [yes, n] of [
      [0, 50],
      [3, 80],
      [40, 100],
      [100, 100],
    ] as const) {
      const { apparent, corrected } = correctedRates(yes, n, plan)
      expect(corrected.low).toBeLessThanOrEqual(corrected.point)
      expect(corrected.point).toBeLessThanOrEqual(corrected.high)
      expect(corrected.confidence).toBeCloseTo(0.9, 12)
      // The apparent sequence is at its share of α: one-sided 2.5% each side.
      expect(apparent.confidence).toBeCloseTo(0.95, 12)
      expect(corrected).toMatchObject({ successes: yes, n })
    }
  })

  test('decides below only once the corrected upper end is under the bound', () => {
    const plan = judgeCorrectionPlan(calibration, 0.2, 0.05)
    for (let n = 1; n <= 300; n += 7) {
      for (const yes of [0, Math.floor(n * 0.05), Math.floor(n * 0.4)]) {
        const decision = correctedDecision(yes, n, plan)
        const { corrected } = correctedRates(yes, n, plan)
        // The interval is the decision's: a tolerance of 1e-6 for the bisection of the sequence.
        if (decision === 'below') expect(corrected.high).toBeLessThan(0.2 + 1e-6)
        if (decision === 'above') expect(corrected.low).toBeGreaterThan(0.2 - 1e-6)
        if (corrected.high < 0.2 - 1e-6) expect(decision).toBe('below')
      }
    }
  })

  // Each model's true rate is at the bound, so every pass is a wrong pass; the calibration is drawn
  // afresh in every run. 500 seeded runs of up to 400 looks per model, at most 40 wrong passes each:
  // a corrected gate passing wrongly in 10% (2α) of one model's runs is caught with probability
  // 0.925, and gates passing wrongly in exactly α on all five fail with 0.0077 (Bonferroni over the
  // five models).
  test('keeps wrong passes at or below α where the uncorrected gate does not', () => {
    const wrongPasses = errorRateCheck(500, 0.05, { checks: NULL_MODELS.length })
    const runs = wrongPasses.runs
    let uncorrectedWrong = 0
    expect(NULL_MODELS).toHaveLength(5)
    for (const model of NULL_MODELS) {
      const { corrected, uncorrected } = simulateJudgeGates(model, runs, { seed: `test ${model.name}` })
      expect(corrected.pass, model.name).toBeLessThanOrEqual(wrongPasses.limit)
      uncorrectedWrong += uncorrected.pass
      if (model.name.startsWith('rarely ≤ 10%')) {
        // Se 0.6 under-reports the bad outcome: the uncorrected gate passes the false claim often.
        expect(clopperPearson(uncorrected.pass, runs, 0.99).low).toBeGreaterThan(0.05)
      }
    }
    // Over the five judges, the uncorrected gate's wrong-pass rate is far above 5%.
    expect(clopperPearson(uncorrectedWrong, runs * NULL_MODELS.length, 0.99).low).toBeGreaterThan(0.05)
  })
})
