// A cassette for the library calls (docs/cassettes.md): open it, run an attribution through it, save.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { calledTool } from '../../src/index.js'
import { record } from '../../src/entries/replay.js'
import { supportAgent as agent } from '../quick-start/support.js'
// #region open
import { contrastive } from '../../src/entries/attribution.js'
import { openCassette, withCassette } from '../../src/entries/cassette.js'

// #endregion
let workDir: string
const startDir = process.cwd()
beforeAll(async () => {
  // The snippet names its cassette relative to the working directory: a temporary one.
  workDir = await mkdtemp(join(tmpdir(), 'causal-replay-docs-cassette-'))
  process.chdir(workDir)
})
afterAll(async () => {
  process.chdir(startDir)
  await rm(workDir, { recursive: true, force: true })
})

test('an attribution runs through a cassette', async () => {
  const factual = await record(agent, { seed: 514518752, rollout: 1 })
  const isBad = calledTool('issue_refund')
  // #region open
  const cassette = await openCassette('__cassettes__/support.cassette.json') // { mode, write, redact }
  const result = await contrastive(withCassette(agent, cassette), factual, { isBad })
  await cassette?.save() // null when the mode is 'off'
  // #endregion
  expect(result.locus).toBe(0)
})
