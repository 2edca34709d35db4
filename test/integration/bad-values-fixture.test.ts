import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFixture, messageOf, type FixtureProject, type RunResult } from './fixture-project.js'

// One real Vitest run of test/fixtures/bad-values: predicates that fail only during attribution,
// or return what JSON cannot print. Every test there fails; each message must name what went wrong.
let project: FixtureProject
let run: RunResult
let results: { testResults: Array<{ assertionResults: JsonAssertion[] }> }

interface JsonAssertion {
  fullName: string
  status: 'passed' | 'failed' | 'skipped' | 'pending'
  failureMessages: string[]
}

beforeAll(async () => {
  project = await copyFixture('bad-values')
  const out = join(project.root, 'out')
  await mkdir(out)
  run = await project.vitest([
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${join(out, 'results.json')}`,
  ])
  results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as typeof results
}, 90_000)

afterAll(async () => {
  await project?.remove()
})

function failureOf(fullName: string): string {
  const found = results.testResults
    .flatMap((file) => file.assertionResults)
    .find((assertion) => assertion.fullName === fullName)
  if (found === undefined) throw new Error(`no test named ${fullName} in the JSON report`)
  expect(found.status).toBe('failed')
  return messageOf(found.failureMessages[0] ?? '')
}

describe('a project whose predicates misbehave', () => {
  it('fails every test, and nothing crashes the run', () => {
    expect(run.code).toBe(1)
    expect(run.stderr).not.toMatch(/serialize a BigInt|Converting circular structure|Cannot convert a Symbol/)
  })

  it('keeps the verdict of a predicate that throws only during attribution', () => {
    const message = failureOf('a predicate that throws only during attribution')
    expect(message).toMatch(/^expected coin to rarely judged bad: ≤ 5% at 95% confidence\n/)
    expect(message).toMatch(/→ fail\n/)
    expect(message).toMatch(/\n {2}replay: \{ seed: 1, rollout: \d+ \}/)
    expect(message).toMatch(
      /\n {2}attribution failed: The predicate "judged bad" threw: the judge is down \(replay rollout \d+\)/,
    )
    expect(message).not.toMatch(/threw on rollout/)
  })

  it.each([
    ['a bigint', '1n'],
    ['a circular object', 'an object with keys {verdict, self}'],
    ['a symbol', 'a symbol (yes)'],
    ['a function', 'a function (endedBad)'],
  ])('names the predicate and what it returned: %s', (name, received) => {
    expect(failureOf(`a predicate that returns ${name}`)).toBe(
      `the predicate "ends bad": \`predicate\` must be a function (trajectory) => boolean (or a promise of one), got one that returned ${received} on rollout 0.`,
    )
  })
})
