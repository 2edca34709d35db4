import { z } from 'zod'
import { expecting } from '../options/fields.js'
import type { StrictOptions } from '../options/parse-options.js'
import { RateLimitStoreField } from './rate-limit-store.js'

const PositiveRate = expecting(
  z.custom<number>((value) => typeof value === 'number' && Number.isFinite(value) && value > 0),
  'a positive finite number',
)

const rateLimitFields = {
  /**
   * Default: unlimited. Live model calls that may start per minute. They are spaced evenly (one
   * every 60 000 / requestsPerMinute ms), since providers enforce per-minute limits over shorter
   * slices too, and a burst of a minute's calls is refused by them even when the minute's total fits.
   */
  requestsPerMinute: PositiveRate.optional(),
  /**
   * Default: unlimited. Tokens (input + output) that live model calls may use per minute. A call's
   * tokens are known only when it returns, so they are counted then: a call starts while the
   * minute's tokens are below the limit, and later calls wait for the next minute once they are not.
   */
  tokensPerMinute: PositiveRate.optional(),
  /**
   * Default: `CAUSAL_REPLAY_RATE_LIMIT_STORE`, else none: the limit is held by the Vitest run (the
   * plugin) or the process (`check`). A Redis URL (`redis://host:6379/0`, `rediss://…`): the limit
   * is kept in that Redis and shared by every run and process that names it, such as the shards of
   * a CI matrix. Needs the `ioredis` package. The environment variable wins over this option.
   */
  store: RateLimitStoreField.optional(),
}

/** Rate limits on live model calls: the `rateLimit` option of `check` and of the plugin. */
export const RateLimitOptionsSchema: StrictOptions<typeof rateLimitFields> = z.strictObject(rateLimitFields)

/** Rate limits on live model calls. Every limit is optional; a missing one does not limit. */
export type RateLimitOptions = z.input<typeof RateLimitOptionsSchema>

/** The `rateLimit` option of `check` and of the plugin. */
export const RateLimitField = expecting(
  RateLimitOptionsSchema,
  'limits { requestsPerMinute?, tokensPerMinute?, store? }',
)

/**
 * What the engine asks before and tells after each live model call (a step with `model` set that
 * calls its policy; cassette hits, held and forced steps call nothing and are not limited).
 */
export interface ModelRateLimit {
  /** Resolves when one more live model call may start; rejects with the signal's reason if it aborts first. */
  acquire(signal: AbortSignal): Promise<void>
  /** Counts the tokens of a live call that returned, so that later calls wait when the minute's are spent. */
  recordTokens(tokens: number): Promise<void>
}
