import { afterEach, describe, expect, it } from 'vitest'
import { runCheck } from '../../../src/check/check.js'
import { never } from '../../../src/check/claims.js'
import { defineAgent } from '../../../src/index.js'
import { CoordinatedRateLimit } from '../../../src/vitest/rate-limit-client.js'
import {
  MAX_CALL_TOKENS,
  startRateLimitCoordinator,
  type RateLimitCoordinator,
} from '../../../src/vitest/rate-limit-coordinator.js'

let running: RateLimitCoordinator | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

const open = () => new AbortController().signal

describe('the rate-limit coordinator', () => {
  it('holds one limit for every client, as for workers in separate processes', async () => {
    running = await startRateLimitCoordinator({ requestsPerMinute: 600 })
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/)
    // Two clients, as two workers would have: their calls share the one limit.
    const workers = [new CoordinatedRateLimit(running.url), new CoordinatedRateLimit(running.url)]
    const start = performance.now()
    const times = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (workers[i % 2] as CoordinatedRateLimit).acquire(open()).then(() => performance.now() - start),
      ),
    )
    const sorted = times.sort((a, b) => a - b)
    // One every 100 ms across both: the sixth 500 ms after the first at the coordinator. Measured
    // here, after each answer's trip back (the first one's opens a connection), so with slack: two
    // limits of their own would have let the six through in about 200 ms.
    expect((sorted[5] ?? 0) - (sorted[0] ?? 0)).toBeGreaterThanOrEqual(400)
  })

  it('counts tokens reported after calls, so the next call waits for a new window', async () => {
    running = await startRateLimitCoordinator({ tokensPerMinute: 100 }, 200)
    const worker = new CoordinatedRateLimit(running.url)
    const start = performance.now()
    await worker.acquire(open())
    await worker.recordTokens(120)
    await worker.acquire(open())
    expect(performance.now() - start).toBeGreaterThanOrEqual(180)
  })

  it('refuses a token count that is not a number from 0 to MAX_CALL_TOKENS, and the limit keeps holding', async () => {
    running = await startRateLimitCoordinator({ tokensPerMinute: 100 }, 200)
    for (const body of [
      '{"tokens":1e308}',
      '{"tokens":-1}',
      '{"tokens":"5"}',
      `{"tokens":${MAX_CALL_TOKENS + 1}}`,
    ]) {
      const answer = await fetch(`${running.url}/tokens`, { method: 'POST', body })
      expect([body, answer.status, await answer.text()]).toEqual([
        body,
        400,
        `tokens must be a number from 0 to ${MAX_CALL_TOKENS}`,
      ])
    }
    const worker = new CoordinatedRateLimit(running.url)
    const start = performance.now()
    await worker.acquire(open())
    await worker.recordTokens(120)
    await worker.acquire(open())
    expect(performance.now() - start).toBeGreaterThanOrEqual(180)
  })

  it("answers 404 to a request without the run's token: another local process cannot drain or block it", async () => {
    running = await startRateLimitCoordinator({ requestsPerMinute: 60 })
    const { origin, pathname } = new URL(running.url)
    for (const base of [origin, `${origin}/${'0'.repeat(32)}`, `${origin}${pathname}x`]) {
      for (const path of ['/acquire', '/tokens']) {
        const answer = await fetch(`${base}${path}`, { method: 'POST', body: '{"tokens":1}' })
        expect([`${base}${path}`, answer.status]).toEqual([`${base}${path}`, 404])
      }
    }
    // None of those took the one place of this minute.
    const worker = new CoordinatedRateLimit(running.url)
    const start = performance.now()
    await worker.acquire(open())
    expect(performance.now() - start).toBeLessThan(500)
  })

  it('lets a waiting worker give up when its rollout ends', async () => {
    running = await startRateLimitCoordinator({ requestsPerMinute: 60 })
    const worker = new CoordinatedRateLimit(running.url)
    await worker.acquire(open())
    const stop = new AbortController()
    const waiting = worker.acquire(stop.signal)
    const reason = new Error('timed out')
    setTimeout(() => stop.abort(reason), 20)
    await expect(waiting).rejects.toBe(reason)
  })

  it('fails clearly, naming its URL, once it is gone: the rollout is an error outcome, not unlimited', async () => {
    const coordinator = await startRateLimitCoordinator({ requestsPerMinute: 600 })
    await coordinator.close()
    const worker = new CoordinatedRateLimit(coordinator.url)
    await expect(worker.acquire(open())).rejects.toThrow(
      `The rate-limit coordinator at ${new URL(coordinator.url).origin} could not be reached`,
    )

    let calls = 0
    const agent = defineAgent({
      name: 'limited',
      input: null,
      run: (_input, ctx) => ctx.step('decide', () => (calls++, 'escalate'), { model: 'sim-1' }),
    })
    const result = await runCheck(
      agent.on(null),
      never(() => false, { rollouts: 3, seed: 1 }),
      {
        test: { name: 'limited', file: '' },
        defaults: {},
        env: process.env,
        signal: undefined,
        report: null,
        root: process.cwd(),
        cwd: process.cwd(),
        rateLimit: worker,
      },
    )
    expect(calls).toBe(0)
    expect(result.verdict.errors.count).toBeGreaterThan(0)
    expect(result.verdict.errors.examples[0]?.error.message).toMatch(
      `The rate-limit coordinator at ${new URL(coordinator.url).origin} could not be reached (connect ECONNREFUSED`,
    )
  })
})

describe('the plugin rateLimit option', () => {
  it('is checked when the plugin is made, naming the field', async () => {
    const { causalReplay } = await import('../../../src/vitest/plugin.js')
    expect(() => causalReplay({ rateLimit: { tokensPerMinute: Infinity } })).toThrow(
      'causalReplay: `rateLimit.tokensPerMinute` must be a positive finite number',
    )
    expect(() => causalReplay({ rateLimit: { requestsPerHour: 10 } as never })).toThrow(
      /unknown option `rateLimit\.requestsPerHour`/,
    )
  })
})
