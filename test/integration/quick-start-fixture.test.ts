// The README's Quick start, as a user's TypeScript project that installed the packed package:
// it type-checks with no `types` entry (importing the root or the plugin brings the matchers'
// types), and its test fails with the causal locus the README promises. The package root's types
// also check in a project that has no Vitest installed, without `skipLibCheck`.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  copyFixture,
  messageOf,
  REPO,
  runReported,
  type FixtureProject,
  tsc,
  type ReportedRun,
} from './fixture-project.js'

/** The body of the README's code block that starts with the comment `// <file>`, without that line. */
function readmeBlock(readme: string, file: string): string {
  const start = readme.indexOf(`\`\`\`ts\n// ${file}\n`)
  if (start === -1) throw new Error(`no \`// ${file}\` block in README.md`)
  const body = readme.indexOf('\n', readme.indexOf('\n', start) + 1) + 1
  return readme.slice(body, readme.indexOf('```', body))
}

describe('the README Quick start, type-checked and run', () => {
  let project: FixtureProject

  beforeAll(async () => {
    project = await copyFixture('quick-start')
  }, 120_000)

  afterAll(async () => {
    await project?.remove()
  })

  it('is the Quick start of the README, word for word', async () => {
    const readme = await readFile(join(REPO, 'README.md'), 'utf8')
    for (const file of ['vitest.config.ts', 'support.test.ts']) {
      expect(await readFile(join(project.root, file), 'utf8'), file).toBe(readmeBlock(readme, file))
    }
  })

  it('type-checks under NodeNext, strict, without skipLibCheck and with no `types` entry', async () => {
    const tsconfig = JSON.parse(await readFile(join(project.root, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>
    }
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, skipLibCheck: false })
    expect(tsconfig.compilerOptions).not.toHaveProperty('types')
    // typed.test.ts holds `@ts-expect-error`s: a predicate that does not fit the agent is an error.
    expect(await tsc(project, 'tsconfig.json')).toEqual({ code: 0, output: '' })
  }, 300_000)

  it('type-checks under Bundler resolution too', async () => {
    expect(await tsc(project, 'tsconfig.bundler.json')).toEqual({ code: 0, output: '' })
  }, 300_000)

  describe('run by Vitest', () => {
    let run: ReportedRun

    beforeAll(async () => {
      run = await runReported(project)
    }, 120_000)

    it('fails the Quick start test, naming `decide` as the causal locus', () => {
      const test = run.assertion('rarely refunds wrongly', 'support.test.ts')
      expect(test.status).toBe('failed')
      expect(messageOf(test.failureMessages[0] ?? '')).toMatch(
        /\n {2}▶ 0 +decide +"refund" .*← causal locus\n/,
      )
    })

    it('passes the Quick start test beside it: the same agent on a ticket without the note', () => {
      expect(run.assertion('rarely refunds a plain late order', 'support.test.ts').status).toBe('passed')
    })

    it("runs a predicate typed by the agent's output, which fails the same way", () => {
      const test = run.assertion('rarely decides to refund', 'typed.test.ts')
      expect(test.status).toBe('failed')
      expect(messageOf(test.failureMessages[0] ?? '')).toMatch(
        /\n {2}▶ 0 +decide +"refund" .*← causal locus\n/,
      )
    })
  })
})

describe('the package root, type-checked in a project without Vitest', () => {
  let project: FixtureProject

  beforeAll(async () => {
    project = await copyFixture('quick-start', ['vitest', '@vitest', 'vite'])
  }, 120_000)

  afterAll(async () => {
    await project?.remove()
  })

  it('needs no Vitest types, even without skipLibCheck (the augmentation of a missing module is inert)', async () => {
    expect(existsSync(join(project.root, 'node_modules', 'vitest'))).toBe(false)
    expect(existsSync(join(project.root, 'node_modules', '@vitest'))).toBe(false)
    expect(await tsc(project, 'without-vitest/tsconfig.json')).toEqual({ code: 0, output: '' })
  }, 300_000)
})
