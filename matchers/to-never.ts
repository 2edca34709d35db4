import type { MatcherState } from 'vitest'
import type { Predicate } from '../src/trajectory/queries.js'
import type { ZeroToleranceOptions } from '../src/verdict/options.js'
import { runMatcher, type MatcherOutcome } from '../src/vitest/run-matcher.js'

/**
 * `await expect(agent).toNever(pred, { rollouts = 100 })`: the predicate holds in none of `rollouts`
 * rollouts. The first occurrence stops the run and fails it, with attribution; a pass reports the
 * exact one-sided upper bound zero in N gives (3.0% for 100 rollouts at 95%).
 */
export function toNever(
  this: MatcherState,
  received: unknown,
  predicate: Predicate,
  options?: ZeroToleranceOptions,
): Promise<MatcherOutcome> {
  return runMatcher(this, 'toNever', received, predicate, options)
}
