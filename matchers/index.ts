// The setup file of vitest-causal-replay: `setupFiles: ['vitest-causal-replay/matchers']` (the
// plugin adds it). It registers the rate matchers and types them on `expect(...)`.
import { expect } from 'vitest'
import type { Predicate } from '../src/trajectory/queries.js'
import type {
  BaselineOptions,
  RarelyOptions,
  UsuallyOptions,
  ZeroToleranceOptions,
} from '../src/verdict/options.js'
import { toAlways } from './to-always.js'
import { toMatchRateBaseline } from './to-match-rate-baseline.js'
import { toNever } from './to-never.js'
import { toRarely } from './to-rarely.js'
import { toUsually } from './to-usually.js'

expect.extend({ toRarely, toUsually, toNever, toAlways, toMatchRateBaseline })

declare module 'vitest' {
  // The type parameter must match Vitest's declaration for the interfaces to merge.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars
  interface Matchers<T = any> {
    /**
     * The predicate (a bad outcome) holds in at most `atMost` (default 5%) of rollouts, at
     * `confidence` (default 95%). Runs rollouts: always `await` it.
     */
    toRarely(predicate: Predicate, options?: RarelyOptions): Promise<void>
    /** The predicate (a good outcome) holds in at least `atLeast` (default 95%) of rollouts. Always `await` it. */
    toUsually(predicate: Predicate, options?: UsuallyOptions): Promise<void>
    /** The predicate holds in none of `rollouts` (default 100) rollouts. Always `await` it. */
    toNever(predicate: Predicate, options?: ZeroToleranceOptions): Promise<void>
    /** The predicate holds in all of `rollouts` (default 100) rollouts. Always `await` it. */
    toAlways(predicate: Predicate, options?: ZeroToleranceOptions): Promise<void>
    /** The predicate's rate is not significantly worse than its stored baseline; `vitest -u` rewrites it. Always `await` it. */
    toMatchRateBaseline(predicate: Predicate, options?: BaselineOptions): Promise<void>
  }
}

export type {
  AttributeOptions,
  BaselineOptions,
  CommonMatcherOptions,
  RarelyOptions,
  SequentialGateOptions,
  UsuallyOptions,
  ZeroToleranceOptions,
} from '../src/verdict/options.js'
