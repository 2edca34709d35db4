import { bisect } from './bisect.js'
import { inverseRegularizedIncompleteBeta, logIncompleteBeta } from './incomplete-beta.js'
import { logBeta } from './log-gamma.js'
import { compiledLogEBelow } from './mixture-e-process.js'
import { assertAlpha, assertCount } from './validate.js'

/**
 * The name every rendering gives the judge-corrected test: the Rogan–Gladen estimator, decided by
 * the apparent rate's mixture e-process weighed by the calibration's exact evidence about the judge.
 */
export const JUDGE_CORRECTION_METHOD =
  'Rogan–Gladen, mixture e-process weighed by the calibration’s exact evidence'

/**
 * The one-sided tail of α each calibration count's exact interval leaves out, per side (α/8): the
 * judges outside it are not tested. The two intervals are the box a union bound used to take its
 * corners over, two-sided at 1 − α/4; judges inside it are now weighed, not taken at its corner.
 */
export const JUDGE_BOX_TAIL = 1 / 8

/**
 * The weights of the calibration's evidence about a judge inside the box: ½ on the constant 1 (the
 * run's evidence alone), ¼ on each calibrated exact p-value. An average of e-values is an e-value.
 */
const EVIDENCE_WEIGHTS = { run: 0.5, sensitivity: 0.25, specificity: 0.25 } as const

/**
 * The shares of α a wrong decision's probability is bounded by, per side: each count's box tail
 * (α/8), and the weighted test at 3α/4, which splits by its evidence weights (½, ¼, ¼).
 */
export const JUDGE_ALPHA_SHARES = {
  apparent: (1 - 2 * JUDGE_BOX_TAIL) * EVIDENCE_WEIGHTS.run,
  sensitivity: JUDGE_BOX_TAIL + (1 - 2 * JUDGE_BOX_TAIL) * EVIDENCE_WEIGHTS.sensitivity,
  specificity: JUDGE_BOX_TAIL + (1 - 2 * JUDGE_BOX_TAIL) * EVIDENCE_WEIGHTS.specificity,
} as const

/**
 * κ of the p-to-e calibrator c(p) = κ·p^(κ − 1) (Vovk & Wang 2021, "E-values: calibration,
 * combination and applications", Ann. Statist. 49:1736–1754): ∫₀¹ c = 1, so c of an exact p-value is
 * an e-value. κ = ⅓, the least with which the weighted test passes whenever the union bound did (see
 * {@link judgeCorrectedFrontier}), turns the box's edge (p = α/8) into 10.
 */
const CALIBRATOR_POWER = 1 / 3

/**
 * How finely each accuracy axis is laid inside the box: a point every 1/16, and points where the
 * count's exact p-value crosses each power of 10^(1/8), so the grid is fine where the evidence changes
 * (near the box's edge) and coarse where it does not. A grid of 1/64 and 10^(1/16) passed the
 * audit's priced cases 1–2% sooner with about three times the frontier (and the cost of each look).
 */
const UNIFORM_STEPS = 16
const LEVELS_PER_DECADE = 8

/** How closely a grid point is placed at its p-value level: any place is exact, only the spacing is approximate. */
const LEVEL_TOLERANCE = 1e-6

/** A calibration count: the judge was right on `correct` of `of` labelled runs. */
export interface CalibrationCount {
  readonly correct: number
  readonly of: number
}

/** A point of an accuracy axis: the rate, and ln c(p) of its count's exact p-value there. */
export interface AxisPoint {
  readonly rate: number
  readonly logEvidence: number
}

/**
 * What a calibration says about the judges one side of the test must consider, fixed before the
 * run: the sensitivity from its box edge up, and the false-positive rate 1 − Sp from its box edge up,
 * each laid as an axis with the calibrated p-value of its count.
 */
export interface JudgeEvidence {
  readonly sensitivity: readonly AxisPoint[]
  readonly falsePositive: readonly AxisPoint[]
}

/**
 * The evidence for deciding the true rate below a bound: `sensitivity` as counted, and the false
 * positives (`specificity.of − specificity.correct`). For deciding above, pass the counts swapped
 * (the judge read the other way round: its specificity is the sensitivity of "does not") and test
 * 1 − bound on the judge-no count.
 */
export function judgeEvidence(
  sensitivity: CalibrationCount,
  specificity: CalibrationCount,
  alpha: number,
): JudgeEvidence {
  assertCount('judgeEvidence', sensitivity.correct, sensitivity.of)
  assertCount('judgeEvidence', specificity.correct, specificity.of)
  assertAlpha('judgeEvidence', alpha)
  return {
    sensitivity: evidenceAxis(sensitivity.correct, sensitivity.of, JUDGE_BOX_TAIL * alpha),
    falsePositive: evidenceAxis(specificity.of - specificity.correct, specificity.of, JUDGE_BOX_TAIL * alpha),
  }
}

/** One constraint of the weighted test: judges whose null apparent rate is at least `apparent` carry evidence e^`logEvidence`. */
export interface FrontierPoint {
  readonly apparent: number
  readonly logEvidence: number
}

/** A frontier point with the run's e-process against its apparent rate compiled. */
interface CompiledPoint extends FrontierPoint {
  readonly logRunEvidence: (successes: number, n: number) => number
}

/** The constraints of one side of the weighted test, by increasing `apparent`. */
export type JudgeCorrectedFrontier = readonly CompiledPoint[]

/**
 * The constraints for deciding the true rate p below `bound` from a judge's answers.
 *
 * A judge of sensitivity Se and false-positive rate F = 1 − Sp says yes at q = Se·p + F·(1 − p), so
 * under the null p ≥ bound, q ≥ q₀(Se, F) = min(Se·bound + F·(1 − bound), Se) (q is linear in p; no
 * judge is assumed better than chance). Judges with Se or F below their box edge (the exact
 * one-sided bound at α/8) are dropped. Each judge left is tested by E_run(q₀)·e_cal(Se, F) ≥ 1/(¾α),
 * with E_run the run's mixture e-process against q ≥ q₀ and e_cal = ½ + ¼·c(P(X_Se ≥ x_Se)) +
 * ¼·c(P(X_F ≥ x_F)) the calibrated exact p-values of the two counts. The test decides 'below' when
 * every judge's test rejects.
 *
 * Why it is valid at every look: a wrong 'below' needs the true judge outside the box (probability
 * ≤ α/8 + α/8) or its own test to reject. For the true judge e_cal has expectation ≤ 1 (c decreases,
 * ∫c = 1, an exact p-value is super-uniform); given the calibration (drawn before the run and
 * independent of it), E_run is a supermartingale from 1 under q ≥ q₀, so by Ville's inequality it
 * ever reaches 1/(¾α·e_cal) with probability ≤ ¾α·e_cal; over the calibration, ≤ ¾α. In all, α.
 *
 * Why it is sharper than the union bound over the box: that bound asked E_run ≥ 1/(α/2) at the box's
 * corner; here e_cal ≥ ½ + ¼κ + ¼κ = ⅔ everywhere, so no judge asks more than 1/(¾α·⅔) = 1/(α/2),
 * and every q₀ in the box is at least the corner's: the weighted test passes on every path the union
 * bound passed on, and sooner where the binding judges are the implausible ones near the box's edge
 * (there e_cal ≈ 5.4 instead of ⅔).
 *
 * The box is laid in cells on the axes; each cell gets its least q₀ (E_run grows with q₀) and its
 * least e_cal, so the grid only ever makes the test stricter. Cells no other cell dominates (lower q₀
 * and lower e_cal) are the frontier.
 */
export function judgeCorrectedFrontier(evidence: JudgeEvidence, bound: number): JudgeCorrectedFrontier {
  if (!(bound > 0 && bound < 1))
    throw new RangeError(`judgeCorrectedFrontier: the bound must be in (0, 1), got ${bound}`)
  const cells: FrontierPoint[] = []
  for (let i = 0; i + 1 < evidence.sensitivity.length; i++) {
    const se = evidence.sensitivity[i] as AxisPoint
    const seNext = evidence.sensitivity[i + 1] as AxisPoint
    for (let j = 0; j + 1 < evidence.falsePositive.length; j++) {
      const falsePositive = evidence.falsePositive[j] as AxisPoint
      const falsePositiveNext = evidence.falsePositive[j + 1] as AxisPoint
      cells.push({
        apparent: Math.min(se.rate * bound + falsePositive.rate * (1 - bound), se.rate),
        logEvidence: logWeightedEvidence(seNext.logEvidence, falsePositiveNext.logEvidence),
      })
    }
  }
  cells.sort((a, b) => a.apparent - b.apparent || a.logEvidence - b.logEvidence)
  const frontier: CompiledPoint[] = []
  for (const cell of cells) {
    const last = frontier.at(-1)
    if (last === undefined || cell.logEvidence < last.logEvidence) {
      frontier.push({ ...cell, logRunEvidence: compiledLogEBelow(logOdds(cell.apparent)) })
    }
  }
  return frontier
}

/**
 * How far the weighted test is from deciding 'below' after `successes` judge-yes of `n`: the least,
 * over the frontier, of ln E_run + ln e_cal − ln(1/(¾α)). It decides once this is ≥ 0.
 */
export function judgeCorrectedMargin(
  successes: number,
  n: number,
  frontier: JudgeCorrectedFrontier,
  alpha: number,
): number {
  assertAlpha('judgeCorrectedMargin', alpha)
  const threshold = Math.log(1 / ((1 - 2 * JUDGE_BOX_TAIL) * alpha))
  let margin = Infinity
  for (const point of frontier) {
    margin = Math.min(margin, point.logRunEvidence(successes, n) + point.logEvidence - threshold)
    // Only the sign is read: the first judge whose test does not reject settles it.
    if (margin < 0) return margin
  }
  return margin
}

/**
 * The apparent rate below which enough rollouts decide 'below': the least null apparent rate of the
 * box's judges (its corner). At an apparent rate under it every judge's E_run grows without bound;
 * at one over it, the corner judge's does not. 0 when the box reaches a judge that never says yes.
 */
export function judgeCorrectedReach(frontier: JudgeCorrectedFrontier): number {
  return frontier[0]?.apparent ?? 0
}

/**
 * Points over [edge, 1] for a rate r with `count` of `of` observed, the edge its exact one-sided
 * lower bound at `tail`: ln c(P(X ≥ count | r)), the calibrated exact upper-tail p-value, large
 * where r is implausibly low. A uniform grid, and the rates where the p-value crosses 10^(−k/8)
 * down to the edge.
 */
function evidenceAxis(count: number, of: number, tail: number): AxisPoint[] {
  // The edge must be the exact bound, so the judges left out have probability ≤ tail.
  const edge = count === 0 ? 0 : inverseRegularizedIncompleteBeta(tail, count, of - count + 1)
  const rates = new Set<number>([edge, 1])
  for (let step = 1; step < UNIFORM_STEPS; step++) {
    if (step / UNIFORM_STEPS > edge) rates.add(step / UNIFORM_STEPS)
  }
  if (count > 0) {
    for (let level = 1; 10 ** (-level / LEVELS_PER_DECADE) > tail; level++) {
      const logLevel = (-level / LEVELS_PER_DECADE) * Math.LN10
      rates.add(bisect((rate) => logPValue(count, of, rate) >= logLevel, edge, 1, LEVEL_TOLERANCE))
    }
  }
  return [...rates]
    .sort((a, b) => a - b)
    .map((rate) => ({
      rate,
      logEvidence: Math.log(CALIBRATOR_POWER) + (CALIBRATOR_POWER - 1) * logPValue(count, of, rate),
    }))
}

/** ln P(X ≥ count) for X ~ Binomial(of, rate) = ln I_rate(count, of − count + 1), in logs so a tail of 1e-300 keeps its size. */
function logPValue(count: number, of: number, rate: number): number {
  if (count === 0) return 0
  return Math.min(0, logIncompleteBeta(rate, count, of - count + 1) - logBeta(count, of - count + 1))
}

/** ln(½ + ¼·e^a + ¼·e^b): the calibration's evidence about one judge, from its two counts' (in logs). */
function logWeightedEvidence(logSensitivity: number, logFalsePositive: number): number {
  const terms = [
    Math.log(EVIDENCE_WEIGHTS.run),
    Math.log(EVIDENCE_WEIGHTS.sensitivity) + logSensitivity,
    Math.log(EVIDENCE_WEIGHTS.specificity) + logFalsePositive,
  ]
  const max = Math.max(...terms)
  if (max === Infinity) return Infinity
  return max + Math.log(terms.reduce((sum, term) => sum + Math.exp(term - max), 0))
}

/**
 * Log-odds of an apparent rate, kept finite: at 0 the mixture's e-value is its limit as the null
 * rate falls to 0 (its least), which the log-odds form reaches in double precision by −800.
 */
function logOdds(rate: number): number {
  return Math.max(-800, Math.min(800, Math.log(rate) - Math.log1p(-rate)))
}
