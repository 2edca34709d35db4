import type { MatcherState } from 'vitest'
import type { Predicate } from '../src/trajectory/queries.js'
import type { NoWorseThanOptions } from '../src/verdict/options.js'
import { runMatcher, type MatcherOutcome } from '../src/vitest/run-matcher.js'

/**
 * `await expect(candidate).toBeNoWorseThan(baseline, pred, { margin = 0 })`: the candidate's rate of
 * the bad outcome `pred` exceeds the baseline agent's by less than `margin`, at `confidence`. Both
 * agents run on the same seed and are paired by rollout index; the paired anytime-valid test stops
 * as soon as it decides, inconclusive (a failure) when `maxRollouts` is spent first. A failure
 * attributes the first rollout where the candidate was bad and the baseline was not.
 */
export function toBeNoWorseThan(
  this: MatcherState,
  received: unknown,
  baseline: unknown,
  predicate: Predicate,
  options?: NoWorseThanOptions,
): Promise<MatcherOutcome> {
  return runMatcher(this, 'toBeNoWorseThan', received, predicate, options, baseline)
}
