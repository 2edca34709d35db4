import { bisect, firstDecidingCount } from '../stats/bisect.js'
import { confidenceSequence } from '../stats/confidence-sequence.js'
import type { Estimate } from '../stats/estimate.js'
import {
  JUDGE_ALPHA_SHARES,
  JUDGE_CORRECTION_METHOD,
  judgeCorrectedFrontier,
  judgeCorrectedMargin,
  judgeCorrectedReach,
  judgeEvidence,
  type JudgeCorrectedFrontier,
  type JudgeEvidence,
} from '../stats/judge-corrected-test.js'
import { judgeErrorBox, roganGladen, type JudgeErrorBox } from '../stats/rogan-gladen.js'
import type { SequentialDecision } from '../stats/sequential-rate-test.js'
import { InvalidOptionError } from '../errors.js'
import { judgeCalibrationOf, type JudgeCalibration } from '../trajectory/judge-calibration.js'
import type { JudgeCorrection } from './schema.js'

/**
 * How a rate gate tests the true rate of a calibrated judge's predicate. The judge says yes at the
 * apparent rate q = Se·p + (1 − Sp)(1 − p); the calibration's counts weigh every judge (Se, Sp) its
 * exact intervals leave, and the gate decides 'below' the bound when the run's e-process against
 * each judge's least apparent rate under the null, times that judge's weight, reaches 1/(¾α)
 * (`judgeCorrectedFrontier`); 'above' the same way with the judge read the other way round. Each
 * wrong decision stays at α, at every look.
 */
export interface JudgeCorrectionPlan {
  readonly calibration: JudgeCalibration
  /** The calibration's exact intervals, two-sided at 1 − α/4: the judges the test weighs. */
  readonly box: JudgeErrorBox
  /** The claim's α = 1 − confidence (per side). */
  readonly alpha: number
  /** The α of the apparent rate's printed confidence sequence: the run's share alone. */
  readonly apparentAlpha: number
  /** The calibration's evidence for each side, fixed before the first rollout. */
  readonly evidence: { readonly below: JudgeEvidence; readonly above: JudgeEvidence }
  /** The constraints of each side at the claim's bound ('above' on the judge-no count). */
  readonly frontiers: { readonly below: JudgeCorrectedFrontier; readonly above: JudgeCorrectedFrontier }
  /**
   * The apparent rates equivalent to the bound: below `below` (above `above`) enough rollouts decide;
   * between them none do. Null when neither side can ever decide.
   */
  readonly bounds: { readonly below: number; readonly above: number } | null
}

/** The plan of a judge-corrected gate at `bound` and α = `alpha`. */
export function judgeCorrectionPlan(
  calibration: JudgeCalibration,
  bound: number,
  alpha: number,
): JudgeCorrectionPlan {
  const { sensitivity, specificity } = calibration
  const evidence = {
    below: judgeEvidence(sensitivity, specificity, alpha),
    // Read the other way round, the judge's "no" has sensitivity Sp and specificity Se, and the
    // claim "p ≥ bound" is "1 − p ≤ 1 − bound": the 'above' side is the 'below' test on the no count.
    above: judgeEvidence(specificity, sensitivity, alpha),
  }
  const frontiers = {
    below: judgeCorrectedFrontier(evidence.below, bound),
    above: judgeCorrectedFrontier(evidence.above, 1 - bound),
  }
  const bounds = {
    below: judgeCorrectedReach(frontiers.below),
    above: 1 - judgeCorrectedReach(frontiers.above),
  }
  return {
    calibration,
    box: judgeErrorBox(sensitivity, specificity, alpha),
    alpha,
    apparentAlpha: alpha / 2,
    evidence,
    frontiers,
    bounds: bounds.below > 0 || bounds.above < 1 ? bounds : null,
  }
}

/**
 * The corrected test's answer after `successes` judge-yes of `n`: 'below' when the weighted test of
 * `judgeCorrectedFrontier` rejects p ≥ bound, 'above' when the one on the judge-no count rejects
 * p ≤ bound.
 */
export function correctedDecision(
  successes: number,
  n: number,
  plan: JudgeCorrectionPlan,
): SequentialDecision {
  if (n === 0) return 'undecided'
  if (judgeCorrectedMargin(successes, n, plan.frontiers.below, plan.alpha) >= 0) return 'below'
  if (judgeCorrectedMargin(n - successes, n, plan.frontiers.above, plan.alpha) >= 0) return 'above'
  return 'undecided'
}

/**
 * The apparent rate with its confidence sequence at the run's share of α (each end one-sided at
 * α/2), and the corrected rate: the Rogan–Gladen point at the calibration's own estimates, and the
 * interval of bounds the weighted test does not reject — its upper end the least bound it would
 * decide the rate below, its lower end the greatest it would decide it above, each one-sided at α,
 * so the corrected interval is two-sided at 1 − 2α, as an uncorrected gate's is.
 */
export function correctedRates(
  successes: number,
  n: number,
  plan: JudgeCorrectionPlan,
): { apparent: Estimate; corrected: Estimate } {
  const apparent = confidenceSequence(successes, n, 2 * plan.apparentAlpha)
  const { sensitivity, specificity } = plan.calibration
  const range = n === 0 ? { low: 0, high: 1 } : correctedRange(successes, n, plan)
  const se = sensitivity.correct / sensitivity.of
  const sp = specificity.correct / specificity.of
  const point = n === 0 || se + sp <= 1 ? 0 : roganGladen(apparent.point, se, sp)
  return {
    apparent,
    corrected: {
      // The point is kept inside its interval: the interval need not bracket the point estimate at
      // extreme counts, and a printed point outside its interval reads as a bug.
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

/** How close the corrected interval's ends come to the bounds the test decides at. */
const RANGE_TOLERANCE = 1e-6

/**
 * The corrected interval's ends by bisection over the bound: deciding 'below' at a bound decides it
 * at every greater one (each judge's least null apparent rate grows with the bound), so the bounds it
 * decides below form an interval up to 1, and likewise 'above' down to 0.
 */
function correctedRange(
  successes: number,
  n: number,
  plan: JudgeCorrectionPlan,
): { low: number; high: number } {
  const decidesBelow = (bound: number) =>
    judgeCorrectedMargin(successes, n, judgeCorrectedFrontier(plan.evidence.below, bound), plan.alpha) >= 0
  const decidesAbove = (bound: number) =>
    judgeCorrectedMargin(
      n - successes,
      n,
      judgeCorrectedFrontier(plan.evidence.above, 1 - bound),
      plan.alpha,
    ) >= 0
  const highest = 1 - RANGE_TOLERANCE
  const high = decidesBelow(highest) ? bisect(decidesBelow, 0, highest, RANGE_TOLERANCE) : 1
  const low = decidesAbove(RANGE_TOLERANCE)
    ? bisect((bound) => !decidesAbove(bound), RANGE_TOLERANCE, 1, RANGE_TOLERANCE)
    : 0
  return { low: Math.min(low, high), high }
}

/** Beyond this many rollouts, {@link correctedRolloutsToDecide} answers null ("would not decide"). */
const MOST_PROJECTED_ROLLOUTS = 10_000_000

/**
 * For an undecided corrected gate: about how many rollouts in all would decide it if the apparent
 * rate held, or null when it lies between the two apparent bounds (more rollouts cannot decide it;
 * a larger calibration can). A doubling search, then bisection, for the first count that decides.
 */
export function correctedRolloutsToDecide(
  successes: number,
  n: number,
  plan: JudgeCorrectionPlan,
): number | null {
  const { bounds } = plan
  if (bounds === null || n === 0) return null
  const rate = successes / n
  if (!(rate < bounds.below || rate > bounds.above)) return null
  const decides = (m: number) => correctedDecision(rate * m, m, plan) !== 'undecided'
  return firstDecidingCount(decides, n, MOST_PROJECTED_ROLLOUTS)
}

/**
 * Whether some outcome of at most `maxRollouts` rollouts passes the claim under this plan. The
 * outcome most in the claim's favour is the one to try: no judge-yes for "at most", all judge-yes
 * for "at least". On that path every alternative's likelihood ratio grows with each rollout, for
 * every judge the test weighs, so the passing margin is largest after the last one, and if that does
 * not pass nothing does.
 */
export function correctedCanPass(
  plan: JudgeCorrectionPlan,
  direction: 'atMost' | 'atLeast',
  maxRollouts: number,
): boolean {
  const best = direction === 'atMost' ? 0 : maxRollouts
  return correctedDecision(best, maxRollouts, plan) === (direction === 'atMost' ? 'below' : 'above')
}

/** Beyond this many labelled runs the search stops: a calibration that needs more is not a plan. */
const MOST_LABELS = 1_000_000

/**
 * About how many labelled runs would let an agent that is perfect for the claim (it never does the
 * judged thing, for "at most"; always, for "at least") pass within `maxRollouts`, if the judge kept
 * the accuracy and the mix of positives and negatives its calibration shows. Such an agent's judge
 * still says yes at 1 − Sp (says no at 1 − Se), so "could pass at all" (zero judge-yes) would
 * promise too little; this asks the corrected test about the counts the perfect agent is expected
 * to show after `maxRollouts`. Null when no number up to a million would do: the calibration's own
 * estimates put the judge at no better than chance, or `maxRollouts` is too few even for a judge
 * known exactly. A guide for how much to label, not a promise: a new calibration draws new counts.
 */
export function labelsToPass(
  calibration: JudgeCalibration,
  bound: number,
  alpha: number,
  direction: 'atMost' | 'atLeast',
  maxRollouts: number,
): { labels: number; positives: number; negatives: number } | null {
  const { sensitivity, specificity } = calibration
  const labelled = sensitivity.of + specificity.of
  const apparentRate =
    direction === 'atMost' ? 1 - specificity.correct / specificity.of : sensitivity.correct / sensitivity.of
  const expectedYes = apparentRate * maxRollouts
  const passing = direction === 'atMost' ? 'below' : 'above'
  const scaled = (labels: number) => {
    const positives = Math.max(1, Math.round((labels * sensitivity.of) / labelled))
    const negatives = Math.max(1, Math.round((labels * specificity.of) / labelled))
    return {
      positives,
      negatives,
      calibration: {
        sensitivity: {
          correct: Math.round((positives * sensitivity.correct) / sensitivity.of),
          of: positives,
        },
        specificity: {
          correct: Math.round((negatives * specificity.correct) / specificity.of),
          of: negatives,
        },
      },
    }
  }
  const passes = (labels: number) =>
    correctedDecision(
      expectedYes,
      maxRollouts,
      judgeCorrectionPlan(scaled(labels).calibration, bound, alpha),
    ) === passing
  // Doubling finds a count that passes, bisection the least one; rounding makes passing only nearly
  // monotone in the count, which is as exact as "about this many" needs.
  let high = Math.max(2, labelled)
  while (!passes(high)) {
    if (high >= MOST_LABELS) return null
    high = Math.min(MOST_LABELS, high * 2)
  }
  let low = Math.floor(high / 2)
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2)
    if (passes(middle)) high = middle
    else low = middle
  }
  const { positives, negatives } = scaled(high)
  return { labels: positives + negatives, positives, negatives }
}

/**
 * Refuses, before any rollout runs, a judge-corrected claim that no outcome of `maxRollouts`
 * rollouts could pass: the run would spend every rollout and every judge call to end inconclusive
 * (or, at best, fail). The message says how many labelled runs would let a perfect agent pass.
 */
export function refuseUnpassableCorrection(
  plan: JudgeCorrectionPlan,
  options: { direction: 'atMost' | 'atLeast'; bound: number; maxRollouts: number },
): void {
  const { direction, bound, maxRollouts } = options
  if (correctedCanPass(plan, direction, maxRollouts)) return
  const { sensitivity, specificity } = plan.calibration
  const claim = `${direction === 'atMost' ? 'at most' : 'at least'} ${Number((bound * 100).toFixed(4))}%`
  const rollouts = maxRollouts.toLocaleString('en-US')
  const why = `with which not even ${direction === 'atMost' ? 'zero' : rollouts} judge-yes in ${rollouts} rollouts would prove the true rate ${claim}`
  const needed = labelsToPass(plan.calibration, bound, plan.alpha, direction, maxRollouts)
  const perfect = `an agent that ${direction === 'atMost' ? 'never' : 'always'} does it`
  const remedy =
    needed === null
      ? `No number of labelled runs at this accuracy would let ${perfect} pass in ${rollouts} rollouts: sharpen the rubric, or raise maxRollouts.`
      : `With about ${needed.labels.toLocaleString('en-US')} labelled runs at this accuracy (${needed.positives.toLocaleString('en-US')} positive, ${needed.negatives.toLocaleString('en-US')} negative), ${perfect} would be expected to pass in ${rollouts} rollouts: label more runs, sharpen the rubric, or raise maxRollouts.`
  throw new InvalidOptionError({
    caller: direction === 'atMost' ? 'toRarely' : 'toUsually',
    option: 'predicate',
    expected: `a judge calibrated well enough that some outcome of ${rollouts} rollouts (maxRollouts) could pass "${claim}"`,
    received: `a judge calibrated at sensitivity ${sensitivity.correct}/${sensitivity.of}, specificity ${specificity.correct}/${specificity.of}, ${why}`,
    hint: `${remedy} No rollout was run.`,
  })
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
