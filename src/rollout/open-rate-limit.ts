import { LocalRateLimit } from './queued-rate-limit.js'
import type { ModelRateLimit, RateLimitOptions } from './rate-limit.js'
import { connectRedisRateLimit } from './redis-rate-limit.js'

/** A rate limit opened for a run or a check, and how to let it go. */
export interface HeldRateLimit {
  /** The limit every live model call waits for. */
  readonly limit: ModelRateLimit
  /** Lets it go: closes a store's connection (a limit held in this process has none). */
  close(): Promise<void>
}

/**
 * The limit `limits` asks for: held in this process when it names no `store`, else kept in the
 * store and connected now (a store that cannot be reached throws, naming it).
 *
 * @param windowMs default 60 000: the length of "a minute" (tests shorten it).
 */
export async function openRateLimit(limits: RateLimitOptions, windowMs = 60_000): Promise<HeldRateLimit> {
  if (limits.store === undefined) {
    return { limit: new LocalRateLimit(limits, windowMs), close: () => Promise.resolve() }
  }
  const limit = await connectRedisRateLimit(limits, limits.store, windowMs)
  return { limit, close: () => limit.close() }
}

// One limit per distinct limits in a process: `check` calls with the same `rateLimit` share it, so
// limits hold across concurrent checks of one process. A limit held here lives as long as the
// process (a new one would forget the last call's spacing); a store's connection is closed when
// the last check holding it ends, so it never keeps the process alive, and the store remembers.
const processLimits = new Map<string, { opened: Promise<HeldRateLimit>; holders: number }>()

/**
 * The process-wide limit for `limits` (the `rateLimit` option of `check`), held until its `close`.
 * The store must be resolved already (the environment's `CAUSAL_REPLAY_RATE_LIMIT_STORE` included).
 */
export async function holdProcessRateLimit(limits: RateLimitOptions): Promise<HeldRateLimit> {
  const key = JSON.stringify([limits.requestsPerMinute, limits.tokensPerMinute, limits.store])
  let entry = processLimits.get(key)
  if (entry === undefined) {
    entry = { opened: openRateLimit(limits), holders: 0 }
    processLimits.set(key, entry)
  }
  const held = entry
  held.holders++
  let opened: HeldRateLimit
  try {
    opened = await held.opened
  } catch (error) {
    // A store that could not be reached is tried again by the next check.
    held.holders--
    if (processLimits.get(key) === held) processLimits.delete(key)
    throw error
  }
  let closed = false
  return {
    limit: opened.limit,
    close: async () => {
      if (closed) return
      closed = true
      held.holders--
      if (held.holders > 0 || limits.store === undefined) return
      processLimits.delete(key)
      await opened.close()
    },
  }
}
