// An A/B comparison over a dataset (`candidate.over(dataset)` against a baseline over the same
// cases): pairs by case and rollout, decides the mean difference over cases with the dataset's
// paired test, carries the per-case pairs, names the cases that got worse and attributes the first
// worse pair of the case with the most.
import { describe, expect, it } from 'vitest'
import { check } from '../../../src/entries/check.js'
import { InvalidOptionError } from '../../../src/errors.js'
import { defineAgent, defineDataset, noWorseThan } from '../../../src/index.js'
import { DATASET_PAIRED_METHOD } from '../../../src/stats/dataset-paired-test.js'
import { ArtifactSchema, VerdictSchema } from '../../../src/verdict/schema.js'

/** A case's input: the chance its run goes bad, and whether the change broke it. */
type Ticket = {
  rate: number
  planted: boolean
}

const decide = (rate: number) => (rng: () => number) => (rng() < rate ? 'refund' : 'escalate')
const baselineAgent = defineAgent<Ticket, string>({
  name: 'support-v1',
  run: async (ticket, ctx) => ctx.step('decide', decide(ticket.rate)),
})
// The same steps on the same streams, so an unchanged case pairs alike; planted cases always refund.
const plantedAgent = defineAgent<Ticket, string>({
  name: 'support-v2',
  run: async (ticket, ctx) => ctx.step('decide', decide(ticket.planted ? 1 : ticket.rate)),
})
const sameAgent = defineAgent<Ticket, string>({
  name: 'support-v1b',
  run: async (ticket, ctx) => ctx.step('decide', decide(ticket.rate)),
})
const refunds = (t: { output?: string | undefined }) => t.output === 'refund'

/** `count` cases at `rate`, the ones at `planted` indices broken by the change. */
function tickets(count: number, planted: readonly number[] = [], rate = 0.1, name = 'tickets') {
  return defineDataset(
    name,
    Array.from({ length: count }, (_, index) => ({
      id: `t-${String(index + 1).padStart(2, '0')}`,
      input: { rate, planted: planted.includes(index) },
    })),
  )
}

describe('an A/B comparison over a dataset', () => {
  it('passes an unchanged agent within the margin, with the per-case pairs and the dataset method', async () => {
    const dataset = tickets(30)
    const result = await check(
      sameAgent.over(dataset),
      noWorseThan(baselineAgent, refunds, { margin: 0.05, seed: 4 }),
    )
    const { verdict } = result
    expect(verdict.kind).toBe('pass')
    if (verdict.gate !== 'comparison') throw new Error('expected a comparison verdict')
    expect(verdict.comparison.method).toBe(DATASET_PAIRED_METHOD)
    expect(verdict.comparison.pairs.worse + verdict.comparison.pairs.better).toBe(0)
    expect(verdict.comparison.sharedSteps).toBe(verdict.rolloutsUsed)
    expect(verdict.dataset?.table).toHaveLength(30)
    expect(verdict.dataset?.table[0]?.pairs).toEqual({
      baselineFailures: verdict.dataset?.table[0]?.failures,
      worse: 0,
      better: 0,
    })
    expect(() => VerdictSchema.parse(verdict)).not.toThrow()
    expect(result.message).toMatch(/no case got worse/)
    expect(result.message).toContain(DATASET_PAIRED_METHOD)
  })

  it('fails a change that breaks a few cases, naming them worst first and attributing the case with the most worse pairs', async () => {
    const dataset = tickets(30, [4, 11, 23])
    const result = await check(
      plantedAgent.over(dataset),
      noWorseThan(baselineAgent.over(dataset), refunds, { margin: 0.02, seed: 9 }),
    )
    const { verdict, artifact } = result
    expect(verdict.kind).toBe('fail')
    if (verdict.gate !== 'comparison') throw new Error('expected a comparison verdict')
    const worse = verdict.dataset!.table.filter((row) => (row.pairs?.worse ?? 0) > 0).map((row) => row.id)
    expect(worse.every((id) => ['t-05', 't-12', 't-24'].includes(id))).toBe(true)
    expect(verdict.dataset?.worst).toMatch(/^t-(05|12|24)$/)
    expect(artifact.failing?.case).toEqual({ dataset: 'tickets', id: verdict.dataset?.worst })
    expect(verdict.replay?.rollout).toBe(artifact.failing?.rollout)
    expect(result.attribution).not.toBeNull()
    expect(result.message).toMatch(/cases worse for support-v2 \(\d of 30; .*\): "t-/)
    expect(result.message).toMatch(/attributed: rollout \d+, the first worse pair of case "t-(05|12|24)"/)
    expect(() => ArtifactSchema.parse(JSON.parse(JSON.stringify(artifact)))).not.toThrow()
    expect(result.message).toMatchSnapshot()
  })

  it('is the same verdict at any concurrency', async () => {
    const dataset = tickets(12, [2])
    const run = (concurrency: number) =>
      check(
        plantedAgent.over(dataset),
        noWorseThan(baselineAgent, refunds, { margin: 0.02, seed: 2, concurrency }),
      )
    const [one, eight] = await Promise.all([run(1), run(8)])
    expect(eight.message).toBe(one.message)
  })
})

describe('what an A/B over a dataset refuses, naming `baseline`', () => {
  it('a baseline over another dataset, or on one input', async () => {
    const dataset = tickets(6)
    await expect(
      check(
        plantedAgent.over(dataset),
        noWorseThan(baselineAgent.over(tickets(6, [], 0.1, 'other')), refunds),
      ),
    ).rejects.toThrow(/`baseline` must be an agent, or a scenario over dataset "tickets"/)
    await expect(
      check(plantedAgent.over(dataset), noWorseThan(baselineAgent.over(tickets(7)), refunds)),
    ).rejects.toThrow(/whose cases differ/)
    await expect(
      check(plantedAgent.over(dataset), noWorseThan(baselineAgent.on({ rate: 0, planted: false }), refunds)),
    ).rejects.toThrow(InvalidOptionError)
    await expect(
      check(plantedAgent.on({ rate: 0, planted: false }), noWorseThan(baselineAgent.over(dataset), refunds)),
    ).rejects.toThrow(/`baseline` must be a scenario on one input/)
  })

  it('allowErrors', async () => {
    await expect(
      check(plantedAgent.over(tickets(5)), noWorseThan(baselineAgent, refunds, { allowErrors: true })),
    ).rejects.toThrow(/`allowErrors` must be false over a dataset/)
  })
})
