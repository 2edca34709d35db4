import type { AgentOrScenario } from '../agent/define-agent.js'
import { InvalidOptionError } from '../errors.js'
import type { Trajectory } from '../trajectory/schema.js'
import {
  booleanOption,
  enumOption,
  positiveIntegerOption,
  resolveAttributionOptions,
  type AttributionOptions,
  type ResolvedAttributionOptions,
} from './options.js'

/** Which steps contrastive attribution evaluates. */
export type ContrastiveSearch = 'linear' | 'binary' | 'auto'

/** Options of `contrastive`. */
export interface ContrastiveOptions extends AttributionOptions {
  /** Default 32. The most rollouts per arm (the baseline and each resampled step); sequential arms stop sooner. */
  rollouts?: number
  /**
   * Default true. Common random numbers: every arm replays with the same seed and rollout indices,
   * so rollout r of each arm draws later step j from the same stream (r, j) and arms are compared
   * pair by pair. False gives each arm its own seed (independent arms, Newcombe intervals).
   */
  crn?: boolean
  /**
   * Default true. Rollouts come in batches of `batchSize` per arm, and an arm stops once its
   * anytime-valid tests decide (a rescue, a worsening, or no effect of `minEffect` or more). False spends
   * exactly `rollouts` per evaluated arm and uses fixed-sample intervals (Tango or Newcombe).
   */
  sequential?: boolean
  /**
   * Default `'auto'`: `'binary'` above 12 steps, else `'linear'`. `'linear'` evaluates every step;
   * `'binary'` assumes P(bad | resample(k)) does not decrease in k (true of typical runs: resampling
   * an earlier step also redraws every later one) and finds the latest rescuing step with
   * O(log n) step evaluations.
   */
  search?: ContrastiveSearch
  /**
   * Default 0.25. Sequential only: an arm stops as negligible once its anytime-valid tests rule
   * out an effect of this size in either direction (P(bad) changed by `minEffect` or more against
   * the baseline). A step that rescues by `minEffect` or more is stopped this way with probability
   * ≤ 1 − confidence. Smaller values detect weaker rescues and spend more rollouts on steps that
   * cannot rescue.
   */
  minEffect?: number
  /** Default 4. Sequential only: rollouts per arm between two looks at the data. */
  batchSize?: number
}

/** Above this many steps, `search: 'auto'` uses binary search. */
export const BINARY_SEARCH_ABOVE = 12

/** {@link ContrastiveOptions} checked, with every default filled in. */
export interface ResolvedContrastiveOptions extends ResolvedAttributionOptions {
  rollouts: number
  crn: boolean
  sequential: boolean
  search: 'linear' | 'binary'
  minEffect: number
  batchSize: number
}

/** Resolves the options of `contrastive` once, naming any option it cannot use. */
export function resolveContrastiveOptions(
  target: AgentOrScenario,
  factual: Trajectory,
  options: ContrastiveOptions,
): ResolvedContrastiveOptions {
  const caller = 'contrastive'
  const shared = resolveAttributionOptions(caller, target, factual, options)
  const minEffect = options.minEffect ?? 0.25
  if (!(minEffect > 0 && minEffect <= 1)) {
    throw new InvalidOptionError(
      `${caller}: \`minEffect\` must be in (0, 1], e.g. 0.25, got ${String(minEffect)}.`,
    )
  }
  return {
    ...shared,
    rollouts: positiveIntegerOption(caller, 'rollouts', options.rollouts ?? 32),
    crn: booleanOption(caller, 'crn', options.crn ?? true),
    sequential: booleanOption(caller, 'sequential', options.sequential ?? true),
    search: searchFor(factual.steps.length, enumOption(caller, 'search', options.search ?? 'auto', SEARCHES)),
    minEffect,
    batchSize: positiveIntegerOption(caller, 'batchSize', options.batchSize ?? 4),
  }
}

const SEARCHES: readonly ContrastiveSearch[] = ['linear', 'binary', 'auto']

/** The search that runs on a trajectory of `steps` steps. */
export function searchFor(steps: number, search: ContrastiveSearch): 'linear' | 'binary' {
  if (search !== 'auto') return search
  return steps > BINARY_SEARCH_ABOVE ? 'binary' : 'linear'
}

/** The most step evaluations a binary search over `steps` steps makes before any Holm re-opening. */
export function binarySearchEvaluations(steps: number): number {
  return Math.ceil(Math.log2(steps + 1))
}
