import { describe, expect, it } from 'vitest'
import { unwatch, watch, type Watched } from '../../../src/rollout/watchdog.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A watched rollout that records when it was timed out, and may do something then. */
function rollout(name: string, inMs: number, log: string[], onTimeOut?: () => void): Watched {
  return {
    deadline: performance.now() + inMs,
    timeOut() {
      log.push(name)
      onTimeOut?.()
    },
    watchedBefore: undefined,
    watchedAfter: undefined,
    isWatched: false,
  }
}

describe('watchdog', () => {
  it('times out each watched rollout once, at its deadline, in the order they were watched', async () => {
    const log: string[] = []
    const rollouts = [
      rollout('a', 30, log),
      rollout('b', 5, log),
      rollout('c', 5, log),
      rollout('d', 10_000, log),
      rollout('e', 5, log),
    ]
    for (const watched of rollouts) watch(watched)
    unwatch(rollouts[2] as Watched)
    await sleep(15)
    expect(log).toEqual(['b', 'e'])
    await sleep(40)
    expect(log).toEqual(['b', 'e', 'a'])
    // Ended rollouts (timed out or not) leave the watchdog; unwatching twice is harmless.
    for (const watched of rollouts) unwatch(watched)
    for (const watched of rollouts) unwatch(watched)
    expect(
      rollouts.map((watched) => [watched.isWatched, watched.watchedBefore, watched.watchedAfter]),
    ).toEqual(rollouts.map(() => [false, undefined, undefined]))
  })

  it('checks, in the same pass, a rollout watched while another was being timed out', async () => {
    const log: string[] = []
    const late = rollout('late', -1, log)
    const first = rollout('first', 5, log, () => watch(late))
    const second = rollout('second', 10_000, log)
    watch(first)
    watch(second)
    await sleep(20)
    expect(log).toEqual(['first', 'late'])
    for (const watched of [first, second, late]) unwatch(watched)
  })
})
