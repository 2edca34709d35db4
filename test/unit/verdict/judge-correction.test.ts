import { describe, expect, test } from 'vitest'
import { AUDIT_MODELS, CORRECTED, exactJudgeGate, UNCORRECTED } from '../../../bench/judge-correction.js'
import {
  correctedDecision,
  correctedRates,
  judgeCorrectionPlan,
} from '../../../src/verdict/judge-correction.js'

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
    for (let n = 1; n <= 300; n += 23) {
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

  // Each model's true rate is at the bound, so every pass is a wrong pass. Exact: a sum over every
  // calibration the labelled set can give (those under 1e-7 left out, their mass counted as wrong
  // passes) of the gate's own stopping rule walked over every outcome of up to 400 rollouts. Nothing
  // is sampled, so nothing is missed by chance: a construction whose wrong pass on any of these
  // judges exceeded α fails this test, whatever its margin. The corrected gate's worst here is about
  // 0.9% (the union bound it replaced: 0.197%); the uncorrected gate's is 34.2% on the Se 0.6 judge.
  test("keeps the exact wrong pass at or below α on the audit's judges", () => {
    expect(AUDIT_MODELS).toHaveLength(12)
    let worst = 0
    for (const model of AUDIT_MODELS) {
      const corrected = exactJudgeGate(model, CORRECTED)
      expect(corrected.pass, model.name).toBeLessThanOrEqual(0.05)
      worst = Math.max(worst, corrected.pass)
    }
    // It spends more of α than the union bound did, which is where its power comes from.
    expect(worst).toBeGreaterThan(0.00197)
    const weak = AUDIT_MODELS.find((model) => model.name.startsWith('rarely ≤ 10%, Se 0.6'))
    expect(weak).toBeDefined()
    if (weak === undefined) return
    // Se 0.6 under-reports the bad outcome: the uncorrected gate passes the false claim often.
    expect(exactJudgeGate(weak, UNCORRECTED).pass).toBeGreaterThan(0.3)
  }, 300_000)
})
