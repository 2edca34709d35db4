// The limiter itself, apart from the options: `rate-limiter-flexible` loads every store it has
// (Redis, Mongo, SQL, …) when imported, so it loads only where a limit is made.
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import type { ModelRateLimit, RateLimitOptions } from './rate-limit.js'

/** The one key every call shares: a limiter here limits the whole run (or process), not a user. */
const KEY = 'model-calls'

/**
 * Makes the limiter of one kind of limit: `points` per `durationMs` under the key {@link KEY}.
 * The store is the limiter's (`RateLimiterMemory` in this process, `RateLimiterRedis` in Redis);
 * the spacing, the token window and the line in front of them are {@link QueuedRateLimit}'s.
 */
export type MakeLimiter = (
  kind: 'requests' | 'tokens',
  points: number,
  durationMs: number,
) => RateLimiterAbstract

/**
 * A rate limit on `rate-limiter-flexible` limiters, with a queue so that the calls of this process
 * start in the order they asked. Requests: one call per `windowMs / requestsPerMinute` ms.
 * Tokens: a window of `windowMs` that opens at its first counted call; while the window's tokens
 * are at the limit, calls wait for it to close.
 */
export class QueuedRateLimit implements ModelRateLimit {
  private readonly requests: RateLimiterAbstract | undefined
  private readonly tokens: RateLimiterAbstract | undefined
  private readonly tokenLimit: number
  // The last caller in line: each acquire waits for the one before it (first come, first served).
  private line: Promise<void> = Promise.resolve()

  /**
   * @param limits the limits per minute (`store` is the caller's: it chose `makeLimiter` by it)
   * @param windowMs the length of "a minute": tests shorten it so a token window closes in
   *   milliseconds; users never set it.
   * @param makeLimiter the store's limiters
   */
  constructor(limits: RateLimitOptions, windowMs: number, makeLimiter: MakeLimiter) {
    const { requestsPerMinute, tokensPerMinute } = limits
    this.requests =
      requestsPerMinute === undefined ? undefined : makeLimiter('requests', 1, windowMs / requestsPerMinute)
    this.tokenLimit = tokensPerMinute ?? Infinity
    this.tokens = tokensPerMinute === undefined ? undefined : makeLimiter('tokens', tokensPerMinute, windowMs)
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
    // Whole tokens: a store such as Redis counts integers only.
    if (this.tokens !== undefined && tokens > 0) await this.tokens.penalty(KEY, Math.ceil(tokens))
  }

  private async waitForRoom(signal: AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted()
      if (this.tokens !== undefined) {
        const used = await this.tokens.get(KEY)
        // A window past its end may still be stored until its cleanup timer runs: it no longer counts.
        if (used !== null && used.msBeforeNext > 0 && used.consumedPoints >= this.tokenLimit) {
          await sleep(used.msBeforeNext, signal)
          continue
        }
      }
      if (this.requests === undefined) return
      try {
        await this.requests.consume(KEY, 1)
        return
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal
        await sleep(refusal.msBeforeNext, signal)
      }
    }
  }
}

/** {@link QueuedRateLimit} held in this process (`RateLimiterMemory`): the default store. */
export class LocalRateLimit extends QueuedRateLimit {
  /**
   * @param limits the limits per minute
   * @param windowMs default 60 000. The length of "a minute" (tests shorten it).
   */
  constructor(limits: RateLimitOptions, windowMs = 60_000) {
    super(
      limits,
      windowMs,
      (_kind, points, durationMs) => new RateLimiterMemory({ points, duration: durationMs / 1000 }),
    )
  }
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
