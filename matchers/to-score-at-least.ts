import type { MatcherState } from 'vitest'
import type { TrajectoryScorer } from '../src/trajectory/score-result.js'
import type { ScoreOptions } from '../src/verdict/options.js'
import { runScoreMatcher, type MatcherOutcome } from '../src/vitest/run-matcher.js'

/**
 * `await expect(agent).toScoreAtLeast(scorer, 0.8, { range = [0, 1] })`: the mean score over
 * rollouts is at least the threshold, at `confidence`, by an anytime-valid betting test that stops
 * at its first decision. A failure attributes the lowest-scoring rollout whose score is below it.
 */
export function toScoreAtLeast(
  this: MatcherState,
  received: unknown,
  scorer: TrajectoryScorer,
  threshold: number,
  options?: ScoreOptions,
): Promise<MatcherOutcome> {
  return runScoreMatcher(this, 'toScoreAtLeast', received, scorer, threshold, options)
}
