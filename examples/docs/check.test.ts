// What `check` returns (docs/guide/check.md), on the Quick start's failing claim.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { supportAgent as agent } from '../quick-start/support.js'
import { refundWrongly } from './agents.js'
// #region result
import { check, rarely } from '../../src/index.js'

// #endregion
let workDir: string
const startDir = process.cwd()
beforeAll(async () => {
  // The snippet writes its report under the working directory: a temporary one.
  workDir = await mkdtemp(join(tmpdir(), 'causal-replay-docs-check-'))
  process.chdir(workDir)
})
afterAll(async () => {
  process.chdir(startDir)
  await rm(workDir, { recursive: true, force: true })
})

test('check returns the verdict, the attribution, the artifact, the message and the report', async () => {
  // #region result
  const result = await check(agent, rarely(refundWrongly, { atMost: 0.05 }), {
    name: 'refunds',
    reportDir: '.causal-replay',
  })
  const {
    passed, // the claim holds: a pass, or an inconclusive verdict with onInconclusive: 'pass'
    verdict, // the verdict as data (below)
    attribution, // the contrastive attribution of the failing rollout, with its `locus`, when one ran
    contextAttribution, // which part of the locus step's context it decided on, when that ran
    artifact, // verdict + failing trajectory + attributions: what `reportDir` and the CLI hold
    message, // exactly what the matchers print
    report, // { json, html } written under reportDir, or null
  } = result
  // #endregion
  expect(passed).toBe(false)
  expect(verdict.kind).toBe('fail')
  expect(attribution?.locus).toBe(0)
  expect(contextAttribution).not.toBeNull()
  expect(artifact.verdict).toEqual(verdict)
  expect(message).toContain('causal locus')
  expect(report?.html).toMatch(/\.html$/)
})
