// The types of the rate matchers on Vitest's `expect(...)`. A type-only module, so that the root
// (which runs without Vitest), the plugin and the setup file can all bring the augmentation below
// into a program without loading anything of Vitest at run time.
import type { PredicateFor, ScorerFor } from '../check/claims.js'
import type { Predicate } from '../trajectory/queries.js'
import type { TrajectoryScorer } from '../trajectory/score-result.js'
import type {
  BaselineOptions,
  NoWorseThanOptions,
  RarelyOptions,
  ScoreOptions,
  UsuallyOptions,
  ZeroToleranceOptions,
} from '../verdict/options.js'

/**
 * The rate matchers on `expect(received)`, added to Vitest's `Matchers` by this package (importing
 * the package root, `/plugin` or `/matchers` is enough). On an `Agent<I, O>` or a `Scenario<I, O>`
 * the predicate sees `t.input` as `I` and `t.output` as `O | undefined`; a predicate on any JSON
 * trajectory (`(t: Trajectory) => …`, `calledTool(…)`) fits every agent.
 */
export interface RateMatchers<T = unknown> {
  /**
   * The predicate (a bad outcome) holds in at most `atMost` (default 5%) of rollouts, at
   * `confidence` (default 95%). Runs rollouts: always `await` it.
   */
  toRarely(predicate: PredicateFor<T>, options?: RarelyOptions): Promise<void>
  toRarely(predicate: Predicate, options?: RarelyOptions): Promise<void>
  /** The predicate (a good outcome) holds in at least `atLeast` (default 95%) of rollouts. Always `await` it. */
  toUsually(predicate: PredicateFor<T>, options?: UsuallyOptions): Promise<void>
  toUsually(predicate: Predicate, options?: UsuallyOptions): Promise<void>
  /** The predicate holds in none of `rollouts` (default 100) rollouts. Always `await` it. */
  toNever(predicate: PredicateFor<T>, options?: ZeroToleranceOptions): Promise<void>
  toNever(predicate: Predicate, options?: ZeroToleranceOptions): Promise<void>
  /** The predicate holds in all of `rollouts` (default 100) rollouts. Always `await` it. */
  toAlways(predicate: PredicateFor<T>, options?: ZeroToleranceOptions): Promise<void>
  toAlways(predicate: Predicate, options?: ZeroToleranceOptions): Promise<void>
  /** The predicate's rate is not significantly worse than its stored baseline; `vitest -u` rewrites it. Always `await` it. */
  toMatchRateBaseline(predicate: PredicateFor<T>, options?: BaselineOptions): Promise<void>
  toMatchRateBaseline(predicate: Predicate, options?: BaselineOptions): Promise<void>
  /**
   * The mean of `scorer` over rollouts is at least `threshold`, at `confidence` (default 95%), by an
   * anytime-valid betting test. Scores in [0, 1] unless `range: [min, max]` says otherwise. Always `await` it.
   */
  toScoreAtLeast(scorer: ScorerFor<T>, threshold: number, options?: ScoreOptions): Promise<void>
  toScoreAtLeast(scorer: TrajectoryScorer, threshold: number, options?: ScoreOptions): Promise<void>
  /** The mean of `scorer` over rollouts is at most `threshold` (a toxicity, a cost). Always `await` it. */
  toScoreAtMost(scorer: ScorerFor<T>, threshold: number, options?: ScoreOptions): Promise<void>
  toScoreAtMost(scorer: TrajectoryScorer, threshold: number, options?: ScoreOptions): Promise<void>
  /**
   * A/B: this agent's rate of the bad outcome is no worse than `baseline`'s by more than `margin`
   * (default 0), both run on the same seed and compared rollout by rollout. Always `await` it.
   */
  toBeNoWorseThan(baseline: unknown, predicate: PredicateFor<T>, options?: NoWorseThanOptions): Promise<void>
  toBeNoWorseThan(baseline: unknown, predicate: Predicate, options?: NoWorseThanOptions): Promise<void>
}

// The augmentation itself. The root's declarations reference this module, and the root is also
// used where Vitest is not installed. That is harmless even without `skipLibCheck`: in a .d.ts (an
// ambient context) TypeScript skips an augmentation of a module it cannot find, without error
// (TS2664 is reported only for augmentations in .ts sources), so there the block merges into
// nothing. A `/// <reference types="vitest" />` instead would be an error without Vitest.
declare module 'vitest' {
  // The type parameter must match Vitest's declaration for the interfaces to merge.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends RateMatchers<T> {}
}
