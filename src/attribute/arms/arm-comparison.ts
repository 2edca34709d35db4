import {
  independentScoreTestOneSided,
  newcombe,
  pairedDifference,
  pairedDifferenceTestOneSided,
  type Interval,
  type IntervalMethod,
} from '../../stats/index.js'
import { pairedCounts, type Arm } from './replay-arms.js'
import {
  logEValueBelow,
  pairedConfidenceBounds,
  pairedConfidenceSequence,
} from '../../stats/paired-confidence-sequence.js'

/**
 * How two arms are compared:
 * - `sequential`: arms stop at data-dependent times, so intervals are anytime-valid confidence
 *   sequences on the paired differences and tests are e-values (paired by rollout index: exact
 *   common random numbers under CRN, independent draws without — valid either way, tighter with CRN);
 * - `paired`: fixed K under CRN, Tango's score interval and test with a continuity correction of
 *   half a pair on the 2 × 2 table of pairs (uncorrected Tango under-covers when resampling rescues
 *   nearly every replay), or the paired confidence sequence when most pairs are discordant (pairs
 *   negatively correlated, where the score interval under-covers): see {@link pairedDifference};
 * - `independent`: fixed K with a seed per arm, Newcombe's interval and its inverted test.
 */
export type ComparisonKind = 'sequential' | 'paired' | 'independent'

/** The comparison an attribution uses, from its `crn` and `sequential` options. */
export function comparisonKind(crn: boolean, sequential: boolean): ComparisonKind {
  return sequential ? 'sequential' : crn ? 'paired' : 'independent'
}

/**
 * How an attribution's `methods.effect` names the effect intervals of a sequential arm
 * ({@link sequentialEffect}); `eProcessShare` and `capTests` describe fixed-sample sign tests that
 * take part of the rescue test's level (none by default).
 */
export function sequentialEffectMethod(eProcessShare = 1, capTests = ''): string {
  const intersection = 'anytime-valid confidence sequence, intersected over the looks'
  if (eProcessShare === 1) return intersection
  return `${intersection} (its upper end at ${eProcessShare} of the one-sided level), the upper end capped below 0 when ${capTests} rejects (a Bonferroni inversion of the probe's tests)`
}

/** The interval method behind {@link compareArms}. */
export function comparisonMethod(kind: ComparisonKind): IntervalMethod {
  return kind === 'sequential' ? 'confidence-sequence' : kind === 'paired' ? 'tango-corrected' : 'newcombe'
}

/**
 * The two-sided level at which {@link compareArms} reports a difference when the one-sided tests run
 * at `confidence`: 1 − 2·(1 − confidence), e.g. 90% for 95%. Each end of such an interval is the
 * one-sided bound at `confidence`, the bound the rescue test inverts.
 */
export function effectIntervalConfidence(confidence: number): number {
  return 2 * confidence - 1
}

/**
 * P(bad | first) − P(bad | second) with the interval that matches the one-sided tests at
 * `confidence`: two-sided at {@link effectIntervalConfidence}(confidence) (90% for 95%). Why not
 * two-sided at `confidence`: the locus test is one-sided ("resampling rescues"), so a 95% two-sided
 * interval could span 0 at a step the 95% one-sided test calls a rescue. At the reported level, an
 * unadjusted one-sided rejection at `confidence` ⇔ the upper end lies below 0 (for `paired` and
 * `independent` exactly: {@link fixedRescuePValue} inverts these intervals). Paired comparisons
 * count only rollout indices that both arms scored: a pair with an error outcome on either side is
 * left out.
 */
export function compareArms(kind: ComparisonKind, first: Arm, second: Arm, confidence: number): Interval {
  const level = effectIntervalConfidence(confidence)
  if (kind === 'independent') {
    const a = first.scored()
    const b = second.scored()
    return newcombe(a.bad, a.n, b.bad, b.n, level)
  }
  const counts = pairedCounts(first, second)
  if (kind === 'sequential') return pairedConfidenceSequence(counts, level)
  return pairedDifference({ n11: counts.n11, n12: counts.worse, n21: counts.better, n22: counts.n22 }, level)
}

/**
 * One-sided p-value of "P(bad | arm) < P(bad | baseline)" at a fixed number of rollouts: the test
 * {@link pairedDifference} inverts on the pairs (a one-sided McNemar-type score test, or the paired
 * e-value when most pairs are discordant) or Newcombe's interval inverted. Each rejects at level α exactly when the upper end of the matching
 * {@link compareArms} interval at confidence 1 − α lies below 0.
 */
export function fixedRescuePValue(kind: 'paired' | 'independent', arm: Arm, baseline: Arm): number {
  if (kind === 'independent') {
    const a = arm.scored()
    const b = baseline.scored()
    return independentScoreTestOneSided(a.bad, a.n, b.bad, b.n)
  }
  const counts = pairedCounts(arm, baseline)
  return pairedDifferenceTestOneSided({
    n11: counts.n11,
    n12: counts.worse,
    n21: counts.better,
    n22: counts.n22,
  })
}

/**
 * ln of the e-value for "resampling rescues" after the pairs seen so far: the paired betting
 * e-process against H0: P(bad | arm) ≥ P(bad | baseline). 1 / (its running maximum) is an
 * anytime-valid p-value.
 */
export function rescueLogEValue(arm: Arm, baseline: Arm): number {
  return logEValueBelow(pairedCounts(arm, baseline), 0)
}

/**
 * A sequential arm's effect interval while it samples: the running intersection, over the looks
 * so far, of its paired confidence sequence against the reference arm. Starts at [−1, 1].
 */
export interface RunningEffectBounds {
  low: number
  high: number
}

/** The bounds of an arm before its first look: every effect is possible. */
export function unboundedEffect(): RunningEffectBounds {
  return { low: -1, high: 1 }
}

/**
 * Intersects `bounds` with the arm's paired confidence sequence at this look, each end one-sided
 * at 1 − `confidence` (the two-sided level of {@link effectIntervalConfidence}), the upper end at
 * `upperShare` of that where fixed-sample tests of the same arm take the rest of the rescue
 * test's level. Why intersect: the rescue test uses the e-process's running maximum, and the
 * upper end of the running intersection is below 0 exactly when that maximum reached the
 * threshold at some look, so the interval printed at the end agrees with the test however the
 * pairs drifted after it. A confidence sequence holds at every look at once, so its running
 * intersection holds at the same level (Howard, Ramdas, McAuliffe & Sekhon 2021, §3).
 */
export function intersectLook(
  bounds: RunningEffectBounds,
  arm: Arm,
  reference: Arm,
  confidence: number,
  upperShare = 1,
): void {
  const alpha = 1 - confidence
  const look = pairedConfidenceBounds(pairedCounts(arm, reference), alpha, upperShare * alpha)
  bounds.low = Math.max(bounds.low, look.low)
  bounds.high = Math.min(bounds.high, look.high)
}

/**
 * The upper end of an interval that excludes 0, for an arm whose rescue test rejected: the
 * largest number below 0. The confidence set of a test family that rejects H0: effect ≥ d for
 * every d ≥ 0 is open at 0, and its end is stored as a number just below it.
 */
export const BELOW_ZERO = -Number.MIN_VALUE

/**
 * The reported effect of a sequential arm: P(bad | arm) − P(bad | reference) with the running
 * intersection of its confidence sequence ({@link intersectLook}) at the two-sided level of
 * {@link effectIntervalConfidence}(confidence).
 *
 * `rejectsBelowZero`: true when a test of this arm at its own unadjusted level (the e-process's
 * running maximum, or a fixed-sample sign test at its share) rejected H0: effect ≥ 0. The upper end
 * is then capped below 0 ({@link BELOW_ZERO}). Why this keeps the level: with the e-process's
 * bound at share s_e of α and sign tests at shares s_i (s_e + Σ s_i = 1), the upper end misses an
 * effect d only if the e-process's bound does (≤ s_e·α) or, for d ≥ 0, a sign test rejected a
 * true H0: effect ≥ 0 (≤ Σ s_i·α): a Bonferroni inversion of the tests the decision uses.
 *
 * The point is the observed mean of the pairs. The intersection may exclude it when the pairs
 * drifted after an early, tight look; it is then moved to the nearer end, so the interval always
 * contains its point. An empty intersection, which can only happen when the sequence missed at
 * some look, is reported as its upper end alone.
 */
export function sequentialEffect(
  arm: Arm,
  reference: Arm,
  confidence: number,
  bounds: RunningEffectBounds,
  rejectsBelowZero: boolean,
): Interval {
  const counts = pairedCounts(arm, reference)
  const total = counts.worse + counts.better + counts.same
  const observed = total === 0 ? 0 : (counts.worse - counts.better) / total
  const high = rejectsBelowZero ? Math.min(bounds.high, BELOW_ZERO) : bounds.high
  const low = Math.min(bounds.low, high)
  return {
    point: Math.min(Math.max(observed, low), high),
    low,
    high,
    confidence: effectIntervalConfidence(confidence),
    method: 'confidence-sequence',
  }
}
