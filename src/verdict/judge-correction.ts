import { confidenceSequence } from '../stats/confidence-sequence.js'
import type { Estimate } from '../stats/estimate.js'
import { mixtureLogEValues } from '../stats/mixture-e-process.js'
import {
  apparentBounds,
  boxIsInformative,
  correctedRange,
  JUDGE_ALPHA_SHARES,
  JUDGE_CORRECTION_METHOD,
  judgeErrorBox,
  roganGladen,
  type JudgeErrorBox,
} from '../stats/rogan-gladen.js'
import { rolloutsToDecide, type SequentialDecision } from '../stats/sequential-rate-test.js'
import { InvalidOptionError } from '../errors.js'
import { judgeCalibrationOf, type JudgeCalibration } from '../trajectory/judge-calibration.js'
import type { JudgeCorrection } from './schema.js'

/**
 * How a rate gate tests the true rate of a calibrated judge's predicate. The judge says yes at the
 * apparent rate q = Se·p + (1 − Sp)(1 − p); its calibration's exact intervals give a box of
 * (Se, Sp), and the true rate p is below the bound for every judge of the box exactly when q is
 * below `bounds.below` (above it: when q is above `bounds.above`). So the gate runs its own
 * anytime-valid test on q, at its share of α, against those two apparent bounds: the union bound
 * over that test and the box keeps each wrong decision at α, at every look.
 */
export interface JudgeCorrectionPlan {
  readonly calibration: JudgeCalibration
  readonly box: JudgeErrorBox
  /** The claim's α = 1 − confidence (per side). */
  readonly alpha: number
  /** The apparent test's α. */
  readonly apparentAlpha: number
  /** Null when the box holds a judge no better than chance: the test can decide nothing. */
  readonly bounds: { readonly below: number; readonly above: number } | null
}

/** The plan of a judge-corrected gate at `bound` and α = `alpha`. */
export function judgeCorrectionPlan(
  calibration: JudgeCalibration,
  bound: number,
  alpha: number,
): JudgeCorrectionPlan {
  const box = judgeErrorBox(calibration.sensitivity, calibration.specificity, alpha)
  return {
    calibration,
    box,
    alpha,
    apparentAlpha: JUDGE_ALPHA_SHARES.apparent * alpha,
    bounds: boxIsInformative(box) ? apparentBounds(bound, box) : null,
  }
}

/**
 * The corrected test's answer after `successes` judge-yes of `n`: 'below' when the mixture e-value
 * against q ≥ bounds.below reaches 1/α_q, 'above' when the one against q ≤ bounds.above does
 * (`sequentialRateTest`'s test, at the apparent bounds). An apparent bound at 0 or 1 cannot be
 * crossed: that side never decides.
 */
export function correctedDecision(
  successes: number,
  n: number,
  plan: JudgeCorrectionPlan,
): SequentialDecision {
  const { bounds } = plan
  if (bounds === null || n === 0) return 'undecided'
  const threshold = Math.log(1 / plan.apparentAlpha)
  if (
    bounds.below > 0 &&
    bounds.below < 1 &&
    mixtureLogEValues(successes, n, bounds.below).below >= threshold
  )
    return 'below'
  if (
    bounds.above > 0 &&
    bounds.above < 1 &&
    mixtureLogEValues(successes, n, bounds.above).above >= threshold
  )
    return 'above'
  return 'undecided'
}

/**
 * The apparent rate with its confidence sequence at the apparent share of α (each end one-sided at
 * α_q), and the corrected rate: the Rogan–Gladen point at the calibration's own estimates, and the
 * extremes of the map over the box at the sequence's ends, each end one-sided at α — so the
 * corrected interval is two-sided at 1 − 2α, as an uncorrected gate's is.
 */
export function correctedRates(
  successes: number,
  n: number,
  plan: JudgeCorrectionPlan,
): { apparent: Estimate; corrected: Estimate } {
  const apparent = confidenceSequence(successes, n, 2 * plan.apparentAlpha)
  const { sensitivity, specificity } = plan.calibration
  const range = n === 0 ? { low: 0, high: 1 } : correctedRange(apparent, plan.box)
  const se = sensitivity.correct / sensitivity.of
  const sp = specificity.correct / specificity.of
  const point = n === 0 || se + sp <= 1 ? 0 : roganGladen(apparent.point, se, sp)
  return {
    apparent,
    corrected: {
      // The point is kept inside its interval: the box's corners need not bracket the point estimate
      // at extreme counts, and a printed point outside its interval reads as a bug.
      point: Math.min(range.high, Math.max(range.low, point)),
      low: range.low,
      high: range.high,
      successes,
      n,
      confidence: 1 - 2 * plan.alpha,
      method: 'rogan-gladen',
    },
  }
}

/**
 * For an undecided corrected gate: about how many rollouts in all would decide it if the apparent
 * rate held, or null when it lies between the two apparent bounds (more rollouts cannot decide it;
 * a larger calibration can).
 */
export function correctedRolloutsToDecide(
  successes: number,
  n: number,
  plan: JudgeCorrectionPlan,
): number | null {
  const { bounds } = plan
  if (bounds === null || n === 0) return null
  const rate = successes / n
  const bound = rate < bounds.below ? bounds.below : rate > bounds.above ? bounds.above : null
  if (bound === null || !(bound > 0 && bound < 1)) return null
  const more = rolloutsToDecide({ successes, n, bound, alpha: plan.apparentAlpha })
  return more === null ? null : n + more
}

/** The verdict's record of the correction. */
export function judgeCorrectionRecord(plan: JudgeCorrectionPlan, apparent: Estimate): JudgeCorrection {
  const { sensitivity, specificity } = plan.calibration
  return {
    method: JUDGE_CORRECTION_METHOD,
    apparent,
    sensitivity: { ...sensitivity, low: plan.box.sensitivity.low, high: plan.box.sensitivity.high },
    specificity: { ...specificity, low: plan.box.specificity.low, high: plan.box.specificity.high },
    alphaShares: { ...JUDGE_ALPHA_SHARES },
    apparentBounds: plan.bounds === null ? null : { ...plan.bounds },
  }
}

/**
 * Refuses a calibrated judge where no correction is defined: `toNever` / `toAlways` (a judge with
 * specificity below 1 says yes on some runs of a perfect agent, so "0 in N" fails however good the
 * agent is, and zero apparent occurrences bound nothing once the judge can miss), a stored baseline
 * and an A/B comparison (whose rates are compared on the judge's apparent scale).
 */
export function refuseJudgeCorrection(predicate: object, matcher: string, instead: string): void {
  const calibration = judgeCalibrationOf(predicate)
  if (calibration === undefined) return
  const { sensitivity, specificity } = calibration
  throw new InvalidOptionError({
    caller: matcher,
    option: 'predicate',
    expected: 'a predicate without a judge calibration',
    received: `a judge calibrated at sensitivity ${sensitivity.correct}/${sensitivity.of}, specificity ${specificity.correct}/${specificity.of}`,
    hint: instead,
  })
}
