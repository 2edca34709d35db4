import { z } from 'zod'
import { CassetteOptionField } from '../cassette/mode.js'
import { DEFAULTS } from '../options/defaults.js'
import { AbortSignalField, expecting, NonEmptyPathField, PositiveIntegerField } from '../options/fields.js'
import type { StrictOptions } from '../options/parse-options.js'
import { RateLimitField } from '../rollout/rate-limit.js'

const checkFields = {
  /**
   * Default: the claim in words ("support rarely call issue_refund"). What this check is called:
   * it names the artifact and, with `file`, derives the seed when the claim sets none, so the same
   * code gives the same verdict.
   */
  name: expecting(z.string().trim().min(1), 'a non-empty string').optional(),
  /** Default `''`. The file the check belongs to (relative to the project root); part of the derived seed. */
  file: expecting(z.string(), 'a path relative to the project root').default(DEFAULTS.checkFile),
  /**
   * Default: none (nothing is written). A directory for the artifact (`<agent>/<name>.json`) and
   * its HTML report; the message then ends with the report's path.
   */
  reportDir: NonEmptyPathField.optional(),
  /** Default: none. Aborting stops the rollouts in flight; `check` then throws a RolloutAbortedError. */
  signal: AbortSignalField.optional(),
  /**
   * Default: none (no limit). Limits on live model calls (steps with `model`; cassette hits do not
   * count), held for this process: every `check` with the same limits shares them. Under Vitest,
   * the plugin's `rateLimit` holds for the whole run, across workers.
   */
  rateLimit: RateLimitField.optional(),
  /**
   * Default: the claim's `concurrency`. The live calls to one model (steps naming the same
   * `model`) that may be in flight in this process, over every `check` and test running in it: a
   * call waits while that many are. Without it, checks at `concurrency` c share c calls to a model.
   */
  modelConcurrency: PositiveIntegerField.optional(),
  /**
   * Default: none (every model call is made). A cassette file of model calls: calls it holds are
   * replayed, the others made and, at the end of the check, merged into the file (not when `CI`
   * is set). `mode` (default `'auto'`; `CAUSAL_REPLAY_CACHE` wins): see the documentation's Cassettes page.
   * `redact` (default none): object keys whose values are written as `"[redacted]"`, or a function
   * `(value, part) => value` applied to each request, response and tool value before it is written
   * (keys are computed before, so a redacted call still hits).
   */
  cache: CassetteOptionField.optional(),
}

/** The options of `check`, parsed once. */
export const CheckOptionsSchema: StrictOptions<typeof checkFields> = z.strictObject(checkFields)

/** Options of `check`. */
export type CheckOptions = z.input<typeof CheckOptionsSchema>
