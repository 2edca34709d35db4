// `check` from a plain Node script, in a project that has no Vitest installed at all.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFixture, type FixtureProject, type RunResult } from './fixture-project.js'

describe('check in plain Node, without Vitest', () => {
  let project: FixtureProject
  let result: RunResult

  beforeAll(async () => {
    project = await copyFixture('plain-node', ['vitest', '@vitest', 'vite'])
    result = await project.node(['gate.mjs'])
  }, 120_000)

  afterAll(async () => {
    await project?.remove()
  })

  it('runs with neither vitest, @vitest/* nor vite in node_modules (importing any of them would throw)', () => {
    expect(existsSync(join(project.root, 'node_modules', 'vitest'))).toBe(false)
    expect(existsSync(join(project.root, 'node_modules', '@vitest'))).toBe(false)
    expect(result.stderr).toBe('')
  })

  it('passes the true claim, fails the false one with its causal locus, and exits 1', () => {
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('PASS expected refunder to never call issue_refund: 0 in 50 rollouts')
    expect(result.stdout).toContain(
      'FAIL expected refunder to rarely call issue_refund: ≤ 5% at 95% confidence',
    )
    expect(result.stdout).toMatch(/▶ 0 +decide +"refund".*← causal locus/)
    expect(existsSync(join(project.root, 'reports', 'refunder', 'rarely-refunds-8e42b347.html'))).toBe(true)
  })
})
