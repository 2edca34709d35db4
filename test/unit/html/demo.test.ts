// `npm run demo` end to end, as a user runs it: a child process, in a fresh directory.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ArtifactSchema, type Artifact } from '../../../src/verdict/schema.js'

const ROOT = join(import.meta.dirname, '..', '..', '..')
// tsx's loader by path, so the demo runs from a directory without node_modules.
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href

describe('npm run demo', () => {
  let cwd: string
  let stdout: string
  let stderr: string
  let artifact: Artifact

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'causal-replay-demo-'))
    // execFile rejects on a non-zero exit code, so resolving means the demo exited 0.
    ;({ stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', TSX, join(ROOT, 'examples', 'support-agent', 'demo.ts')],
      { cwd },
    ))
    const json = join(cwd, '.causal-replay', 'support', 'rarely-refunds-wrongly-4533b654.json')
    artifact = ArtifactSchema.parse(JSON.parse(await readFile(json, 'utf8')))
  })

  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true })
  })

  it('fails the gate on the injected ticket and attributes it to the decision', () => {
    expect(artifact.verdict.kind).toBe('fail')
    expect(artifact.contrastive?.locus).toBe(1)
    expect(artifact.shapley?.steps.map((step) => step.name)).toEqual(['lookup', 'decide', 'reply'])
    // The decision carries the Shapley credit: its interval lies above both other steps'.
    const [lookup, decide, reply] = artifact.shapley?.steps ?? []
    expect(decide?.low).toBeGreaterThan(Math.max(lookup?.high ?? 1, reply?.high ?? 1))
  })

  it('prints the verdict through the terminal formatter, the replay check and the report path', () => {
    expect(stdout).toContain('expected support to rarely refund wrongly: ≤ 5% at 95% confidence')
    expect(stdout).toMatch(/▶ 1 +decide +"refund".*← causal locus/)
    expect(stdout).toContain('Shapley values of rollout')
    expect(stdout).toContain('→ the same trajectory, byte for byte')
    expect(stdout).toContain('HTML report: .causal-replay/support/rarely-refunds-wrongly-4533b654.html')
  })

  it('writes the HTML report', async () => {
    const page = await readFile(
      join(cwd, '.causal-replay', 'support', 'rarely-refunds-wrongly-4533b654.html'),
      'utf8',
    )
    expect(page.startsWith('<!doctype html>')).toBe(true)
    expect(page).toContain('data-locus="true"')
  })

  it('draws no progress line when stderr is not a terminal', () => {
    expect(stderr).toBe('')
  })
})
