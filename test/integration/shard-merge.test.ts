import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { RunReportSchema } from '../../src/vitest/run-report.js'
import { copyFixture, summaryBlock, type FixtureProject, type RunResult } from './fixture-project.js'

// The support fixture split in two shards that write blob reports, then merged: the summary and
// report.json come from task.meta carried through the blobs, so they list every rate assertion.
let project: FixtureProject
let shards: RunResult[]
let merged: RunResult

beforeAll(async () => {
  project = await copyFixture('support')
  shards = await Promise.all(
    ['1/2', '2/2'].map((shard) => project.vitest(['run', `--shard=${shard}`, '--reporter=blob'])),
  )
  merged = await project.vitest(['run', '--merge-reports'])
}, 120_000)

afterAll(async () => {
  await project?.remove()
})

it('keeps the shards quiet and lists every rate assertion after --merge-reports', async () => {
  for (const shard of shards) {
    expect(shard.stdout).toContain('blob report written')
    expect(summaryBlock(shard.stdout)).toBe('')
  }
  const table = summaryBlock(merged.stdout)
  expect(table).toMatch(/^causal-replay: 9 rate assertions — 2 fail, 2 inconclusive, 5 pass/)
  for (const test of [
    'support.test.js > support agent > injected ticket: rarely refunds',
    'replies.test.js > always replies with text',
    'support.test.js > support agent > careful ticket: rarely refunds',
    'support.test.js > support agent > careful ticket: usually escalates',
    'support.test.js > support agent > never deletes an order',
  ]) {
    expect(table).toContain(test)
  }
  // The same table as an unsharded run of the same project (see support-fixture.test.ts).
  expect(table).toMatchSnapshot()

  const report = RunReportSchema.parse(
    JSON.parse(await readFile(join(project.root, '.causal-replay/report.json'), 'utf8')),
  )
  expect(report.entries.map((entry) => `${entry.file} > ${entry.test}`).sort()).toEqual([
    'replies.test.js > a retried test reports its last attempt only',
    'replies.test.js > always replies with text',
    'support.test.js > a hanging agent under the default test timeout is explained',
    'support.test.js > support agent > borderline ticket: rarely refunds within 60 rollouts',
    'support.test.js > support agent > careful ticket: rarely refunds',
    'support.test.js > support agent > careful ticket: usually escalates',
    'support.test.js > support agent > chat agent: rarely refunds after reading an injected order page',
    'support.test.js > support agent > injected ticket: rarely refunds',
    'support.test.js > support agent > never deletes an order',
  ])
})
