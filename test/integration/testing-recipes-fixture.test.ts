// The adapters' mock-model recipes ("A mock model" on docs/adapters/<sdk>.md), as a user's
// TypeScript project that installed the packed package: each page's script and test file are
// written into the project word for word from the page, type-checked under strict NodeNext, and
// run by Vitest, where the scripted model of vitest-causal-replay/testing/<sdk> passes the plain
// ticket and names the model call that decided on the injected one.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readmeBlock } from '../../scripts/readme-output.js'
import {
  copyFixture,
  REPO,
  runReported,
  tsc,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

const SDKS = ['ai-sdk', 'openai-agents', 'langchain'] as const

/** The code of a page's generated example block, without its fence. */
function exampleCode(page: string, file: string): string {
  const block = readmeBlock(page, `example:${file}`)
  expect(block).toMatch(/^```ts\n[\s\S]*\n```\n$/)
  return block.replace(/^```ts\n/, '').replace(/```\n$/, '')
}

describe('the adapters’ mock-model recipes, as the pages show them', () => {
  let project: FixtureProject
  let run: ReportedRun

  beforeAll(async () => {
    project = await copyFixture('testing-recipes')
    for (const sdk of SDKS) {
      const page = await readFile(join(REPO, 'docs/adapters', `${sdk}.md`), 'utf8')
      await mkdir(join(project.root, sdk))
      await writeFile(
        join(project.root, sdk, 'support-script.ts'),
        exampleCode(page, 'examples/testing/support-script.ts'),
      )
      await writeFile(
        join(project.root, sdk, 'support.test.ts'),
        exampleCode(page, `examples/testing/${sdk}.test.ts`),
      )
    }
  }, 120_000)

  afterAll(async () => {
    await project?.remove()
  })

  it('import only the package, by name', async () => {
    for (const sdk of SDKS) {
      const test = await readFile(join(project.root, sdk, 'support.test.ts'), 'utf8')
      expect(test).toContain(`from 'vitest-causal-replay/testing/${sdk}'`)
      expect(test).not.toMatch(/from '\.\.?\/(?!support-script\.js)/)
    }
  })

  it('type-check under NodeNext, strict', async () => {
    expect(await tsc(project, 'tsconfig.json')).toEqual({ code: 0, output: '' })
  }, 300_000)

  describe('run by Vitest', () => {
    beforeAll(async () => {
      run = await runReported(project)
    }, 240_000)

    it.each(SDKS)('%s: the plain ticket passes, the injected one fails at the deciding model call', (sdk) => {
      expect(run.assertion('rarely refunds a late order', `${sdk}/support.test.ts`).status).toBe('passed')
      const injected = 'an injected note makes it refund, at the model call that decided'
      expect(run.assertion(injected, `${sdk}/support.test.ts`).status).toBe('passed')
      expect(run.code).toBe(0)
    })
  })
})
