import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  copyFixture,
  messageOf,
  runReported,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

// One real Vitest run of test/fixtures/bad-values: predicates that fail only during attribution,
// or return what JSON cannot print. Every test there fails; each message must name what went wrong.
let project: FixtureProject
let run: ReportedRun

beforeAll(async () => {
  project = await copyFixture('bad-values')
  run = await runReported(project)
}, 90_000)

afterAll(async () => {
  await project?.remove()
})

function failureOf(fullName: string): string {
  const found = run.assertion(fullName)
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
