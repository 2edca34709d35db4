import { describe, expect, it } from 'vitest'
import { ModelCallSlots } from '../../../src/rollout/model-call-slots.js'

const never = new AbortController().signal

/** Acquires a slot and records, by label, when it was granted. */
function take(slots: ModelCallSlots, granted: string[], label: string, cap: number, signal = never) {
  return slots.acquire('m', cap, signal).then(() => {
    granted.push(label)
  })
}

describe('ModelCallSlots', () => {
  it('lets calls to a model start while fewer than the cap are in flight, then in arrival order', async () => {
    const slots = new ModelCallSlots()
    const granted: string[] = []
    const waits = ['a', 'b', 'c', 'd'].map((label) => take(slots, granted, label, 2))
    await Promise.resolve()
    expect(granted).toEqual(['a', 'b'])
    expect(slots.callsInFlight('m')).toBe(2)
    slots.release('m')
    await waits[2]
    expect(granted).toEqual(['a', 'b', 'c'])
    slots.release('m')
    await waits[3]
    expect(granted).toEqual(['a', 'b', 'c', 'd'])
    expect(slots.callsInFlight('m')).toBe(2)
    // Another model has its own count.
    await slots.acquire('other', 1, never)
    expect(slots.callsInFlight('other')).toBe(1)
  })

  it('holds a low-cap call back while a high-cap claim fills the model, first come first served', async () => {
    const slots = new ModelCallSlots()
    const granted: string[] = []
    for (const label of ['h1', 'h2', 'h3']) await take(slots, granted, label, 4)
    const low = take(slots, granted, 'low', 2)
    const high = take(slots, granted, 'h4', 4)
    await Promise.resolve()
    // h4 would fit under its own cap, but the low-cap call came first and waits for 2 in flight.
    expect(granted).toEqual(['h1', 'h2', 'h3'])
    slots.release('m')
    await Promise.resolve()
    expect(granted).toEqual(['h1', 'h2', 'h3'])
    slots.release('m')
    await Promise.all([low, high])
    expect(granted).toEqual(['h1', 'h2', 'h3', 'low', 'h4'])
    expect(slots.callsInFlight('m')).toBe(3)
  })

  it('rejects a waiting call whose signal aborts, and lets the ones behind it go', async () => {
    const slots = new ModelCallSlots()
    const granted: string[] = []
    await take(slots, granted, 'a', 2)
    await take(slots, granted, 'b', 2)
    const stop = new AbortController()
    const cancelled = take(slots, granted, 'cancelled', 1, stop.signal)
    const next = take(slots, granted, 'c', 2)
    stop.abort(new Error('cancelled'))
    await expect(cancelled).rejects.toThrow('cancelled')
    slots.release('m')
    await next
    expect(granted).toEqual(['a', 'b', 'c'])
    await expect(slots.acquire('m', 5, stop.signal)).rejects.toThrow('cancelled')
  })
})
