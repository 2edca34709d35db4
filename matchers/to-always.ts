import type { MatcherState } from 'vitest'
import type { Predicate } from '../src/trajectory/queries.js'
import type { ZeroToleranceOptions } from '../src/verdict/options.js'
import { runMatcher, type MatcherOutcome } from '../src/vitest/run-matcher.js'

/**
 * `await expect(agent).toAlways(pred, { rollouts = 100 })`: the predicate holds in every one of
 * `rollouts` rollouts. The first miss stops the run and fails it, with attribution; a pass reports
 * the exact one-sided lower bound on the rate.
 */
export function toAlways(
  this: MatcherState,
  received: unknown,
  predicate: Predicate,
  options?: ZeroToleranceOptions,
): Promise<MatcherOutcome> {
  return runMatcher(this, 'toAlways', received, predicate, options)
}
