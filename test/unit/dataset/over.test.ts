// agent.over(dataset): rollout r runs case roundOrder(seed, ⌊r/N⌋)[r mod N], so every case runs
// once before any runs twice; the trajectory names its case; runRollouts, record and a cassette
// take the scenario as they take any other.
import { describe, expect, it } from 'vitest'
import { caseOfRollout } from '../../../src/dataset/case-order.js'
import { defineAgent, defineDataset } from '../../../src/index.js'
import { isScenario, record, runRollouts } from '../../../src/entries/replay.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'
import { roundOrder } from '../../../src/random/round-order.js'
import { TRAJECTORY_SCHEMA, TrajectorySchema } from '../../../src/trajectory/schema.js'
import { isDatasetScenario } from '../../../src/agent/define-agent.js'
import { cassetteOf, withCassette } from '../../../src/cassette/attach.js'
import type { Cassette } from '../../../src/cassette/cassette.js'

const dataset = defineDataset(
  'numbers',
  Array.from({ length: 7 }, (_, index) => ({ id: `n${index}`, input: { n: index } })),
)
const agent = defineAgent<{ n: number }, number>({
  name: 'echo',
  run: async (input, ctx) => ctx.step('pick', (rng) => input.n + Math.floor(rng() * 0)),
})

describe('the case order', () => {
  it('rollout r runs case roundOrder(seed, ⌊r/N⌋)[r mod N]', () => {
    for (let rollout = 0; rollout < 30; rollout++) {
      const expected = roundOrder(11, Math.floor(rollout / 7), 7)[rollout % 7] as number
      expect(caseOfRollout(dataset, 11, rollout).position).toBe(expected + 1)
    }
  })

  it('every case once before any case twice, in every round', () => {
    for (const seed of [1, 2, 3]) {
      for (let round = 0; round < 4; round++) {
        const ids = Array.from(
          { length: 7 },
          (_, offset) => caseOfRollout(dataset, seed, round * 7 + offset).id,
        )
        expect(new Set(ids).size).toBe(7)
      }
    }
  })

  it('depends on the seed and the rollout alone, whatever order they are asked in', () => {
    const forward = Array.from({ length: 21 }, (_, r) => caseOfRollout(dataset, 5, r).id)
    const backward = Array.from({ length: 21 }, (_, r) => caseOfRollout(dataset, 5, 20 - r).id).reverse()
    expect(backward).toEqual(forward)
    const other = Array.from({ length: 21 }, (_, r) => caseOfRollout(dataset, 6, r).id)
    expect(other).not.toEqual(forward)
  })
})

describe('agent.over(dataset)', () => {
  it('is a frozen scenario with the dataset, accepted where a scenario is', () => {
    const scenario = agent.over(dataset)
    expect(Object.isFrozen(scenario)).toBe(true)
    expect(isScenario(scenario)).toBe(true)
    expect(isDatasetScenario(scenario)).toBe(true)
    expect(isDatasetScenario(agent.on({ n: 1 }))).toBe(false)
    expect(scenario.dataset).toBe(dataset)
  })

  it('stays a scenario over the dataset when a cassette is attached', () => {
    const cassette = {} as Cassette
    const attached = withCassette(agent.over(dataset), cassette)
    expect(isDatasetScenario(attached)).toBe(true)
    expect(cassetteOf(attached.agent)).toBe(cassette)
  })

  it('refuses what is not a dataset, naming it', () => {
    expect(() => agent.over([{ input: { n: 1 } }] as never)).toThrow(InvalidOptionError)
    expect(() => agent.over([] as never)).toThrow(
      'echo.over: `dataset` must be a dataset (defineDataset(name, cases)), got an array.',
    )
  })

  it('runRollouts runs each rollout on its case, and the trajectory names it', async () => {
    const set = await runRollouts(agent.over(dataset), { rollouts: 14, seed: 9, concurrency: 3 })
    set.trajectories.forEach((trajectory, rollout) => {
      const picked = caseOfRollout(dataset, 9, rollout)
      expect(trajectory.input).toEqual(picked.input)
      expect(trajectory.output).toBe((picked.input as { n: number }).n)
      expect(trajectory.case).toEqual({ dataset: 'numbers', id: picked.id })
      expect(TrajectorySchema.parse(trajectory)).toEqual(trajectory)
    })
    const firstRound = set.trajectories.slice(0, 7).map((t) => t.case?.id)
    expect(new Set(firstRound).size).toBe(7)
  })

  it('record({ seed, rollout }) brings back the same case', async () => {
    const set = await runRollouts(agent.over(dataset), { rollouts: 10, seed: 4 })
    const again = await record(agent.over(dataset), { seed: 4, rollout: 9 })
    expect(again).toEqual(set.trajectories[9])
  })

  it('a trajectory of one input has no case, and files written before datasets still parse', () => {
    const old = {
      schema: TRAJECTORY_SCHEMA,
      agent: 'a',
      input: 1,
      seed: 1,
      rollout: 0,
      preamble: [],
      steps: [],
    }
    expect(TrajectorySchema.parse(old)).toEqual(old)
  })
})
