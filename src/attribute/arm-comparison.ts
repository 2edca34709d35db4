import {
  independentScoreTestOneSided,
  newcombe,
  pairedDifference,
  pairedDifferenceTestOneSided,
  type Interval,
  type IntervalMethod,
} from '../stats/index.js'
import { pairedCounts, type Arm } from './replay-arms.js'
import { logEValueBelow, pairedConfidenceSequence } from '../stats/paired-confidence-sequence.js'

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
