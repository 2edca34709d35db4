import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { limitConcurrency } from '../../../src/rollout/pool.js'

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('limitConcurrency', () => {
  it('property: never runs more than the limit at once, starts tasks in order, and runs them all', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 30 }),
        async (concurrency, delays) => {
          const limit = limitConcurrency(concurrency)
          let running = 0
          let peak = 0
          const started: number[] = []
          const results = await Promise.all(
            delays.map((delay, i) =>
              limit(async () => {
                started.push(i)
                running++
                peak = Math.max(peak, running)
                for (let d = 0; d < delay; d++) await tick()
                running--
                return i * 2
              }),
            ),
          )
          expect(results).toEqual(delays.map((_, i) => i * 2))
          expect(started).toEqual(delays.map((_, i) => i))
          expect(peak).toBeLessThanOrEqual(concurrency)
          if (delays.length >= concurrency && delays.every((d) => d > 0)) expect(peak).toBe(concurrency)
        },
      ),
      { numRuns: 60, seed: 7 },
    )
  })

  it('releases the slot of a task that rejects or throws synchronously, and passes the error on', async () => {
    const limit = limitConcurrency(1)
    const outcomes = await Promise.allSettled([
      limit(() => Promise.reject(new Error('async failure'))),
      limit(() => {
        throw new Error('sync failure')
      }),
      limit(async () => 'still runs'),
    ])
    expect(outcomes).toEqual([
      { status: 'rejected', reason: new Error('async failure') },
      { status: 'rejected', reason: new Error('sync failure') },
      { status: 'fulfilled', value: 'still runs' },
    ])
  })

  it('accepts tasks submitted while others run', async () => {
    const limit = limitConcurrency(2)
    const order: string[] = []
    const first = limit(async () => {
      order.push('a')
      await tick()
      await limit(async () => order.push('nested'))
      return 'a'
    })
    const second = limit(async () => {
      order.push('b')
      await tick()
      return 'b'
    })
    expect(await Promise.all([first, second])).toEqual(['a', 'b'])
    expect(order).toEqual(['a', 'b', 'nested'])
  })
})
