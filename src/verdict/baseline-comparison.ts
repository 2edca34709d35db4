import type { Interval } from '../stats/estimate.js'
import { newcombeCorrected } from '../stats/newcombe.js'
import { tangoCorrected } from '../stats/tango-corrected.js'

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
 * Valid only for independent runs: the stored run was measured with another seed, or the new run
 * cannot be paired with it (see {@link comparePairedWithBaseline} for a run on the stored seed).
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
  return { difference, finding: findingOf(worseEnd, betterEnd, rule.tolerance) }
}

function findingOf(
  worseEnd: number,
  betterEnd: number,
  tolerance: number,
): Exclude<BaselineFinding, 'reproduced'> {
  return worseEnd < tolerance ? 'within' : betterEnd > tolerance ? 'regressed' : 'undecided'
}

/**
 * The continuity correction of the paired comparison, in pairs: a whole discordant pair. Half a
 * pair (the attribution's) lets a regression of exactly the tolerance pass 5.18% of the time at
 * 200 rollouts when every pair is discordant, and ¾ 5.65% at 20; with a whole pair the exact size
 * stays at or under 4.92% over 20–300 rollouts, stored rates 2–80%, tolerances 0–20% and eleven
 * couplings from countermonotone to comonotone (test/unit/verdict/baseline-coupling.test.ts
 * enumerates a grid of them).
 */
export const BASELINE_PAIRED_CORRECTION = 1

/** Rollout-by-rollout counts of a new run against its stored one: worse, better or the same. */
export interface BaselinePairs {
  readonly worse: number
  readonly better: number
  readonly same: number
}

/**
 * The new − stored difference of a run on the stored seed, paired rollout by rollout with the
 * stored outcomes (`1` the predicate held, `0` not, `-` an error; a pair with an error on either
 * side is left out), and its finding under the same non-inferiority rule as
 * {@link compareWithBaseline}. Why paired: a run on the stored seed draws rollout r's numbers as the
 * stored run did, so the two runs are coupled however the change reads those numbers, and an
 * interval for independent samples can be wrong either way — a change that reads the shared draw
 * the other way (bad iff u > 0.45 where the stored run was bad iff u < 0.5, a regression of
 * exactly the tolerance 0.05) passed it 9.99% of the time at 95%. Tango's paired score interval
 * holds for any joint law of the pairs, since it looks only at the per-pair differences; with the
 * continuity correction of {@link BASELINE_PAIRED_CORRECTION} its exact size stays under α. And an
 * agent changed in only some runs shows it in a few discordant pairs, which it needs far fewer of
 * than a comparison of two rates.
 */
export function comparePairedWithBaseline(
  current: readonly string[] | string,
  stored: string,
  rule: BaselineRule,
): { difference: Interval; finding: Exclude<BaselineFinding, 'reproduced'>; pairs: BaselinePairs } {
  let newOnly = 0
  let storedOnly = 0
  let same = 0
  const length = Math.min(current.length, stored.length)
  for (let rollout = 0; rollout < length; rollout++) {
    const now = current[rollout]
    const then = stored[rollout]
    if (now === '-' || then === '-') continue
    if (now === then) same++
    else if (now === '1') newOnly++
    else storedOnly++
  }
  // Δ = P(new holds) − P(stored holds), from the pairs where exactly one held.
  const difference = tangoCorrected(
    { n11: 0, n12: newOnly, n21: storedOnly, n22: same },
    2 * rule.confidence - 1,
    BASELINE_PAIRED_CORRECTION,
  )
  const worseIsHigher = rule.better === 'lower'
  const [worseEnd, betterEnd] = worseIsHigher
    ? [difference.high, difference.low]
    : [-difference.low, -difference.high]
  return {
    difference,
    finding: findingOf(worseEnd, betterEnd, rule.tolerance),
    pairs: worseIsHigher
      ? { worse: newOnly, better: storedOnly, same }
      : { worse: storedOnly, better: newOnly, same },
  }
}
