import { describe, expect, it } from 'vitest'
import { defineAgent } from '../../../src/index.js'
import { runRollouts } from '../../../src/entries/replay.js'
import { evaluationOf } from '../../../src/rollout/evaluation.js'

const agent = defineAgent({
  name: 'one-step',
  input: null,
  async run(_input, ctx) {
    return ctx.step('draw', (rng) => (rng() < 0.5 ? 'bad' : 'good'))
  },
})

describe('evaluationOf', () => {
  it("gives a trajectory the engine produced its run's context, without changing what the trajectory shows", async () => {
    const set = await runRollouts(agent, { rollouts: 3, seed: 5, concurrency: 2 })
    expect(set.trajectories).toHaveLength(3)
    for (const trajectory of set.trajectories) {
      const evaluation = evaluationOf(trajectory)
      expect(evaluationOf(trajectory)).toBe(evaluation)
      expect({ seed: evaluation.seed, rollout: evaluation.rollout }).toEqual({
        seed: 5,
        rollout: trajectory.rollout,
      })
      // Invisible to keys, JSON, printing and strict equality with its file round trip.
      expect(Object.keys(trajectory)).toEqual(Object.keys(JSON.parse(JSON.stringify(trajectory))))
      expect(trajectory).toStrictEqual(JSON.parse(JSON.stringify(trajectory)))
    }
  })

  it('gives a copy of a trajectory a context of its own, as for a trajectory read from a file', async () => {
    const [trajectory] = (await runRollouts(agent, { rollouts: 1, seed: 5 })).trajectories
    if (trajectory === undefined) throw new Error('no trajectory')
    const copy = { ...trajectory }
    expect(evaluationOf(copy)).not.toBe(evaluationOf(trajectory))
    expect(evaluationOf(copy)).not.toBe(evaluationOf(copy))
    expect(evaluationOf(structuredClone(trajectory)).rollout).toBe(trajectory.rollout)
  })
})
