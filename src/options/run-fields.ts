import { DEFAULTS } from './defaults.js'
import { AbortSignalField, PositiveIntegerField, TimeoutMsField } from './fields.js'

/**
 * The limits on one rollout, shared by every entry point that runs rollouts (`runRollouts`,
 * `record`, `replay`, the attributions and the matchers): declared once here, spread into each
 * entry point's schema.
 */
export const rolloutLimitFields = {
  /**
   * Default 60 000. A rollout running longer becomes an error outcome (`timeout`). Under a Vitest
   * matcher it is also capped at the time left in the test, so the test reports instead of timing out.
   */
  timeoutMs: TimeoutMsField.default(DEFAULTS.timeoutMs),
  /** Default 100. A rollout taking more steps (or tool calls) becomes an error outcome (`max-steps`): a loop. */
  maxSteps: PositiveIntegerField.default(DEFAULTS.maxSteps),
}

/** How many rollouts run at once, for entry points whose default is the built-in one (not a plugin's). */
export const concurrencyField = {
  /** Default 8. Rollouts in flight at once. */
  concurrency: PositiveIntegerField.default(DEFAULTS.concurrency),
}

/** The cancellation signal of the library functions that run rollouts. */
export const signalField = {
  /** Default: none. Aborting stops the rollouts in flight and starts no more; the call then throws a `RolloutAbortedError`. */
  signal: AbortSignalField.optional(),
}
