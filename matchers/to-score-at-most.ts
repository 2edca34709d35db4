import type { MatcherState } from 'vitest'
import type { TrajectoryScorer } from '../src/trajectory/score-result.js'
import type { ScoreOptions } from '../src/verdict/options.js'
import { runScoreMatcher, type MatcherOutcome } from '../src/vitest/run-matcher.js'

/**
 * `await expect(agent).toScoreAtMost(scorer, 0.2, { range = [0, 1] })`: the mean score over
 * rollouts is at most the threshold (a toxicity, a cost), at `confidence`. A failure attributes the
 * highest-scoring rollout whose score is above it.
 */
export function toScoreAtMost(
  this: MatcherState,
  received: unknown,
  scorer: TrajectoryScorer,
  threshold: number,
  options?: ScoreOptions,
): Promise<MatcherOutcome> {
  return runScoreMatcher(this, 'toScoreAtMost', received, scorer, threshold, options)
}
