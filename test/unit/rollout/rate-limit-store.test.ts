import { describe, expect, it } from 'vitest'
import { InvalidOptionError } from '../../../src/errors.js'
import { check, defineAgent, never } from '../../../src/index.js'
import {
  RATE_LIMIT_STORE_ENV,
  resolveRateLimitStore,
  storeForDisplay,
} from '../../../src/rollout/rate-limit-store.js'

describe('storeForDisplay', () => {
  it('shows a store without its user name and password', () => {
    expect(storeForDisplay('redis://:pw@cache.internal:6380/3')).toBe('redis://***@cache.internal:6380/3')
    expect(storeForDisplay('rediss://user:pw@cache.internal')).toBe('rediss://***@cache.internal')
    expect(storeForDisplay('redis://cache.internal:6379')).toBe('redis://cache.internal:6379')
    // A raw `@` in the password: the authority's last `@` ends the user information, as URLs parse.
    expect(storeForDisplay('redis://user:p@ss@cache.internal/1')).toBe('redis://***@cache.internal/1')
    expect(storeForDisplay('not a url :pw@')).toBe('(not a URL)')
  })
})

describe('resolveRateLimitStore', () => {
  it('takes CAUSAL_REPLAY_RATE_LIMIT_STORE over the configured store, and the configured one without it', () => {
    const configured = 'redis://config:6379'
    expect(resolveRateLimitStore(configured, 'causalReplay', {})).toBe(configured)
    expect(resolveRateLimitStore(configured, 'causalReplay', { [RATE_LIMIT_STORE_ENV]: ' ' })).toBe(
      configured,
    )
    expect(resolveRateLimitStore(undefined, 'causalReplay', {})).toBeUndefined()
    expect(
      resolveRateLimitStore(configured, 'causalReplay', { [RATE_LIMIT_STORE_ENV]: 'rediss://ci:6380/1' }),
    ).toBe('rediss://ci:6380/1')
  })

  it('refuses a variable that is not a Redis URL, naming it, without its credentials', () => {
    const resolving = () =>
      resolveRateLimitStore(undefined, 'causalReplay', {
        [RATE_LIMIT_STORE_ENV]: 'http://ci:s3cret@cache:6379',
      })
    expect(resolving).toThrow(InvalidOptionError)
    expect(resolving).toThrow(
      'causalReplay: `CAUSAL_REPLAY_RATE_LIMIT_STORE` must be a Redis URL, redis://[[user]:password@]host[:port][/db] or rediss://… (TLS), got "http://***@cache:6379".',
    )
  })
})

describe('the store option', () => {
  it('refuses what is not a Redis URL, naming the field and showing the value without credentials', async () => {
    const agent = defineAgent({ name: 'a', input: null, run: () => null })
    const checking = check(
      agent,
      never(() => false),
      { rateLimit: { requestsPerMinute: 60, store: 'http://ci:s3cret@cache:6379' } },
    )
    await expect(checking).rejects.toThrow(
      'check: `rateLimit.store` must be a Redis URL, redis://[[user]:password@]host[:port][/db] or rediss://… (TLS), got a string "http://***@cache:6379".',
    )
  })

  it('is checked when the plugin is made', async () => {
    const { causalReplay } = await import('../../../src/vitest/plugin.js')
    expect(() => causalReplay({ rateLimit: { requestsPerMinute: 60, store: 'redis://' } })).toThrow(
      'causalReplay: `rateLimit.store` must be a Redis URL',
    )
  })
})
