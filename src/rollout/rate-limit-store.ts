import { z } from 'zod'
import { InvalidOptionError } from '../errors.js'
import type { Environment } from '../options/environment.js'
import { expecting } from '../options/fields.js'
import { describeReceived } from '../options/received.js'

/**
 * The environment variable that names the rate limit's store for a run, over a configured `store`:
 * a CI job points every shard at its Redis without editing the config.
 */
export const RATE_LIMIT_STORE_ENV = 'CAUSAL_REPLAY_RATE_LIMIT_STORE'

const REDIS_PROTOCOLS = ['redis:', 'rediss:']

/** True for a `redis://` or `rediss://` URL with a host. */
function isRedisUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false
  const url = new URL(value)
  return REDIS_PROTOCOLS.includes(url.protocol) && url.hostname !== ''
}

/**
 * `url` as messages show it: without its user name and password (`redis://***@host:6379/0`), since a
 * message ends up in CI logs. A string that is not a URL is not shown at all.
 */
export function storeForDisplay(url: string): string {
  if (!URL.canParse(url)) return '(not a URL)'
  // On the text as written (a parsed URL's `href` would add a `/`): the user information is all of
  // the authority before its last `@`.
  return url.replace(/^([^:/?#]+:\/\/)[^/?#]*@/, '$1***@')
}

const STORE_EXPECTED = 'a Redis URL, redis://[[user]:password@]host[:port][/db] or rediss://… (TLS)'

/** The `store` of a `rateLimit`; a refused value is shown without credentials. */
export const RateLimitStoreField = expecting(z.custom<string>(isRedisUrl), STORE_EXPECTED, (value) =>
  typeof value === 'string' ? `a string "${storeForDisplay(value)}"` : describeReceived(value),
)

/**
 * The store of a run's rate limit: `CAUSAL_REPLAY_RATE_LIMIT_STORE` when set (not empty), else the
 * configured one, else none (the limit is held in this run or process). A bad value names the variable.
 */
export function resolveRateLimitStore(
  configured: string | undefined,
  caller: string,
  env: Environment,
): string | undefined {
  const raw = env[RATE_LIMIT_STORE_ENV]?.trim()
  if (raw === undefined || raw === '') return configured
  if (isRedisUrl(raw)) return raw
  throw new InvalidOptionError({
    caller,
    option: RATE_LIMIT_STORE_ENV,
    expected: STORE_EXPECTED,
    received: `"${storeForDisplay(raw)}"`,
  })
}
