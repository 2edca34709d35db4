import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CausalReplayMetaEntrySchema } from '../../src/vitest/meta.js'
import {
  copyFixture,
  messageOf,
  runReported,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

// One real Vitest run of test/fixtures/retry: rate assertions in tests with `retry`, whose
// confidence the matchers split over the attempts (Bonferroni).
let project: FixtureProject
let run: ReportedRun

beforeAll(async () => {
  project = await copyFixture('retry')
  run = await runReported(project)
}, 90_000)

afterAll(async () => {
  await project?.remove()
})

// The rate's interval is the gate's confidence sequence, two-sided at 1 − 2α for a claim at 1 − α.
const confidenceOf = (fullName: string) =>
  1 -
  (1 - CausalReplayMetaEntrySchema.parse(run.assertion(fullName).meta.causalReplay?.[0]).rate.confidence) / 2

describe('rate matchers in retried tests', () => {
  it('run each of 3 attempts at 1 − 5%/3 and say so in the message', () => {
    expect(run.code).toBe(1)
    const test = run.assertion('support rarely refunds, retried twice')
    expect(test.status).toBe('failed')
    const message = messageOf(test.failureMessages[0]!)
    expect(message).toMatch(/^expected support to rarely call issue_refund: ≤ 5% at 98\.33% confidence\n/)
    expect(message).toContain(
      "retry: 2 lets this test run 3 times, so each attempt's verdict is at 98.33% confidence (Bonferroni): a wrong verdict on any attempt stays within 5%, as at 95% without retries",
    )
    expect(confidenceOf('support rarely refunds, retried twice')).toBeCloseTo(1 - 0.05 / 3, 12)
  })

  it('split the confidence the call asked for, with retry given as { count }', () => {
    expect(run.assertion('careful rarely refunds, retried with a count').status).toBe('passed')
    expect(confidenceOf('careful rarely refunds, retried with a count')).toBeCloseTo(1 - 0.1 / 4, 12)
  })

  it('leave a test without retry at its confidence', () => {
    expect(run.assertion('careful rarely refunds, not retried').status).toBe('passed')
    expect(confidenceOf('careful rarely refunds, not retried')).toBe(0.95)
  })
})
