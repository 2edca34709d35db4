// Claims over a dataset (`agent.over(dataset)`): the sequential claims decide the mean over cases
// with the dataset test, toNever / toAlways keep their exact bound, the verdict carries a per-case
// table, a failure attributes the worst case's first failing run, and the message says all of it.
import { describe, expect, it } from 'vitest'
import { check } from '../../../src/entries/check.js'
import {
  always,
  defineAgent,
  defineDataset,
  never,
  rarely,
  scoresAtLeast,
  usually,
} from '../../../src/index.js'
import { DATASET_E_PROCESS_METHOD } from '../../../src/stats/dataset-rate-test.js'
import { ArtifactSchema, VerdictSchema } from '../../../src/verdict/schema.js'

/** A case's input: the chance its run goes bad. */
interface Ticket {
  rate: number
}

const agent = defineAgent<Ticket, string>({
  name: 'support',
  run: async (ticket, ctx) => ctx.step('decide', (rng) => (rng() < ticket.rate ? 'refund' : 'escalate')),
})
const refunds = (t: { output?: string | undefined }) => t.output === 'refund'

/** `count` cases, the first `bad` of which always refund and the rest at `rate`. */
function tickets(count: number, bad: number, rate = 0) {
  return defineDataset(
    'tickets',
    Array.from({ length: count }, (_, index) => ({
      id: `t-${String(index + 1).padStart(2, '0')}`,
      input: { rate: index < bad ? 1 : rate },
    })),
  )
}

describe('a sequential claim over a dataset', () => {
  it('passes a clean dataset on the dataset test, before every case has run twice', async () => {
    const result = await check(agent.over(tickets(60, 0)), rarely(refunds, { atMost: 0.05, seed: 3 }))
    const { verdict } = result
    expect(verdict.kind).toBe('pass')
    expect(verdict.gate === 'sequential' && verdict.decision?.method).toBe(DATASET_E_PROCESS_METHOD)
    expect(verdict.rolloutsUsed).toBeLessThan(120)
    expect(verdict.dataset).toMatchObject({ name: 'tickets', cases: 60, worst: null })
    expect(verdict.dataset?.table).toHaveLength(60)
    // Every case once before any case twice.
    const runs = verdict.dataset!.table.map((row) => row.runs)
    expect(Math.max(...runs) - Math.min(...runs)).toBeLessThanOrEqual(1)
    expect(() => VerdictSchema.parse(verdict)).not.toThrow()
    expect(result.passed).toBe(true)
  })

  it('fails a dataset with a few always-bad cases, attributing the worst case’s first failing run', async () => {
    const dataset = tickets(20, 4)
    const result = await check(agent.over(dataset), rarely(refunds, { atMost: 0.05, seed: 5 }))
    const { verdict, artifact } = result
    expect(verdict.kind).toBe('fail')
    const worst = verdict.dataset?.worst
    expect(['t-01', 't-02', 't-03', 't-04']).toContain(worst)
    expect(artifact.failing?.case).toEqual({ dataset: 'tickets', id: worst })
    expect(verdict.replay?.rollout).toBe(artifact.failing?.rollout)
    // The attribution replays the worst case's input (an always-bad case: no step rescues it).
    expect(result.attribution).not.toBeNull()
    expect(artifact.failing?.input).toEqual({ rate: 1 })
    expect(result.message).toContain(`the first failing run of the worst case "${worst}"`)
    expect(() => ArtifactSchema.parse(artifact)).not.toThrow()
    // The per-case intervals are exact, named, and at the claim's confidence.
    const row = verdict.dataset!.table.find((r) => r.id === worst)!
    expect(row.interval).toMatchObject({
      method: 'clopper-pearson',
      confidence: 0.95,
      successes: row.failures,
    })
  })

  it('toUsually decides the mean over cases from the other side', async () => {
    const { verdict } = await check(
      agent.over(tickets(30, 27)),
      usually(refunds, { atLeast: 0.5, seed: 2, attribute: false }),
    )
    expect(verdict.kind).toBe('pass')
  })

  it('with maxRollouts below one round: inconclusive on the partial round, and says so', async () => {
    const result = await check(
      agent.over(tickets(50, 0, 0.05)),
      rarely(refunds, { atMost: 0.05, seed: 1, maxRollouts: 30 }),
    )
    expect(result.verdict.kind).toBe('inconclusive')
    expect(result.message).toContain(
      "maxRollouts (30) is less than one round of the dataset's 50 cases, so this is the partial round's result",
    )
  })

  it('the message: the claim on the mean, p̄ with its sequence and method, the cost, the worst cases', async () => {
    const result = await check(
      agent.over(tickets(20, 3, 0.1)),
      rarely(refunds, { atMost: 0.05, seed: 11, attribute: false }),
      { name: 'tickets rarely refund' },
    )
    expect(result.message).toMatchSnapshot()
  })
})

describe('toNever / toAlways over a dataset', () => {
  it('passes with the exact bound, now on the mean over cases', async () => {
    const result = await check(agent.over(tickets(25, 0)), never(refunds, { rollouts: 60, seed: 1 }))
    expect(result.verdict.kind).toBe('pass')
    expect(result.verdict.dataset?.cases).toBe(25)
    expect(result.message).toContain('zero in 60: the mean rate over cases is at most 4.9%')
  })

  it('fails at the first occurrence, naming its case', async () => {
    const result = await check(
      agent.over(tickets(25, 1)),
      never(refunds, { rollouts: 100, seed: 1, attribute: false }),
    )
    expect(result.verdict.kind).toBe('fail')
    expect(result.verdict.dataset?.worst).toBe('t-01')
    expect(result.artifact.failing?.case?.id).toBe('t-01')
    const always1 = await check(agent.over(tickets(10, 10)), always(refunds, { rollouts: 30, seed: 1 }))
    expect(always1.verdict.kind).toBe('pass')
  })
})

describe('what a claim over a dataset refuses', () => {
  it('allowErrors, naming it', async () => {
    await expect(
      check(agent.over(tickets(5, 0)), rarely(refunds, { atMost: 0.05, allowErrors: true })),
    ).rejects.toThrow(/a claim over dataset "tickets": `allowErrors` must be false over a dataset/)
  })

  it('a score claim, naming the claims that take a dataset', async () => {
    await expect(
      check(
        agent.over(tickets(5, 0)),
        scoresAtLeast(() => 1, 0.5),
      ),
    ).rejects.toThrow(
      /over a dataset only toRarely, toUsually, toSometimes, toNever, toAlways, toMatchRateBaseline, toBeNoWorseThan decide a claim/,
    )
    await expect(
      check(
        agent.over(tickets(5, 0)),
        scoresAtLeast(() => 1, 0.5),
      ),
    ).rejects.toThrow(/`target` must be one input/)
  })
})

describe('runsPerCase', () => {
  it('runs every case exactly K times, however early the test could have stopped', async () => {
    const { verdict } = await check(
      agent.over(tickets(12, 0)),
      rarely(refunds, { atMost: 0.5, runsPerCase: 3, seed: 2 }),
    )
    expect(verdict.rolloutsUsed).toBe(36)
    expect(verdict.dataset?.table.every((row) => row.runs === 3)).toBe(true)
    expect(verdict.dataset?.rounds).toBe(3)
  })

  it('is refused on a claim about one input and with per: case, naming the option', async () => {
    await expect(check(agent.on({ rate: 0 }), rarely(refunds, { runsPerCase: 2 }))).rejects.toMatchObject({
      name: 'InvalidOptionError',
      option: 'runsPerCase',
    })
    await expect(
      check(agent.over(tickets(4, 0)), rarely(refunds, { runsPerCase: 2, per: 'case' })),
    ).rejects.toMatchObject({ name: 'InvalidOptionError', option: 'runsPerCase' })
  })
})
