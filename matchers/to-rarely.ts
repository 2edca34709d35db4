import type { MatcherState } from 'vitest'
import type { Predicate } from '../src/trajectory/queries.js'
import type { RarelyOptions } from '../src/verdict/options.js'
import { runMatcher, type MatcherOutcome } from '../src/vitest/run-matcher.js'

/**
 * `await expect(agent).toRarely(pred, { atMost = 0.05 })`: the predicate (a bad outcome) holds in at most
 * `atMost` of rollouts, at `confidence`. Sequential: stops as soon as the anytime-valid test
 * decides, inconclusive (a failure by default) when `maxRollouts` is spent first. A failure
 * attributes the first bad rollout and names the causal locus.
 */
export function toRarely(
  this: MatcherState,
  received: unknown,
  predicate: Predicate,
  options?: RarelyOptions,
): Promise<MatcherOutcome> {
  return runMatcher(this, 'toRarely', received, predicate, options)
}
