import { clopperPearson } from './clopper-pearson.js'
import { JUDGE_BOX_TAIL } from './judge-corrected-test.js'
import { assertAlpha, assertCount } from './validate.js'

/** A range a judge's sensitivity or specificity lies in. */
export interface AccuracyRange {
  readonly low: number
  readonly high: number
}

/** Where the judge's error rates lie: the box of judges the corrected test weighs. */
export interface JudgeErrorBox {
  readonly sensitivity: AccuracyRange
  readonly specificity: AccuracyRange
}

/**
 * The Rogan–Gladen estimate of a true rate from an apparent one (Rogan & Gladen 1978, "Estimating
 * prevalence from the results of a screening test", Am. J. Epidemiol. 107:71–76):
 * p = (q + Sp − 1) / (Se + Sp − 1), clamped to [0, 1]. The apparent rate of a judge with
 * sensitivity Se and specificity Sp is q = Se·p + (1 − Sp)(1 − p); this inverts it. Requires
 * Se + Sp > 1 (a judge better than chance).
 */
export function roganGladen(apparent: number, sensitivity: number, specificity: number): number {
  const youden = sensitivity + specificity - 1
  if (!(youden > 0))
    throw new RangeError(
      `roganGladen: sensitivity + specificity must exceed 1, got ${sensitivity} + ${specificity}`,
    )
  return Math.min(1, Math.max(0, (apparent + specificity - 1) / youden))
}

/**
 * The box of a calibration: two-sided Clopper–Pearson intervals for sensitivity (`correct` of `of`
 * positives) and specificity, each at confidence 1 − α/4, so each one-sided end leaves out α/8
 * (`JUDGE_BOX_TAIL`): the judges the corrected test weighs lie inside it.
 */
export function judgeErrorBox(
  sensitivity: { correct: number; of: number },
  specificity: { correct: number; of: number },
  alpha: number,
): JudgeErrorBox {
  assertAlpha('judgeErrorBox', alpha)
  assertCount('judgeErrorBox', sensitivity.correct, sensitivity.of)
  assertCount('judgeErrorBox', specificity.correct, specificity.of)
  const se = clopperPearson(sensitivity.correct, sensitivity.of, 1 - 2 * JUDGE_BOX_TAIL * alpha)
  const sp = clopperPearson(specificity.correct, specificity.of, 1 - 2 * JUDGE_BOX_TAIL * alpha)
  return { sensitivity: { low: se.low, high: se.high }, specificity: { low: sp.low, high: sp.high } }
}
