// The everyday assertions in a user's project that installed the packed package: trajectory
// predicates under the rate matchers, read back from one real Vitest run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  copyFixture,
  messageOf,
  runReported,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

let project: FixtureProject
let run: ReportedRun

beforeAll(async () => {
  project = await copyFixture('assertions')
  run = await runReported(project)
}, 90_000)

afterAll(async () => {
  await project?.remove()
})

const failure = (name: string) => messageOf(run.assertion(name).failureMessages[0] ?? '')

describe('trajectory predicates from the package', () => {
  it('pass a careful run in strict mode', () => {
    expect(
      run.assertion(
        'trajectory predicates a careful ticket usually looks the order up, then escalates, and nothing else',
      ).status,
    ).toBe('passed')
  })

  it('fail a combined predicate with an English label and name the decide step as the locus', () => {
    const message = failure('trajectory predicates an injected ticket: refunds 99 without escalating')
    expect(message.split('\n')[0]).toBe(
      'expected support to rarely call issue_refund with ObjectContaining {"amount": 99} and not call escalate: ≤ 5% at 95% confidence',
    )
    expect(message).toMatch(/\n {2}▶ 0 +decide +"refund" .*← causal locus\n/)
  })

  it('fail a step predicate and name the same locus', () => {
    const message = failure('trajectory predicates an injected ticket: decides to refund')
    expect(message.split('\n')[0]).toBe(
      'expected support to rarely take "refund" at step decide: ≤ 5% at 95% confidence',
    )
    expect(message).toMatch(/\n {2}▶ 0 +decide +"refund" .*← causal locus\n/)
  })
})
