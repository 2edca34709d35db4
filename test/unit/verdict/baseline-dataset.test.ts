// A stored rate baseline over a dataset (`agent.over(dataset)`): the entry keeps each case's runs and
// failures; a rerun is judged on the population and on each case (Holm across the cases), names the
// cases that got worse, says which cases were added or removed, and old entries still parse.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { check } from '../../../src/entries/check.js'
import { defineAgent, defineDataset, matchesBaseline } from '../../../src/index.js'
import { BaselineFileSchema } from '../../../src/verdict/baseline-file.js'
import { VerdictSchema } from '../../../src/verdict/schema.js'

type Ticket = {
  rate: number
  planted: boolean
}

const decide = (rate: number) => (rng: () => number) => (rng() < rate ? 'refund' : 'escalate')
const before = defineAgent<Ticket, string>({
  name: 'support',
  run: async (ticket, ctx) => ctx.step('decide', decide(ticket.rate)),
})
// Same name and steps: the change only breaks the planted cases.
const after = defineAgent<Ticket, string>({
  name: 'support',
  run: async (ticket, ctx) => ctx.step('decide', decide(ticket.planted ? 1 : ticket.rate)),
})
const refunds = (t: { output?: string | undefined }) => t.output === 'refund'

function tickets(count: number, planted: readonly number[] = [], rate = 0.05) {
  return defineDataset(
    'tickets',
    Array.from({ length: count }, (_, index) => ({
      id: `t-${String(index + 1).padStart(2, '0')}`,
      input: { rate, planted: planted.includes(index) },
    })),
  )
}

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'causal-replay-baseline-dataset-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const claim = (update: 'new' | 'none' | 'all', rollouts = 200) =>
  matchesBaseline(refunds, {
    file: join(dir, 'rates.json'),
    name: 'support over tickets',
    update,
    rollouts,
    seed: 3,
    attribute: false,
  })

describe('a stored baseline over a dataset', () => {
  it('stores each case, reproduces an unchanged agent, and fails a change naming the cases that got worse', async () => {
    const created = await check(before.over(tickets(20)), claim('new'))
    expect(created.verdict.kind).toBe('pass')
    const file = BaselineFileSchema.parse(JSON.parse(await readFile(join(dir, 'rates.json'), 'utf8')))
    const entry = file.entries['support over tickets']!
    expect(entry.dataset?.name).toBe('tickets')
    expect(entry.dataset?.cases).toHaveLength(20)
    expect(entry.dataset?.cases.reduce((sum, c) => sum + c.runs, 0)).toBe(200)

    const same = await check(before.over(tickets(20)), claim('none'))
    expect(same.verdict.kind).toBe('pass')
    expect(same.verdict.gate === 'baseline' && same.verdict.baseline.finding).toBe('reproduced')
    expect(same.verdict.gate === 'baseline' && same.verdict.baseline.cases?.regressed).toEqual([])

    const changed = await check(after.over(tickets(20, [3, 12])), claim('none'))
    const { verdict } = changed
    expect(verdict.kind).toBe('fail')
    if (verdict.gate !== 'baseline') throw new Error('expected a baseline verdict')
    expect([...verdict.baseline.cases!.regressed].sort()).toEqual(['t-04', 't-13'])
    expect(verdict.baseline.cases?.compared).toBe(20)
    expect(['t-04', 't-13']).toContain(verdict.dataset?.worst)
    expect(changed.artifact.failing?.case?.id).toBe(verdict.dataset?.worst)
    expect(verdict.dataset?.table.find((row) => row.id === 't-04')?.stored).toEqual(
      entry.dataset?.cases.find((c) => c.id === 't-04') && {
        runs: entry.dataset.cases.find((c) => c.id === 't-04')!.runs,
        failures: entry.dataset.cases.find((c) => c.id === 't-04')!.failures,
      },
    )
    expect(() => VerdictSchema.parse(verdict)).not.toThrow()
    expect(changed.message).toMatch(/cases worse than their baseline \(2 of 20 compared; Holm/)
    expect(changed.message).toMatch(/"t-(04|13)", "t-(04|13)"/)
    expect(changed.message.replaceAll(dir, '<dir>')).toMatchSnapshot()
  })

  it('says which cases were added and removed, and compares the cases both have', async () => {
    await check(before.over(tickets(20)), claim('new'))
    const grown = defineDataset('tickets', [
      ...tickets(20)
        .cases.slice(1)
        .map(({ id, input }) => ({ id, input })),
      { id: 't-21', input: { rate: 0.05, planted: false } },
    ])
    const result = await check(before.over(grown), claim('none'))
    if (result.verdict.gate !== 'baseline') throw new Error('expected a baseline verdict')
    expect(result.verdict.baseline.cases).toMatchObject({ added: ['t-21'], removed: ['t-01'], compared: 19 })
    expect(result.verdict.dataset?.table.find((row) => row.id === 't-21')?.stored).toBeNull()
    expect(result.message).toContain(
      'cases added since the baseline (no stored runs, not compared; vitest -u stores them): "t-21"',
    )
    expect(result.message).toContain(
      'cases removed since the baseline (stored, no longer in the dataset): "t-01"',
    )
  })

  it('reads an entry stored before cases were kept, judging the population alone', async () => {
    await check(before.over(tickets(20)), claim('new'))
    const path = join(dir, 'rates.json')
    const raw = JSON.parse(await readFile(path, 'utf8'))
    delete raw.entries['support over tickets'].dataset
    await writeFile(path, JSON.stringify(raw))
    const result = await check(before.over(tickets(20)), claim('none'))
    expect(result.verdict.kind).toBe('pass')
    expect(result.verdict.gate === 'baseline' && result.verdict.baseline.cases).toBeUndefined()
  })

  it('refuses a stored case with more failures than runs, naming the field', async () => {
    await check(before.over(tickets(5)), claim('new', 20))
    const path = join(dir, 'rates.json')
    const raw = JSON.parse(await readFile(path, 'utf8'))
    raw.entries['support over tickets'].dataset.cases[0].failures = 99
    await writeFile(path, JSON.stringify(raw))
    await expect(check(before.over(tickets(5)), claim('none', 20))).rejects.toThrow(
      /failures must not exceed runs/,
    )
  })
})
