import { describe, expect, it } from 'vitest'
import { calledTool, check, defineAgent, never } from '../../../src/index.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'
import { LocalRateLimit } from '../../../src/rollout/queued-rate-limit.js'

const open = () => new AbortController().signal

/** Times (ms since `start`) at which `count` acquires resolve, asked all at once. */
async function grantTimes(limit: LocalRateLimit, count: number): Promise<number[]> {
  const start = performance.now()
  return Promise.all(
    Array.from({ length: count }, () => limit.acquire(open()).then(() => performance.now() - start)),
  )
}

describe('LocalRateLimit', () => {
  it('spaces calls evenly: requestsPerMinute 1,200 is one call every 50 ms', async () => {
    const times = await grantTimes(new LocalRateLimit({ requestsPerMinute: 1200 }), 6)
    const sorted = [...times].sort((a, b) => a - b)
    // Five intervals between six calls. Measured where each caller resumes, so one gap may look
    // shorter when a busy event loop delayed the caller before it; the span cannot.
    expect((sorted[5] ?? 0) - (sorted[0] ?? 0)).toBeGreaterThanOrEqual(220)
    // First come, first served: the grants come in the order of the calls.
    expect(times).toEqual(sorted)
  })

  it('counts tokens after the call: once the window’s tokens are spent, the next call waits for a new window', async () => {
    // A 200 ms "minute" so the window closes during the test.
    const limit = new LocalRateLimit({ tokensPerMinute: 100 }, 200)
    const start = performance.now()
    await limit.acquire(open())
    // The call used more than the window allows: it ran (its tokens were unknown before), the next waits.
    await limit.recordTokens(150)
    await limit.acquire(open())
    expect(performance.now() - start).toBeGreaterThanOrEqual(180)
    // Below the limit, calls do not wait.
    const fresh = new LocalRateLimit({ tokensPerMinute: 100 }, 10_000)
    await fresh.recordTokens(60)
    const before = performance.now()
    await fresh.acquire(open())
    expect(performance.now() - before).toBeLessThan(100)
  })

  it('a caller whose rollout ends while in line leaves at once, and takes no slot', async () => {
    // One call a second: a slot taken by the aborted caller would push the next to 2 s.
    const limit = new LocalRateLimit({ requestsPerMinute: 60 })
    await limit.acquire(open())
    const stop = new AbortController()
    const waiting = limit.acquire(stop.signal)
    const reason = new Error('rollout ended')
    stop.abort(reason)
    await expect(waiting).rejects.toBe(reason)
    // The next caller gets the slot the aborted one gave up: one interval after the first.
    const start = performance.now()
    await limit.acquire(open())
    expect(performance.now() - start).toBeLessThan(1500)
  })
})

describe('the rateLimit option of check', () => {
  it('holds live model calls of a check to the limit, and leaves plain steps alone', async () => {
    const modelCalls: number[] = []
    const plainCalls: number[] = []
    const agent = defineAgent({
      name: 'limited',
      input: null,
      async run(_input, ctx) {
        await ctx.step('plan', () => plainCalls.push(performance.now()))
        return ctx.step('decide', () => (modelCalls.push(performance.now()), 'escalate'), { model: 'sim-1' })
      },
    })
    const result = await check(agent, never(calledTool('refund'), { rollouts: 6, concurrency: 6, seed: 1 }), {
      rateLimit: { requestsPerMinute: 600 },
    })
    expect(result.verdict.kind).toBe('pass')
    const sorted = [...modelCalls].sort((a, b) => a - b)
    expect(sorted).toHaveLength(6)
    // Five 100 ms intervals between six calls (see above for why the span, not each gap).
    expect((sorted[5] ?? 0) - (sorted[0] ?? 0)).toBeGreaterThanOrEqual(450)
    // The six plain steps ran at once: none waited for a 100 ms slot.
    expect(Math.max(...plainCalls) - Math.min(...plainCalls)).toBeLessThan(90)
  })

  it('refuses a limit that is not a positive number, naming the field', async () => {
    const agent = defineAgent({ name: 'a', input: null, run: () => null })
    await expect(
      check(
        agent,
        never(() => false),
        { rateLimit: { requestsPerMinute: 0 } },
      ),
    ).rejects.toThrow(InvalidOptionError)
    await expect(
      check(
        agent,
        never(() => false),
        { rateLimit: { requestsPerMinute: 0 } },
      ),
    ).rejects.toThrow(/rateLimit\.requestsPerMinute` must be a positive finite number/)
  })
})
