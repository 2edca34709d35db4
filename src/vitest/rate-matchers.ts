// The types of the rate matchers on Vitest's `expect(...)`. A type-only module, so that the root
// (which runs without Vitest), the plugin and the setup file can all bring the augmentation below
// into a program without loading anything of Vitest at run time.
import type { PredicateFor, ScorerFor } from '../check/claims.js'
import type { Predicate } from '../trajectory/queries.js'
import type { TrajectoryScorer } from '../trajectory/score-result.js'
import type { CLAIMS, ClaimArguments, ClaimKind, ClaimOptionTypes } from '../verdict/claim-table.js'

/**
 * The rate matchers on `expect(received)`, added to Vitest's `Matchers` by this package (importing
 * the package root, `/plugin` or `/matchers` is enough); one per claim, made from the claims table.
 * Each runs rollouts: always `await` it.
 *
 * - `toRarely(pred, { atMost = 0.05 })`, `toUsually(pred, { atLeast = 0.95 })`: the predicate's
 *   rate is at most / at least the bound, at `confidence` (default 95%);
 * - `toNever(pred)`, `toAlways(pred)`: the predicate holds in none / all of `rollouts` (default 100);
 * - `toMatchRateBaseline(pred)`: the rate is not significantly worse than its stored baseline
 *   (`vitest -u` rewrites it);
 * - `toBeNoWorseThan(baseline, pred, { margin = 0 })`: A/B, this agent's rate of the bad outcome is
 *   no worse than `baseline`'s by more than `margin`, both run on the same seed, rollout by rollout;
 * - `toScoreAtLeast(scorer, threshold)`, `toScoreAtMost(scorer, threshold)`: the mean score is at
 *   least / at most the threshold, by an anytime-valid betting test (scores in [0, 1] unless
 *   `range: [min, max]` says otherwise).
 *
 * On an `Agent<I, O>` or a `Scenario<I, O>` the predicate sees `t.input` as `I` and `t.output` as
 * `O | undefined`; a predicate on any JSON trajectory (`(t: Trajectory) => …`, `calledTool(…)`)
 * fits every agent.
 */
export type RateMatchers<T = unknown> = {
  [K in ClaimKind as (typeof CLAIMS)[K]['matcher']]: MatcherSignature<
    T,
    (typeof CLAIMS)[K]['takes'],
    ClaimOptionTypes[K]['matcher']
  >
}

/**
 * A matcher's call: the arguments its claim takes, typed for the received agent first, then for any
 * JSON trajectory (two overloads, as an intersection).
 */
export type MatcherSignature<T, Takes extends ClaimArguments, Options> = Takes extends 'predicate'
  ? ((predicate: PredicateFor<T>, options?: Options) => Promise<void>) &
      ((predicate: Predicate, options?: Options) => Promise<void>)
  : Takes extends 'baseline, predicate'
    ? ((baseline: unknown, predicate: PredicateFor<T>, options?: Options) => Promise<void>) &
        ((baseline: unknown, predicate: Predicate, options?: Options) => Promise<void>)
    : ((scorer: ScorerFor<T>, threshold: number, options?: Options) => Promise<void>) &
        ((scorer: TrajectoryScorer, threshold: number, options?: Options) => Promise<void>)

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
