import { z } from 'zod'
import type { AgentOrScenario } from '../../agent/define-agent.js'
import { DEFAULTS } from '../../options/defaults.js'
import { oneOf } from '../../options/fields.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import type { Trajectory } from '../../trajectory/schema.js'
import { armSamplingFields, armStopFields } from '../arms/arm-options.js'
import { attributionFields, resolveAttributionOptions, type ResolvedAttributionOptions } from '../options.js'

/** Which steps contrastive attribution evaluates. */
export type ContrastiveSearch = 'linear' | 'binary' | 'auto'

/** Above this many steps, `search: 'auto'` uses binary search. */
export const BINARY_SEARCH_ABOVE = 12

/** The `search` option (also priced by `estimateRollouts`). */
export const SearchField = oneOf(['linear', 'binary', 'auto'])

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
