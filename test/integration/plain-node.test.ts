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

/** What one step of `loads.mjs` loaded: the package's files (paths inside it) and other packages. */
interface Loaded {
  files: string[]
  dependencies: string[]
}

// The attribution engines, and what renders a verdict (text, page). The arms' option fields
// (`arms/arm-options`) are not an engine: the claims' option schemas, which the root loads, use them.
const ATTRIBUTION =
  /^dist\/src\/(verdict\/attribute-failing|attribute\/(arms\/(?!arm-options\.js).*|contrastive\/contrastive|shapley\/.*|context\/context-attribution)|replay\/replay)\.js$/
const RENDERING = /^dist\/src\/(html|text)\//
// What runs a claim: the pipeline, a gate, the rollout engine.
const RUNNING = /^dist\/src\/(check\/check|verdict\/[a-z-]+-gate|rollout\/execute)\.js$/

describe('what a script loads of the package, step by step', () => {
  let project: FixtureProject
  let loads: {
    atImport: Loaded
    atPass: Loaded
    atFail: Loaded
    passed: boolean
    failed: boolean
    message: string
  }

  beforeAll(async () => {
    project = await copyFixture('plain-node', ['vitest', '@vitest', 'vite'])
    const result = await project.node(['loads.mjs'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    loads = JSON.parse(result.stdout.trim().split('\n').pop() as string) as typeof loads
  }, 120_000)

  afterAll(async () => {
    await project?.remove()
  })

  it('imports the root without the pipeline, the gates, the engine, attribution or rendering, and without the dependencies only limits and locks need', () => {
    const { files, dependencies } = loads.atImport
    expect(files).toContain('dist/src/index.js')
    expect(files).toContain('dist/src/check/claims.js')
    expect(
      files.filter((file) => RUNNING.test(file) || ATTRIBUTION.test(file) || RENDERING.test(file)),
    ).toEqual([])
    expect(dependencies).toContain('zod')
    expect(dependencies).not.toContain('rate-limiter-flexible')
    expect(dependencies).not.toContain('proper-lockfile')
  })

  it('loads the pipeline, its gate and the engine with the first check, and no attribution for a pass', () => {
    expect(loads.passed).toBe(true)
    const { files } = loads.atPass
    for (const file of [
      'check/check',
      'verdict/sequential-gate',
      'rollout/execute',
      'text/verdict-message',
    ]) {
      expect(files).toContain(`dist/src/${file}.js`)
    }
    expect(files.filter((file) => ATTRIBUTION.test(file))).toEqual([])
    // No reportDir: no page is rendered, so none of its code loads.
    expect(files.filter((file) => file.startsWith('dist/src/html/'))).toEqual([])
  })

  it('loads the attribution engines once a claim fails, and prints their locus', () => {
    expect(loads.failed).toBe(true)
    const { files } = loads.atFail
    expect(files).toContain('dist/src/verdict/attribute-failing.js')
    expect(files).toContain('dist/src/attribute/contrastive/contrastive.js')
    expect(loads.message).toMatch(/▶ 0 +decide +"refund".*← causal locus/)
  })
})
