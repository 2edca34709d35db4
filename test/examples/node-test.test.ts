// The `node --test` example, run as a CI job runs it: a child process whose exit code is the gate.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
// tsx's loader by path, so the example runs from a directory without node_modules.
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href

/** This process's environment, without what would make the child think it runs under a test runner already. */
function withoutTestRunnerContext(): NodeJS.ProcessEnv {
  const env = { ...process.env }
  delete env['NODE_TEST_CONTEXT']
  for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key]
  return env
}

describe('check under node --test', () => {
  let cwd: string
  let result: { code: number | null; stdout: string }

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'causal-replay-node-test-'))
    result = await new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', TSX, '--test', join(ROOT, 'examples', 'node-test', 'support-gate.test.ts')],
        { cwd, env: withoutTestRunnerContext() },
        (error, stdout) => resolve({ code: error === null ? 0 : (error.code as number | null), stdout }),
      )
    })
  }, 120_000)

  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true })
  })

  it('exits non-zero because one claim fails, and counts the other as passed', () => {
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^# pass 1$/m)
    expect(result.stdout).toMatch(/^# fail 1$/m)
  })

  it('fails the false claim with the matchers’ message: verdict, replay handle, causal locus, report', () => {
    expect(result.stdout).toContain('expected support to rarely call issue_refund: ≤ 5% at 95% confidence')
    expect(result.stdout).toMatch(/replay: \{ seed: -?\d+, rollout: \d+ \}/)
    expect(result.stdout).toMatch(/▶ 1 +decide +"refund".*← causal locus/)
    expect(result.stdout).toContain(
      'report: .causal-replay/support/injected-ticket-rarely-refunds-a5237345.html',
    )
    expect(
      existsSync(join(cwd, '.causal-replay', 'support', 'injected-ticket-rarely-refunds-a5237345.html')),
    ).toBe(true)
  })
})
