import { z } from 'zod'
import type { AgentOrScenario } from '../../agent/define-agent.js'
import { DEFAULTS } from '../../options/defaults.js'
import { BooleanField, expecting, oneOf, PositiveIntegerField } from '../../options/fields.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import type { Trajectory } from '../../trajectory/schema.js'
import { attributionFields, resolveAttributionOptions, type ResolvedAttributionOptions } from '../options.js'

/** Which steps contrastive attribution evaluates. */
export type ContrastiveSearch = 'linear' | 'binary' | 'auto'

/** Above this many steps, `search: 'auto'` uses binary search. */
export const BINARY_SEARCH_ABOVE = 12

/** The `search` option (also priced by `estimateRollouts`). */
export const SearchField = oneOf(['linear', 'binary', 'auto'])

/**
 * How the paired arms of an attribution sample (contrastive and context attribution alike): how
 * many rollouts an arm may run, whether arms share random numbers and whether they stop early.
 */
export const armSamplingFields = {
  /**
   * Default 32. The most rollouts per arm (the baseline and each resampled step, or the intact arm,
   * each part and each refinement probe); sequential arms stop sooner. A sequential binary search
   * may extend the undecided probe right after its latest rescue (and the baseline with it) to
   * twice this; a run that does spends at most n × `rollouts`.
   */
  rollouts: PositiveIntegerField.default(DEFAULTS.contrastiveRollouts),
  /**
   * Default true. Common random numbers: every arm replays with the same seed and rollout indices,
   * so rollout r of each arm draws later step j from the same stream (r, j) and arms are compared
   * pair by pair. False gives each arm its own seed (independent arms, Newcombe intervals).
   */
  crn: BooleanField.default(DEFAULTS.crn),
  /**
   * Default true. Rollouts come in batches of `batchSize` per arm, and an arm stops once its
   * anytime-valid tests decide (a rescue, a worsening, or no effect of `minEffect` or more). False spends
   * exactly `rollouts` per evaluated arm and uses fixed-sample intervals (Tango or Newcombe).
   */
  sequential: BooleanField.default(DEFAULTS.sequential),
}

/** The sequential stop rules of paired arms (contrastive and context attribution). */
export const armStopFields = {
  /**
   * Default 0.25. Sequential only: an arm stops as negligible once its anytime-valid tests rule
   * out an effect of this size in either direction (P(bad) changed by `minEffect` or more against
   * the reference arm). A step that rescues by `minEffect` or more is stopped this way with
   * probability ≤ 1 − confidence. Smaller values detect weaker rescues and spend more rollouts on
   * steps that cannot rescue.
   */
  minEffect: expecting(
    z.number().gt(0).lte(1),
    `a change of P(bad) in (0, 1], e.g. ${DEFAULTS.minEffect}`,
  ).default(DEFAULTS.minEffect),
  /** Default 4. Sequential only: rollouts per arm between two looks at the data. */
  batchSize: PositiveIntegerField.default(DEFAULTS.batchSize),
}

/** The arm-sampling options, parsed. */
export type ArmSampling = z.output<StrictOptions<typeof armSamplingFields & typeof armStopFields>>

/** Every arm-sampling option at its default: what the matchers' attribution runs with. */
export const ARM_SAMPLING_DEFAULTS: ArmSampling = z
  .strictObject({ ...armSamplingFields, ...armStopFields })
  .parse({})

const searchField = {
  /**
   * Default `'auto'`: `'binary'` above 12 steps, else `'linear'`. `'linear'` evaluates every step;
   * `'binary'` assumes P(bad | resample(k)) does not decrease in k (true of typical runs: resampling
   * an earlier step also redraws every later one) and finds the latest rescuing step with
   * O(log n) step evaluations — a few more when a probe ends undecided at its cap (a noisy replay)
   * and the search comes back to the steps it skipped.
   */
  search: SearchField.default(DEFAULTS.search),
}
// Annotated with the fragments' types so that their doc comments reach the emitted `.d.ts`.
const contrastiveFields: typeof attributionFields &
  typeof armSamplingFields &
  typeof searchField &
  typeof armStopFields = { ...attributionFields, ...armSamplingFields, ...searchField, ...armStopFields }
const ContrastiveOptionsSchema: StrictOptions<typeof contrastiveFields> = z.strictObject(contrastiveFields)

/** Options of `contrastive`. */
export type ContrastiveOptions = z.input<typeof ContrastiveOptionsSchema>

/** {@link ContrastiveOptions} checked, with every default filled in and the search chosen. */
export type ResolvedContrastiveOptions = Omit<z.output<typeof ContrastiveOptionsSchema>, 'search'> &
  ResolvedAttributionOptions & { search: 'linear' | 'binary' }

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
    search: searchFor(factual.steps.length, parsed.search),
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
