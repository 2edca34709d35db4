// The rate limit kept in Redis, against a real redis-server of the test's own (see
// test/redis-server.ts): CI fails these tests when redis-server is missing, locally they are
// skipped with one line saying why.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { check, defineAgent, never } from '../../../src/index.js'
import { openRateLimit, type HeldRateLimit } from '../../../src/rollout/open-rate-limit.js'
import { connectRedisRateLimit } from '../../../src/rollout/redis-rate-limit.js'
import { RATE_LIMIT_STORE_ENV } from '../../../src/rollout/rate-limit-store.js'
import { describeWithProgram } from '../../outside-program.js'
import { freePort, REDIS_SERVER, startRedis, type RunningRedis } from '../../redis-server.js'

const open = () => new AbortController().signal

let redis: RunningRedis
const held: HeldRateLimit[] = []

/** A limit on the test's Redis (a fresh database each time, so tests do not share keys). */
let database = 0
async function shared(limits: { requestsPerMinute?: number; tokensPerMinute?: number }, windowMs = 60_000) {
  database++
  const store = `${redis.url}/${database}`
  // Two connections, as two processes (two CI shards) would have.
  const pair = await Promise.all([
    openRateLimit({ ...limits, store }, windowMs),
    openRateLimit({ ...limits, store }, windowMs),
  ])
  held.push(...pair)
  return pair.map((opened) => opened.limit)
}

describeWithProgram(REDIS_SERVER, 'a rate limit kept in Redis', () => {
  beforeAll(async () => {
    redis = await startRedis()
  })
  afterEach(async () => {
    await Promise.all(held.splice(0).map((opened) => opened.close()))
  })
  afterAll(async () => {
    await redis?.kill()
  })

  it('spaces the calls of two connections as one: requestsPerMinute 600 is one call every 100 ms across both', async () => {
    const connections = await shared({ requestsPerMinute: 600 })
    expect(connections).toHaveLength(2)
    const start = performance.now()
    const times = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        connections[i % 2]!.acquire(open()).then(() => performance.now() - start),
      ),
    )
    expect(times).toHaveLength(8)
    const sorted = [...times].sort((a, b) => a - b)
    // Seven 100 ms gaps at the server; measured here after each answer's trip back, so with slack.
    // Two limits of their own would have let the eight through in about 300 ms.
    expect((sorted[7] ?? 0) - (sorted[0] ?? 0)).toBeGreaterThanOrEqual(650)
  })

  it('counts tokens after the call, for every connection: once the window is spent, the next call of either waits', async () => {
    // A 300 ms "minute" so the window closes during the test.
    const [first, second] = await shared({ tokensPerMinute: 100 }, 300)
    const start = performance.now()
    await first?.acquire(open())
    await first?.recordTokens(150)
    await second?.acquire(open())
    expect(performance.now() - start).toBeGreaterThanOrEqual(270)
    // Below the limit, calls do not wait.
    const [fresh, other] = await shared({ tokensPerMinute: 100 }, 10_000)
    await fresh?.recordTokens(60)
    const before = performance.now()
    await other?.acquire(open())
    expect(performance.now() - before).toBeLessThan(150)
  })

  it('lets a caller whose rollout ends while in line leave at once, with the abort reason', async () => {
    const [limit] = await shared({ requestsPerMinute: 60 })
    await limit?.acquire(open())
    const stop = new AbortController()
    const waiting = limit?.acquire(stop.signal)
    const reason = new Error('rollout ended')
    setTimeout(() => stop.abort(reason), 20)
    await expect(waiting).rejects.toBe(reason)
  })

  it('fails to start on a store that cannot be reached, naming it with its credentials masked', async () => {
    const port = await freePort()
    const store = `redis://shard:s3cret@127.0.0.1:${port}/2`
    const error = await connectRedisRateLimit({ requestsPerMinute: 60 }, store).catch(
      (thrown: unknown) => thrown,
    )
    expect(error).toMatchObject({ name: 'RateLimitStoreError' })
    const { message } = error as Error
    expect(message).toContain(
      `The rate limit's Redis store at redis://***@127.0.0.1:${port}/2 could not be reached (connect ECONNREFUSED 127.0.0.1:${port})`,
    )
    expect(message).toContain(RATE_LIMIT_STORE_ENV)
    expect(message).not.toContain('s3cret')
    expect(message).not.toContain('shard')
    // check fails the same way, before any rollout runs.
    let calls = 0
    const agent = defineAgent({
      name: 'limited',
      input: null,
      run: (_input, ctx) => ctx.step('decide', () => (calls++, 'escalate'), { model: 'sim-1' }),
    })
    await expect(
      check(
        agent,
        never(() => false, { rollouts: 3 }),
        { rateLimit: { requestsPerMinute: 60, store } },
      ),
    ).rejects.toThrow(`store at redis://***@127.0.0.1:${port}/2 could not be reached`)
    expect(calls).toBe(0)
  })
})

// Last, on a server of its own: it is killed.
describeWithProgram(REDIS_SERVER, 'a rate limit whose Redis is lost during the run', () => {
  let lost: RunningRedis
  beforeAll(async () => {
    lost = await startRedis()
  })
  afterAll(async () => {
    await lost?.kill()
  })

  it('fails the calls that follow with an error naming the store, and limits them again once it is back', async () => {
    const opened = await openRateLimit({ requestsPerMinute: 600, tokensPerMinute: 10_000, store: lost.url })
    try {
      await opened.limit.acquire(open())
      await lost.kill()
      const message = `The rate limit's Redis store at ${lost.url} was lost (`
      await expect(opened.limit.acquire(open())).rejects.toThrow(message)
      await expect(opened.limit.recordTokens(10)).rejects.toThrow(message)
      await expect(opened.limit.acquire(open())).rejects.toMatchObject({ name: 'RateLimitStoreError' })

      // Back on its port: the client reconnects, and the calls are limited again.
      lost = await startRedis(lost.port)
      let limitedAgain = false
      for (let attempt = 0; attempt < 50 && !limitedAgain; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        limitedAgain = await opened.limit.acquire(open()).then(
          () => true,
          () => false,
        )
      }
      expect(limitedAgain).toBe(true)
      await opened.limit.recordTokens(10)
    } finally {
      await opened.close()
    }
  })
})
