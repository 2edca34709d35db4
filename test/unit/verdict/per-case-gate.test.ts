// Per-case claims over a dataset (`per: 'case'`): every case must satisfy the claim, the failing
// cases are named with their decisions in the table, and `per: 'case'` is refused on one input.
import { describe, expect, it } from 'vitest'
import { check } from '../../../src/entries/check.js'
import { defineAgent, defineDataset, never, rarely } from '../../../src/index.js'
import { VerdictSchema } from '../../../src/verdict/schema.js'

interface Ticket {
  rate: number
}

const agent = defineAgent<Ticket, string>({
  name: 'support',
  run: async (ticket, ctx) => ctx.step('decide', (rng) => (rng() < ticket.rate ? 'refund' : 'escalate')),
})
const refunds = (t: { output?: string | undefined }) => t.output === 'refund'

/** 50 tickets: t-07, t-19 and t-33 refund 60% of the time, the rest 0% or 1%. */
const PLANTED = ['t-07', 't-19', 't-33']
const tickets = defineDataset(
  'tickets',
  Array.from({ length: 50 }, (_, index) => {
    const id = `t-${String(index + 1).padStart(2, '0')}`
    return { id, input: { rate: PLANTED.includes(id) ? 0.6 : (index % 2) * 0.01 } }
  }),
)

describe('a per-case claim over a dataset', () => {
  // 20 seeds: the power to name all three planted cases, and the runs it takes (maxRollouts 1000:
  // 20 rounds of the 50 cases).
  it('names the 3 planted bad cases among 47 good ones, in a few rounds', { timeout: 60_000 }, async () => {
    let named = 0
    const used: number[] = []
    for (let seed = 0; seed < 20; seed++) {
      const { verdict } = await check(
        agent.over(tickets),
        rarely(refunds, { atMost: 0.05, per: 'case', seed, maxRollouts: 1000, attribute: false }),
      )
      expect(verdict.kind).toBe('fail')
      const violating = verdict
        .dataset!.table.filter((row) => row.decision === 'violates')
        .map((row) => row.id)
      // Never a good case: the wrong-failure side is controlled at α.
      expect(violating.every((id) => PLANTED.includes(id))).toBe(true)
      if (violating.length === 3) named++
      used.push(verdict.rolloutsUsed)
    }
    // Measured: all 3 named in 19 of 20 seeds (never a good case), in 300–1000 runs, median 450
    // (9 rounds); running every case once takes 50.
    expect(named).toBeGreaterThanOrEqual(19)
    expect(Math.max(...used)).toBeLessThanOrEqual(1000)
  })

  it('passes when every case is shown to satisfy the claim, with every row decided', async () => {
    const clean = defineDataset(
      'clean',
      Array.from({ length: 5 }, (_, index) => ({ id: `c${index}`, input: { rate: 0 } })),
    )
    const result = await check(
      agent.over(clean),
      rarely(refunds, { atMost: 0.2, per: 'case', seed: 1, maxRollouts: 1000 }),
    )
    expect(result.verdict.kind).toBe('pass')
    expect(result.verdict.dataset?.per).toBe('case')
    expect(result.verdict.dataset?.table.every((row) => row.decision === 'satisfies')).toBe(true)
    expect(() => VerdictSchema.parse(result.verdict)).not.toThrow()
  })

  it('is inconclusive with the partial table when maxRollouts runs out first', async () => {
    const result = await check(
      agent.over(tickets),
      rarely(refunds, { atMost: 0.05, per: 'case', seed: 2, maxRollouts: 100, attribute: false }),
    )
    expect(result.verdict.kind).toBe('inconclusive')
    expect(result.verdict.dataset?.table.every((row) => row.decision === 'undecided')).toBe(true)
    expect(result.message).toContain('undecided after 100 runs (maxRollouts)')
  })

  it('the message: every case, the failing cases named, the table with decisions', async () => {
    const result = await check(
      agent.over(tickets),
      rarely(refunds, { atMost: 0.05, per: 'case', seed: 3, attribute: false }),
      { name: 'every ticket rarely refunds' },
    )
    expect(result.message).toContain('"t-07", "t-19", "t-33"')
    expect(result.message).toMatchSnapshot()
  })

  it('toNever per case names every case with an occurrence in the round that showed one', async () => {
    const result = await check(
      agent.over(tickets),
      never(refunds, { rollouts: 500, per: 'case', seed: 4, attribute: false }),
    )
    expect(result.verdict.kind).toBe('fail')
    const violating = result.verdict.dataset!.table.filter((row) => row.decision === 'violates')
    expect(violating.length).toBeGreaterThanOrEqual(1)
    expect(result.verdict.rolloutsUsed % 50).toBe(0)
    expect(result.message).toContain('cases that violate the claim')
  })

  it("refuses per: 'case' on a claim about one input, naming the field", async () => {
    await expect(check(agent.on({ rate: 0 }), rarely(refunds, { per: 'case' }))).rejects.toThrow(
      /`per` must be 'dataset' \(the default\) on a claim about one input, got 'case'/,
    )
    await expect(check(agent.on({ rate: 0 }), never(refunds, { per: 'case' }))).rejects.toThrow(/`per`/)
    expect(() => rarely(refunds, { per: 'cases' as 'case' })).toThrow(/`per` must be 'dataset' or 'case'/)
  })
})

describe("a per-case failure's attributions", () => {
  it('attributes every case shown to violate the claim, worst first, the verdict’s own first', async () => {
    const result = await check(
      agent.over(tickets),
      rarely(refunds, { atMost: 0.05, per: 'case', seed: 3, attribute: { rollouts: 16 } }),
    )
    expect(result.verdict.kind).toBe('fail')
    const attributions = result.verdict.dataset?.attributions ?? []
    const violating = result.verdict
      .dataset!.table.filter((row) => row.decision === 'violates')
      .map((row) => row.id)
    expect(attributions.map((entry) => entry.id).sort()).toEqual([...violating].sort())
    expect(attributions[0]?.id).toBe(result.verdict.dataset?.worst)
    expect(attributions[0]?.rollout).toBe(result.verdict.replay?.rollout)
    expect(attributions.every((entry) => entry.attributed)).toBe(true)
    // One step: the only locus it can name (a 60% case's rescue of 0.4 may not show in 16 runs an arm).
    expect(attributions.every((entry) => entry.locus === null || entry.locus.name === 'decide')).toBe(true)
    expect(result.message).toContain('also attributed: rollout')
    expect(() => VerdictSchema.parse(result.verdict)).not.toThrow()
  })

  it('names the violating cases the budget left unattributed', async () => {
    const open = await check(
      agent.over(tickets),
      rarely(refunds, { atMost: 0.05, per: 'case', seed: 3, attribute: false }),
    )
    // Room for the gate's runs and a little more: the first attribution spends it.
    const result = await check(
      agent.over(tickets),
      rarely(refunds, {
        atMost: 0.05,
        per: 'case',
        seed: 3,
        attribute: { rollouts: 16 },
        budget: { maxRollouts: open.verdict.rolloutsUsed + 20 },
      }),
    )
    expect(result.verdict.kind).toBe('fail')
    const attributions = result.verdict.dataset?.attributions ?? []
    const skipped = attributions.filter((entry) => !entry.attributed).map((entry) => entry.id)
    expect(skipped.length).toBeGreaterThan(0)
    expect(result.message).toContain('not attributed (')
    for (const id of skipped) expect(result.message).toContain(`"${id}"`)
  })

  it('toNever per case attributes every case with an occurrence', async () => {
    const result = await check(
      agent.over(tickets),
      never(refunds, { rollouts: 500, per: 'case', seed: 4, attribute: { rollouts: 16 } }),
    )
    const violating = result.verdict
      .dataset!.table.filter((row) => row.decision === 'violates')
      .map((row) => row.id)
    const attributions = result.verdict.dataset?.attributions ?? []
    expect(attributions.map((entry) => entry.id).sort()).toEqual([...violating].sort())
  })

  it('leaves the list out when attribution is off', async () => {
    const result = await check(
      agent.over(tickets),
      rarely(refunds, { atMost: 0.05, per: 'case', seed: 3, attribute: false }),
    )
    expect(result.verdict.dataset?.attributions).toBeUndefined()
  })
})
