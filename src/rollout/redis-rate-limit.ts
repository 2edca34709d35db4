import type * as IORedis from 'ioredis'
import type { Redis, RedisOptions } from 'ioredis'
import { RateLimiterRedis } from 'rate-limiter-flexible'
import { RateLimitStoreError } from '../errors.js'
import { loadPeer } from '../load-peer.js'
import { QueuedRateLimit } from './queued-rate-limit.js'
import type { ModelRateLimit, RateLimitOptions } from './rate-limit.js'
import { RATE_LIMIT_STORE_ENV, storeForDisplay } from './rate-limit-store.js'

const IOREDIS_PEER = {
  packageName: 'ioredis',
  range: '^5.0.0 || ^6.0.0',
  neededBy: 'A rateLimit whose store is a Redis URL',
}

// rate-limiter-flexible's own script with the expiry in milliseconds (PX, PEXPIRE) instead of
// seconds: requests are spaced by 60 000 / requestsPerMinute ms, 120 ms at 500 a minute, and the
// limiter's seconds are whole (it floors them, and a key of 0 seconds never expires).
const INCREMENT_WITH_MS_EXPIRY = `redis.call('set', KEYS[1], 0, 'PX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('pexpire', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {consumed, ttl}`

const CONNECTION = {
  // Connected by `connectRedisRateLimit`, which waits for it and fails the run if it cannot.
  lazyConnect: true,
  // While the connection is down a command fails at once instead of waiting in ioredis's queue:
  // a call must not hang, nor run unlimited, on a store that is gone.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  // Reconnects after a loss, so the calls after a blip are limited again.
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
} satisfies RedisOptions

/**
 * A rate limit kept in Redis, shared by every process connected to the same database: the same
 * spacing and token window as the local limit ({@link QueuedRateLimit}, on `RateLimiterRedis`), so
 * the shards of a CI matrix hold one account-wide limit. Keys: `causal-replay:requests:model-calls`
 * and `causal-replay:tokens:model-calls` (a database per provider account). Expiries are the
 * server's, so the machines' clocks do not matter. Calls of this process keep their own first come,
 * first served line; across processes, the first to ask once a slot frees takes it.
 */
export class RedisRateLimit implements ModelRateLimit {
  private readonly queue: QueuedRateLimit
  private lastError: Error | undefined

  /** Use {@link connectRedisRateLimit}: it connects first, and fails if it cannot. */
  private constructor(
    private readonly client: Redis,
    /** The store as messages show it, without credentials. */
    readonly store: string,
    limits: RateLimitOptions,
    windowMs: number,
  ) {
    client.on('error', (error: Error) => (this.lastError = error))
    this.queue = new QueuedRateLimit(
      limits,
      windowMs,
      (kind, points, durationMs) =>
        new RateLimiterRedis({
          storeClient: client,
          keyPrefix: `causal-replay:${kind}`,
          points,
          // Milliseconds where the limiter counts seconds: it hands them to the script above as
          // they are. Rounded up: a slightly longer spacing or window never lets more through.
          duration: Math.ceil(durationMs),
          customIncrTtlLuaScript: INCREMENT_WITH_MS_EXPIRY,
          // Refused at once while disconnected (the message below says why).
          rejectIfRedisNotReady: true,
        }),
    )
  }

  /** Connects `client`, or throws a {@link RateLimitStoreError} naming the store. */
  static async connect(
    client: Redis,
    store: string,
    limits: RateLimitOptions,
    windowMs: number,
  ): Promise<RedisRateLimit> {
    const limit = new RedisRateLimit(client, store, limits, windowMs)
    try {
      await client.connect()
    } catch (error) {
      // Stop the reconnection attempts, which would keep the process alive.
      client.disconnect()
      throw new RateLimitStoreError(
        `The rate limit's Redis store at ${store} could not be reached (${limit.cause(error)}): the run cannot hold its rateLimit, and does not run unlimited. Start Redis there, or point rateLimit.store or ${RATE_LIMIT_STORE_ENV} at one that runs.`,
      )
    }
    return limit
  }

  async acquire(signal: AbortSignal): Promise<void> {
    try {
      await this.queue.acquire(signal)
    } catch (error) {
      throw signal.aborted ? error : this.lost(error, 'the model call was not made')
    }
  }

  async recordTokens(tokens: number): Promise<void> {
    try {
      await this.queue.recordTokens(tokens)
    } catch (error) {
      throw this.lost(error, "the call's tokens were not counted")
    }
  }

  /** Closes the connection (at the end of the run, or of the last check that held it). */
  async close(): Promise<void> {
    if (this.client.status === 'ready') await this.client.quit().catch(() => undefined)
    this.client.disconnect()
  }

  private lost(error: unknown, consequence: string): RateLimitStoreError {
    return new RateLimitStoreError(
      `The rate limit's Redis store at ${this.store} was lost (${this.cause(error)}): ${consequence}, since the rateLimit cannot be held without it.`,
    )
  }

  // While disconnected, the socket's own error (`connect ECONNREFUSED …`) says more than the
  // refusal of the command ("Redis connection is not ready"); before the first reconnection
  // attempt fails there is none yet.
  private cause(error: unknown): string {
    if (this.client.status !== 'ready') return this.lastError?.message ?? 'the connection closed'
    return error instanceof Error ? error.message : String(error)
  }
}

/**
 * A rate limit kept in the Redis at `store`, connected: loads `ioredis` (an optional peer
 * dependency; a `MissingPeerDependencyError` names it when it is not installed) and connects, or
 * throws a {@link RateLimitStoreError} with the URL, its credentials masked.
 *
 * @param windowMs default 60 000: the length of "a minute" (tests shorten it).
 */
export async function connectRedisRateLimit(
  limits: RateLimitOptions,
  store: string,
  windowMs = 60_000,
): Promise<RedisRateLimit> {
  const { Redis } = await loadPeer<typeof IORedis>(IOREDIS_PEER)
  return RedisRateLimit.connect(new Redis(store, CONNECTION), storeForDisplay(store), limits, windowMs)
}
