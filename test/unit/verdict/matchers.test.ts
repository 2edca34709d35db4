import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import '../../../matchers/index.js'
import { calledTool } from '../../../src/index.js'
import { readMetaEntries } from '../../../src/vitest/meta.js'
import { coinAgent, returnedBad } from './gate-helpers.js'

// The matchers registered in this very Vitest run (no plugin: the report directory comes from
// CAUSAL_REPLAY_REPORT_DIR, pointed at a temporary directory). Failing verdicts are exercised in
// the fixture projects (test/integration): their annotations copy reports into the project root.
let reportDir = ''
const previous = process.env.CAUSAL_REPLAY_REPORT_DIR
beforeAll(async () => {
  reportDir = await mkdtemp(join(tmpdir(), 'causal-replay-matchers-'))
  process.env.CAUSAL_REPLAY_REPORT_DIR = reportDir
})
afterAll(async () => {
  if (previous === undefined) delete process.env.CAUSAL_REPLAY_REPORT_DIR
  else process.env.CAUSAL_REPLAY_REPORT_DIR = previous
  await rm(reportDir, { recursive: true, force: true })
})

describe('the registered matchers', () => {
  it('type-check with their options, and pass a perfect agent', async ({ task }) => {
    const perfect = coinAgent(0)
    await expect(perfect).toRarely(returnedBad, { atMost: 0.05, maxRollouts: 200 })
    await expect(perfect).toNever(returnedBad, { rollouts: 30 })
    await expect(perfect.on({ p: 0 })).toUsually((t) => t.output === 'good', { atLeast: 0.9 })
    const entries = readMetaEntries(task.meta)
    expect(entries.map((entry) => [entry.matcher, entry.verdict])).toEqual([
      ['toRarely', 'pass'],
      ['toNever', 'pass'],
      ['toUsually', 'pass'],
    ])
    expect(entries[0]!.rolloutsUsed).toBe(71)
    // Three assertions of one test get three artifacts.
    const written = await readdir(join(reportDir, 'coin-0'))
    const artifacts = written.filter((file) => file.endsWith('.json'))
    expect(artifacts).toHaveLength(3)
    expect(artifacts.every((file) => file.startsWith('the-registered-matchers-type-check-with'))).toBe(true)
    expect(artifacts.filter((file) => /-[23]-[0-9a-f]{8}\.json$/.test(file))).toHaveLength(2)
  })

  it('rejects unknown options at compile time and at run time', async () => {
    // @ts-expect-error `atMots` is not an option of toRarely
    await expect(expect(coinAgent(0)).toRarely(calledTool('x'), { atMots: 0.1 })).rejects.toThrow(
      /toRarely: unknown option `atMots`/,
    )
    // @ts-expect-error toNever has `rollouts`, not `maxRollouts`
    await expect(expect(coinAgent(0)).toNever(calledTool('x'), { maxRollouts: 10 })).rejects.toThrow(
      /toNever: unknown option `maxRollouts`/,
    )
  })
})
