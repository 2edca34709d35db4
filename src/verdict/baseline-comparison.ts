import type { Interval } from '../stats/estimate.js'
import { newcombeCorrected } from '../stats/newcombe.js'

/**
 * Where a new measurement stands against its stored rate, worst first:
 * - `regressed`: worse than the stored rate by more than the tolerance, shown at the gate's
 *   confidence (the interval's better end lies beyond the tolerance) — fails;
 * - `undecided`: a regression beyond the tolerance is not ruled out (the interval's worse end does
 *   not lie within it) — fails, since the gate's claim "no worse than tolerance" is not shown;
 * - `within`: no worse than the tolerance, shown at the gate's confidence (the worse end lies
 *   within it) — passes;
 * - `reproduced`: the stored run itself, rerun with its seed (every rollout's outcome as stored) —
 *   passes without a statistical comparison: nothing changed.
 */
export type BaselineFinding = 'regressed' | 'undecided' | 'within' | 'reproduced'

/** A rate as counts: `successes` of `n` completed rollouts held the predicate. */
export interface RateCounts {
  readonly successes: number
  readonly n: number
}

/** How {@link compareWithBaseline} judges a difference. */
export interface BaselineRule {
  /** How much worse than the stored rate the new one may be, in [0, 1). */
  readonly tolerance: number
  /** `lower`: a higher rate is worse; `higher`: a lower rate is worse. */
  readonly better: 'lower' | 'higher'
  /** The confidence of the one-sided test; the interval is two-sided at 2·confidence − 1. */
  readonly confidence: number
}

/**
 * The new − stored difference of two independent measurements and its finding. The claim is
 * non-inferiority: H0 "worse by at least `tolerance`" against H1 "worse by less", tested one-sided
 * at `confidence` by Newcombe's hybrid score interval with continuity correction (method 11),
 * two-sided at 2·confidence − 1, so each end is a one-sided bound at `confidence` (90% two-sided
 * for 95%). Why the correction: without it (method 10) a regression of exactly the tolerance passes
 * up to 5.3% of the time at 100 rollouts; with it, at most 4.5% (exact enumeration). The gate passes only when
 * the worse end lies within the tolerance, so a regression of exactly `tolerance` or more passes
 * with probability at most 1 − confidence; a run that cannot tell its rate from one beyond the
 * tolerance fails (`undecided`) rather than passing for lack of evidence.
 *
 * Why independent samples: a stored run and a new one share their seed (the streams of rollout r
 * are the same), but a changed agent's outcomes need not be positively correlated with the old
 * ones, so the comparison does not lean on the pairing.
 */
export function compareWithBaseline(
  current: RateCounts,
  stored: RateCounts,
  rule: BaselineRule,
): { difference: Interval; finding: Exclude<BaselineFinding, 'reproduced'> } {
  const difference = newcombeCorrected(
    current.successes,
    current.n,
    stored.successes,
    stored.n,
    2 * rule.confidence - 1,
  )
  // The difference signed so that positive is worse.
  const [worseEnd, betterEnd] =
    rule.better === 'lower' ? [difference.high, difference.low] : [-difference.low, -difference.high]
  const finding =
    worseEnd < rule.tolerance ? 'within' : betterEnd > rule.tolerance ? 'regressed' : 'undecided'
  return { difference, finding }
}
