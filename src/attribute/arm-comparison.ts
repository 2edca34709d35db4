import {
  independentScoreTestOneSided,
  newcombe,
  pairedScoreTestOneSided,
  tango,
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
 * - `paired`: fixed K under CRN, Tango's score interval and test on the 2 × 2 table of pairs;
 * - `independent`: fixed K with a seed per arm, Newcombe's interval and its inverted test.
 */
export type ComparisonKind = 'sequential' | 'paired' | 'independent'

/** The comparison an attribution uses, from its `crn` and `sequential` options. */
export function comparisonKind(crn: boolean, sequential: boolean): ComparisonKind {
  return sequential ? 'sequential' : crn ? 'paired' : 'independent'
}

/** The interval method behind {@link compareArms}. */
export function comparisonMethod(kind: ComparisonKind): IntervalMethod {
  return kind === 'sequential' ? 'confidence-sequence' : kind === 'paired' ? 'tango' : 'newcombe'
}

/**
 * P(bad | first) − P(bad | second) with its interval at `confidence`. Paired comparisons count only
 * rollout indices that both arms scored: a pair with an error outcome on either side is left out.
 */
export function compareArms(kind: ComparisonKind, first: Arm, second: Arm, confidence: number): Interval {
  if (kind === 'independent') {
    const a = first.scored()
    const b = second.scored()
    return newcombe(a.bad, a.n, b.bad, b.n, confidence)
  }
  const counts = pairedCounts(first, second)
  if (kind === 'sequential') return pairedConfidenceSequence(counts, confidence)
  return tango({ n11: counts.n11, n12: counts.worse, n21: counts.better, n22: counts.n22 }, confidence)
}

/**
 * One-sided p-value of "P(bad | arm) < P(bad | baseline)" at a fixed number of rollouts: Tango's
 * score test on the pairs (the one-sided McNemar score test) or Newcombe's interval inverted.
 */
export function fixedRescuePValue(kind: 'paired' | 'independent', arm: Arm, baseline: Arm): number {
  if (kind === 'independent') {
    const a = arm.scored()
    const b = baseline.scored()
    return independentScoreTestOneSided(a.bad, a.n, b.bad, b.n)
  }
  const counts = pairedCounts(arm, baseline)
  return pairedScoreTestOneSided({ n11: counts.n11, n12: counts.worse, n21: counts.better, n22: counts.n22 })
}

/**
 * ln of the e-value for "resampling rescues" after the pairs seen so far: the paired betting
 * e-process against H0: P(bad | arm) ≥ P(bad | baseline). 1 / (its running maximum) is an
 * anytime-valid p-value.
 */
export function rescueLogEValue(arm: Arm, baseline: Arm): number {
  return logEValueBelow(pairedCounts(arm, baseline), 0)
}
