import type { MatcherState } from 'vitest'
import type { Predicate } from '../src/trajectory/queries.js'
import type { UsuallyOptions } from '../src/verdict/options.js'
import { runMatcher, type MatcherOutcome } from '../src/vitest/run-matcher.js'

/**
 * `await expect(agent).toUsually(pred, { atLeast = 0.95 })`: the predicate (a good outcome) holds in at
 * least `atLeast` of rollouts, at `confidence`. Sequential like `toRarely`; a failure attributes the
 * first rollout where the predicate did not hold.
 */
export function toUsually(
  this: MatcherState,
  received: unknown,
  predicate: Predicate,
  options?: UsuallyOptions,
): Promise<MatcherOutcome> {
  return runMatcher(this, 'toUsually', received, predicate, options)
}
