import { clopperPearson } from './clopper-pearson.js'
import { assertAlpha, assertCount } from './validate.js'

/**
 * The name every rendering gives the judge correction: the Rogan–Gladen estimator, its interval
 * the union-bound inversion over the apparent rate's confidence sequence and exact
 * (Clopper–Pearson) intervals for the judge's sensitivity and specificity.
 */
export const JUDGE_CORRECTION_METHOD =
  'Rogan–Gladen, union bound over the confidence sequence and Clopper–Pearson'

/**
 * The shares of α the corrected gate spends, per side: half on the apparent rate's confidence
 * sequence (one-sided, at each look), a quarter on each two-sided Clopper–Pearson interval of the
 * calibration. The calibration's intervals are shared by both sides, so each wrong decision has
 * probability at most α/2 + α/4 + α/4 = α.
 */
export const JUDGE_ALPHA_SHARES = { apparent: 0.5, sensitivity: 0.25, specificity: 0.25 } as const

/** A range a judge's sensitivity or specificity lies in. */
export interface AccuracyRange {
  readonly low: number
  readonly high: number
}

/** Where the judge's error rates lie: the box the correction takes its extremes over. */
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
 * positives) and specificity, each at confidence 1 − its share of α.
 */
export function judgeErrorBox(
  sensitivity: { correct: number; of: number },
  specificity: { correct: number; of: number },
  alpha: number,
): JudgeErrorBox {
  assertAlpha('judgeErrorBox', alpha)
  assertCount('judgeErrorBox', sensitivity.correct, sensitivity.of)
  assertCount('judgeErrorBox', specificity.correct, specificity.of)
  const se = clopperPearson(sensitivity.correct, sensitivity.of, 1 - JUDGE_ALPHA_SHARES.sensitivity * alpha)
  const sp = clopperPearson(specificity.correct, specificity.of, 1 - JUDGE_ALPHA_SHARES.specificity * alpha)
  return { sensitivity: { low: se.low, high: se.high }, specificity: { low: sp.low, high: sp.high } }
}

/** Whether every judge in the box is better than chance; otherwise no bound on the true rate follows. */
export function boxIsInformative(box: JudgeErrorBox): boolean {
  return box.sensitivity.low + box.specificity.low > 1
}

/**
 * The apparent rates the corrected gate compares its confidence sequence with. The true rate is
 * below `bound` for every judge in the box exactly when the apparent rate is below
 * `below` = bound·Se_low + (1 − bound)(1 − Sp_high) (the smallest apparent rate a true rate of
 * `bound` can show), and above it for every judge when the apparent rate is above
 * `above` = bound·Se_high + (1 − bound)(1 − Sp_low). So the gate's one-sided test of the apparent
 * rate against these is its test of the true rate: the extremes of the Rogan–Gladen map over the
 * box, at its corners because the map is monotone in each coordinate where Se + Sp > 1.
 */
export function apparentBounds(bound: number, box: JudgeErrorBox): { below: number; above: number } {
  return {
    below: bound * box.sensitivity.low + (1 - bound) * (1 - box.specificity.high),
    above: bound * box.sensitivity.high + (1 - bound) * (1 - box.specificity.low),
  }
}

/**
 * The true rate's interval from the apparent rate's [low, high]: the least and greatest Rogan–Gladen
 * value over the box's corners ([0, 1] when the box holds a judge no better than chance).
 */
export function correctedRange(apparent: AccuracyRange, box: JudgeErrorBox): AccuracyRange {
  if (!boxIsInformative(box)) return { low: 0, high: 1 }
  const corners = [
    [box.sensitivity.low, box.specificity.low],
    [box.sensitivity.low, box.specificity.high],
    [box.sensitivity.high, box.specificity.low],
    [box.sensitivity.high, box.specificity.high],
  ] as const
  return {
    low: Math.min(...corners.map(([se, sp]) => roganGladen(apparent.low, se, sp))),
    high: Math.max(...corners.map(([se, sp]) => roganGladen(apparent.high, se, sp))),
  }
}
