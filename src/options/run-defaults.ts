import { DEFAULTS } from './defaults.js'
import { ConfidenceField, PositiveIntegerField } from './fields.js'

/**
 * The options a run (the plugin, or the environment) may set for every claim, and a claim may set
 * for itself: declared once here, the plugin's defaults schema is built from all of them and each
 * claim's schema spreads the ones it takes (in this order, the plugin's, which its
 * messages list). None has a default in the schema: the claim's value,
 * else the run's, else the built-in one is chosen by {@link layered} when the claim is checked.
 */
export const runDefaultFields = {
  /**
   * Default 0.95 (a claim's own wins over the plugin's). The confidence of the verdict: a wrong
   * pass (or a wrong fail) happens with probability at most 1 − confidence, however early sampling
   * stops.
   */
  confidence: ConfidenceField.optional(),
  /**
   * Default 400 (a claim's own wins over the plugin's). The most rollouts a gate that samples until its
   * test decides may run (of each agent, for a comparison). The sequential test stops as soon as
   * it decides: an agent that never fails passes a "≤ 5%" gate after 72 rollouts, one that fails
   * 60% of the time fails after 8–16; one at 2% passes within 400 about three times in four. Past
   * the maximum an undecided gate is inconclusive.
   */
  maxRollouts: PositiveIntegerField.optional(),
  /**
   * Default 8 (a claim's own wins over the plugin's). Rollouts in flight at once; also the batch
   * size of sequential gates.
   */
  concurrency: PositiveIntegerField.optional(),
}

/** The options a run may set for every claim, each of them optional. */
export type RunDefaultFields = typeof runDefaultFields

/** The name of an option a claim takes from the run when it sets none. */
export type RunDefaultKey = keyof RunDefaultFields

/** Values of the run defaults, any of them missing: a claim's own, or the run's. */
export type RunDefaultValues = { readonly [Key in RunDefaultKey]?: number | undefined }

/**
 * The value of `key` for a claim checked in a run: the claim's own, else the run's default, else
 * the built-in one (`DEFAULTS`). The one place the layers meet.
 */
export function layered(key: RunDefaultKey, claim: RunDefaultValues, run: RunDefaultValues): number {
  return claim[key] ?? run[key] ?? DEFAULTS[key]
}
