// describeDataset: each claim is one test with one set of rollouts, and every case is a test row
// under it reporting that claim's runs of the case. The rows are checked from afterAll, on the
// tasks Vitest collected.
import { afterAll, expect, test, type RunnerTestSuite } from 'vitest'
import { describeDataset } from '../../../matchers/index.js'
import { defineAgent, defineDataset } from '../../../src/index.js'

const agent = defineAgent<{ rate: number }, string>({
  name: 'support',
  run: async (ticket, ctx) => ctx.step('decide', (rng) => (rng() < ticket.rate ? 'refund' : 'escalate')),
})
const refunds = (t: { output?: string | undefined }) => t.output === 'refund'
const clean = defineDataset(
  'clean tickets',
  ['a', 'b', 'c'].map((id) => ({ id, input: { rate: 0 } })),
)

let runs = 0
const counting = defineAgent<{ rate: number }, string>({
  name: 'counted',
  run: async (ticket, ctx) => {
    runs++
    return agent.run(ticket, ctx)
  },
})

describeDataset(clean, (dataset) => {
  dataset.claim('every ticket refunds at most 50%', async () => {
    await expect(counting.over(clean)).toRarely(refunds, { atMost: 0.5, per: 'case', seed: 1 })
  })
  dataset.claim('refunds at most 50% on average, 2 runs a ticket', async () => {
    await expect(agent.over(clean)).toRarely(refunds, { atMost: 0.5, runsPerCase: 2, seed: 1 })
  })
})

let rowsRanAfter = -1
test('the rows ran no rollout of their own', () => {
  rowsRanAfter = runs
})

// Vitest reads the first parameter as fixtures to inject: an empty pattern asks for none.
// eslint-disable-next-line no-empty-pattern
afterAll(({}, suite) => {
  const file = suite as RunnerTestSuite
  const dataset = file.tasks.find((task) => task.name === 'dataset "clean tickets"') as RunnerTestSuite
  expect(dataset.tasks.map((task) => task.name)).toEqual([
    'every ticket refunds at most 50%',
    'every ticket refunds at most 50%',
    'refunds at most 50% on average, 2 runs a ticket',
    'refunds at most 50% on average, 2 runs a ticket',
  ])
  const [perCase, perCaseRows, mean, meanRows] = dataset.tasks as [
    RunnerTestSuite,
    RunnerTestSuite,
    RunnerTestSuite,
    RunnerTestSuite,
  ]
  expect(perCase.type).toBe('test')
  expect(perCaseRows.tasks.map((row) => [row.name, row.result?.state])).toEqual([
    ['a', 'pass'],
    ['b', 'pass'],
    ['c', 'pass'],
  ])
  expect(mean.result?.state).toBe('pass')
  const annotations = meanRows.tasks.map(
    (row) => (row as unknown as { annotations: { message: string }[] }).annotations,
  )
  expect(annotations.map((each) => each[0]?.message)).toEqual([
    expect.stringMatching(/^case "a": 0 of 2 runs went against the claim \(95% Clopper–Pearson CI 0\.0%–/),
    expect.stringMatching(/^case "b": 0 of 2 runs/),
    expect.stringMatching(/^case "c": 0 of 2 runs/),
  ])
  expect(rowsRanAfter).toBe(runs)
  expect(runs).toBeGreaterThan(0)
})
