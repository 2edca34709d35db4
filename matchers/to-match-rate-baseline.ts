import type { MatcherState } from 'vitest'
import type { Predicate } from '../src/trajectory/queries.js'
import type { BaselineOptions } from '../src/verdict/options.js'
import { runMatcher, type MatcherOutcome } from '../src/vitest/run-matcher.js'

/**
 * `await expect(agent).toMatchRateBaseline(pred, { name?, tolerance = 0 })`: the predicate's rate is not
 * significantly worse than the one stored in `__baselines__/<test file>.rates.json` (Newcombe
 * interval of the difference). A missing entry is recorded (in CI it fails); `vitest -u` rewrites it.
 */
export function toMatchRateBaseline(
  this: MatcherState,
  received: unknown,
  predicate: Predicate,
  options?: BaselineOptions,
): Promise<MatcherOutcome> {
  return runMatcher(this, 'toMatchRateBaseline', received, predicate, options)
}
