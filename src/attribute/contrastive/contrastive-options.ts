import { z } from 'zod'
import type { AgentOrScenario } from '../../agent/define-agent.js'
import { DEFAULTS } from '../../options/defaults.js'
import { BooleanField, expecting, oneOf, PositiveIntegerField } from '../../options/fields.js'
import { parseOptions, type DescribesSchema } from '../../options/parse-options.js'
import type { Trajectory } from '../../trajectory/schema.js'
import {
  attributionFields,
  resolveAttributionOptions,
  type AttributionOptions,
  type ResolvedAttributionOptions,
} from '../options.js'

/** Which steps contrastive attribution evaluates. */
export type ContrastiveSearch = 'linear' | 'binary' | 'auto'

/** Options of `contrastive`. */
export interface ContrastiveOptions extends AttributionOptions {
  /**
   * Default 32. The most rollouts per arm (the baseline and each resampled step); sequential arms
   * stop sooner. A sequential binary search may extend the undecided probe right after its latest
   * rescue (and the baseline with it) to twice this; a run that does spends at most n × `rollouts`.
   */
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
   * O(log n) step evaluations — a few more when a probe ends undecided at its cap (a noisy replay)
   * and the search comes back to the steps it skipped.
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

/** The `search` option (also priced by `estimateRollouts`). */
export const SearchField = oneOf(['linear', 'binary', 'auto'])

const ContrastiveOptionsSchema = z.strictObject({
  ...attributionFields,
  rollouts: PositiveIntegerField.default(DEFAULTS.contrastiveRollouts),
  crn: BooleanField.default(DEFAULTS.crn),
  sequential: BooleanField.default(DEFAULTS.sequential),
  search: SearchField.default(DEFAULTS.search),
  minEffect: expecting(
    z.number().gt(0).lte(1),
    `a change of P(bad) in (0, 1], e.g. ${DEFAULTS.minEffect}`,
  ).default(DEFAULTS.minEffect),
  batchSize: PositiveIntegerField.default(DEFAULTS.batchSize),
})
const _sameOptions: DescribesSchema<ContrastiveOptions, typeof ContrastiveOptionsSchema> = true

/** Resolves the options of `contrastive` once, naming any option it cannot use. */
export function resolveContrastiveOptions(
  target: AgentOrScenario,
  factual: Trajectory,
  options: ContrastiveOptions,
): ResolvedContrastiveOptions {
  const caller = 'contrastive'
  const parsed = parseOptions(caller, ContrastiveOptionsSchema, options)
  return {
    ...resolveAttributionOptions(caller, target, factual, parsed),
    rollouts: parsed.rollouts,
    crn: parsed.crn,
    sequential: parsed.sequential,
    search: searchFor(factual.steps.length, parsed.search),
    minEffect: parsed.minEffect,
    batchSize: parsed.batchSize,
  }
}

/** The search that runs on a trajectory of `steps` steps. */
export function searchFor(steps: number, search: ContrastiveSearch): 'linear' | 'binary' {
  if (search !== 'auto') return search
  return steps > BINARY_SEARCH_ABOVE ? 'binary' : 'linear'
}

/** The most step evaluations a binary search over `steps` steps makes before any Holm re-opening. */
export function binarySearchEvaluations(steps: number): number {
  return Math.ceil(Math.log2(steps + 1))
}
