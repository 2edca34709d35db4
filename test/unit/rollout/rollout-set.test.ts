import { describe, expect, it } from 'vitest'
import { defineAgent, type Trajectory } from '../../../src/index.js'
import { RolloutSet, runRollouts } from '../../../src/entries/replay.js'
import { clopperPearson } from '../../../src/stats/index.js'

function trajectory(rollout: number, output: string | undefined, error?: Trajectory['error']): Trajectory {
  return {
    schema: 'vitest-causal-replay/trajectory@1',
    agent: 'hand-made',
    input: null,
    seed: 1,
    rollout,
    preamble: [],
    steps: [],
    ...(output === undefined ? {} : { output }),
    ...(error === undefined ? {} : { error }),
  }
}

const set = new RolloutSet(
  [
    trajectory(0, 'bad'),
    trajectory(1, 'good'),
    trajectory(2, undefined, { kind: 'timeout', name: 'RolloutTimeoutError', message: 'too slow' }),
    trajectory(3, 'bad'),
    trajectory(4, undefined, { kind: 'threw', name: 'Error', message: 'boom' }),
    trajectory(5, 'good'),
    trajectory(6, 'bad'),
  ],
  1,
)
const isBad = (t: Trajectory) => t.output === 'bad'

describe('RolloutSet.rate', () => {
  it('rates completed rollouts only, with a Clopper–Pearson interval', () => {
    expect(set.rate(isBad)).toEqual(clopperPearson(3, 5, 0.95))
    expect(set.rate(isBad)).toMatchObject({
      successes: 3,
      n: 5,
      point: 0.6,
      method: 'clopper-pearson',
      confidence: 0.95,
    })
    expect(set.rate(isBad, 0.8)).toEqual(clopperPearson(3, 5, 0.8))
  })

  it('never calls the predicate on an error outcome', () => {
    const seen: number[] = []
    set.rate((t) => {
      seen.push(t.rollout)
      return false
    })
    expect(seen).toEqual([0, 1, 3, 5, 6])
  })

  it('takes an async predicate (a judge) and then returns a promise of the same estimate', async () => {
    const judge = async (t: Trajectory) => {
      await new Promise((resolve) => setTimeout(resolve, 1))
      return t.output === 'bad'
    }
    const pending = set.rate(judge)
    expect(pending).toBeInstanceOf(Promise)
    expect(await pending).toEqual(set.rate(isBad))
    // Mixed sync/async answers are awaited too.
    expect(await set.rate((t) => (t.rollout % 2 === 0 ? Promise.resolve(isBad(t)) : isBad(t)))).toEqual(
      set.rate(isBad),
    )
  })

  it('gives n = 0 and the vacuous interval [0, 1] when every rollout failed', () => {
    const failed = new RolloutSet(
      [trajectory(0, undefined, { kind: 'threw', name: 'Error', message: 'x' })],
      1,
    )
    expect(failed.rate(isBad)).toMatchObject({ n: 0, successes: 0, low: 0, high: 1 })
  })
})

describe('RolloutSet bookkeeping', () => {
  it('keeps errors apart with their messages', () => {
    expect(set.completed.map((t) => t.rollout)).toEqual([0, 1, 3, 5, 6])
    expect(set.errors).toEqual([
      { rollout: 2, error: { kind: 'timeout', name: 'RolloutTimeoutError', message: 'too slow' } },
      { rollout: 4, error: { kind: 'threw', name: 'Error', message: 'boom' } },
    ])
  })

  it('sums held and matched steps into actionMatchRate (1 when nothing was held)', () => {
    expect(set.actionMatchRate).toBe(1)
    const replayed = new RolloutSet(
      [
        { ...trajectory(0, 'bad'), replay: { heldSteps: 3, matchedSteps: 3 } },
        { ...trajectory(1, 'bad'), replay: { heldSteps: 3, matchedSteps: 1 } },
        { ...trajectory(2, 'bad'), replay: { heldSteps: 2, matchedSteps: 0 } },
      ],
      1,
      'hold(all)',
    )
    expect(replayed.heldSteps).toBe(8)
    expect(replayed.matchedSteps).toBe(4)
    expect(replayed.actionMatchRate).toBe(0.5)
  })

  it('serializes to plain data', () => {
    expect(JSON.parse(JSON.stringify(set))).toEqual({ seed: 1, trajectories: set.trajectories })
    const replayed = new RolloutSet([trajectory(0, 'bad')], 9, 'resample(1)')
    expect(JSON.parse(JSON.stringify(replayed))).toEqual({
      seed: 9,
      intervention: 'resample(1)',
      trajectories: replayed.trajectories,
    })
  })

  it('sums cost over trajectories', async () => {
    const agent = defineAgent({
      name: 'priced',
      input: null,
      run: async (_input, ctx) => {
        await ctx.step('a', () => 1, { costUsd: () => 0.25 })
        await ctx.step('b', () => 2, { costUsd: () => 0.5 })
      },
    })
    const priced = await runRollouts(agent, { rollouts: 4, seed: 1 })
    expect(priced.costUsd).toBe(3)
  })
})

describe('RolloutSet.rate with a predicate that does not return a boolean', () => {
  it('names the rollout and the value (sync: throws; async: rejects)', async () => {
    const sloppy = ((t: Trajectory) => {
      if (t.rollout === 3) return undefined
      return true
    }) as unknown as (t: Trajectory) => boolean
    expect(() => set.rate(sloppy)).toThrow(
      'rate: `predicate` must be a function (trajectory) => boolean (or a promise of one), got one that returned undefined on rollout 3. A missing `return`?',
    )
    await expect(
      set.rate(async (t) => (t.rollout === 5 ? ('yes' as unknown as boolean) : false)),
    ).rejects.toThrow(
      'rate: `predicate` must be a function (trajectory) => boolean (or a promise of one), got one that returned a string "yes" on rollout 5.',
    )
  })

  it('describes a bigint, a circular object, a symbol and a function instead of failing to print them', () => {
    const loop: { self?: unknown } = {}
    loop.self = loop
    const returning = (value: unknown) => (() => value) as unknown as (t: Trajectory) => boolean
    expect(() => set.rate(returning(1n))).toThrow(/got one that returned 1n on rollout 0\.$/)
    expect(() => set.rate(returning(loop))).toThrow(
      /got one that returned an object with keys \{self\} on rollout 0\.$/,
    )
    expect(() => set.rate(returning(Symbol('yes')))).toThrow(
      /got one that returned a symbol \(yes\) on rollout 0\.$/,
    )
    expect(() => set.rate(returning(returning))).toThrow(
      /got one that returned a function \(returning\) on rollout 0\.$/,
    )
  })
})
