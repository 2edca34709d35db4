import type { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { z } from 'zod'
import { expecting } from '../options/fields.js'

/** Rate limits on live model calls. Every limit is optional; a missing one does not limit. */
export interface RateLimitOptions {
  /**
   * Default: unlimited. Live model calls that may start per minute. They are spaced evenly (one
   * every 60 000 / requestsPerMinute ms), since providers enforce per-minute limits over shorter
   * slices too, and a burst of a minute's calls is refused by them even when the minute's total fits.
   */
  requestsPerMinute?: number | undefined
  /**
   * Default: unlimited. Tokens (input + output) that live model calls may use per minute. A call's
   * tokens are known only when it returns, so they are counted then: a call starts while the
   * minute's tokens are below the limit, and later calls wait for the next minute once they are not.
   */
  tokensPerMinute?: number | undefined
}

const PositiveRate = expecting(
  z.custom<number>((value) => typeof value === 'number' && Number.isFinite(value) && value > 0),
  'a positive finite number',
)

/** The `rateLimit` option of `check` and of the plugin. */
export const RateLimitField = expecting(
  z.strictObject({
    requestsPerMinute: PositiveRate.optional(),
    tokensPerMinute: PositiveRate.optional(),
  }),
  'limits { requestsPerMinute?, tokensPerMinute? }',
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

/** The one key every call shares: a limiter here limits the whole run (or process), not a user. */
const KEY = 'model-calls'

/**
 * A rate limit held in this process: `rate-limiter-flexible` limiters, and a queue so that calls
 * start in the order they asked. Requests: one call per `windowMs / requestsPerMinute` ms.
 * Tokens: a window of `windowMs` that opens at its first counted call; while the window's tokens
 * are at the limit, calls wait for it to close.
 */
export class LocalRateLimit implements ModelRateLimit {
  private readonly limiters: Promise<MemoryLimiters>
  private readonly tokenLimit: number
  // The last caller in line: each acquire waits for the one before it (first come, first served).
  private line: Promise<void> = Promise.resolve()

  /**
   * @param limits the limits per minute
   * @param windowMs default 60 000. The length of "a minute": tests shorten it so a token window
   *   closes in milliseconds; users never set it.
   */
  constructor(limits: RateLimitOptions, windowMs = 60_000) {
    this.tokenLimit = limits.tokensPerMinute ?? Infinity
    this.limiters = memoryLimiters(limits, windowMs)
  }

  acquire(signal: AbortSignal): Promise<void> {
    const turn = this.line.then(() => this.waitForRoom(signal))
    this.line = turn.catch(() => undefined)
    // A caller whose rollout ends while it is still in line leaves at once; its turn, when it
    // comes, takes nothing (waitForRoom sees the aborted signal first).
    return signal.aborted ? Promise.reject(signal.reason as Error) : raceAbort(turn, signal)
  }

  async recordTokens(tokens: number): Promise<void> {
    // `penalty` adds the points without refusing: the call has happened; the next acquire waits.
    const limiter = (await this.limiters).tokens
    if (limiter !== undefined && tokens > 0) await limiter.penalty(KEY, tokens)
  }

  private async waitForRoom(signal: AbortSignal): Promise<void> {
    const { requests, tokens, Refusal } = await this.limiters
    for (;;) {
      signal.throwIfAborted()
      if (tokens !== undefined) {
        const used = await tokens.get(KEY)
        // A window past its end may still be stored until its cleanup timer runs: it no longer counts.
        if (used !== null && used.msBeforeNext > 0 && used.consumedPoints >= this.tokenLimit) {
          await sleep(used.msBeforeNext, signal)
          continue
        }
      }
      if (requests === undefined) return
      try {
        await requests.consume(KEY, 1)
        return
      } catch (refusal) {
        if (!(refusal instanceof Refusal)) throw refusal
        await sleep(refusal.msBeforeNext, signal)
      }
    }
  }
}

/** The limiters of one {@link LocalRateLimit}, and the class of their refusals. */
interface MemoryLimiters {
  requests: RateLimiterMemory | undefined
  tokens: RateLimiterMemory | undefined
  Refusal: typeof RateLimiterRes
}

/**
 * Makes the in-memory limiters for `limits`. `rate-limiter-flexible` loads every limiter it has
 * (Redis, Mongo, SQL, …) when it is imported, which costs about a quarter of what the package
 * root's own import does: it is loaded here, when a limit is made, since most runs set none.
 */
async function memoryLimiters(
  { requestsPerMinute, tokensPerMinute }: RateLimitOptions,
  windowMs: number,
): Promise<MemoryLimiters> {
  const { RateLimiterMemory, RateLimiterRes } = await import('rate-limiter-flexible')
  return {
    requests:
      requestsPerMinute === undefined
        ? undefined
        : new RateLimiterMemory({ points: 1, duration: windowMs / requestsPerMinute / 1000 }),
    tokens:
      tokensPerMinute === undefined
        ? undefined
        : new RateLimiterMemory({ points: tokensPerMinute, duration: windowMs / 1000 }),
    Refusal: RateLimiterRes,
  }
}

// One limiter per distinct limits in a process: `check` calls with the same `rateLimit` share it,
// so limits hold across concurrent checks of one process.
const processLimits = new Map<string, LocalRateLimit>()

/** The process-wide limiter for `limits` (the `rateLimit` option of `check`). */
export function processRateLimit(limits: RateLimitOptions): LocalRateLimit {
  const key = `${limits.requestsPerMinute ?? '-'}/${limits.tokensPerMinute ?? '-'}`
  let limit = processLimits.get(key)
  if (limit === undefined) processLimits.set(key, (limit = new LocalRateLimit(limits)))
  return limit
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason as Error)
    }
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort)
        resolve()
      },
      Math.max(0, ms),
    )
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** `promise`, or a rejection with the signal's reason if it aborts first. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error as Error)
      },
    )
  })
}
