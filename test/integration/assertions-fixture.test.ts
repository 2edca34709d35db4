// The everyday assertions in a user's project that installed the packed package: trajectory
// predicates under the rate matchers, score gates and A/B comparisons, read back from one real Vitest run.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  copyFixture,
  messageOf,
  runReported,
  summaryBlock,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

let project: FixtureProject
let run: ReportedRun

beforeAll(async () => {
  project = await copyFixture('assertions')
  run = await runReported(project, [], { GITHUB_STEP_SUMMARY: join(project.root, 'step-summary.md') })
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

describe('score gates from the package', () => {
  it('pass a careful run', () => {
    expect(run.assertion('score gates a careful ticket scores at least 0.8 on average').status).toBe('passed')
  })

  it('fail a low mean on a 1–5 scale, attribute the lowest-scoring rollout and name the decide step as the locus', () => {
    const message = failure('score gates an injected ticket grades at least 4 of 5 on average')
    const lines = message.split('\n')
    expect(lines[0]).toBe(
      'expected support to score policy grade at least 4 on average (scores in [1, 5]) at 95% confidence',
    )
    expect(lines[1]).toMatch(
      /^ {2}observed mean score [\d.]+ at the sequential stop over \d+ rollouts \(90% betting confidence sequence [\d.]+–[\d.]+\); \d+\/\d+ scored ≥ 4 {2}→ fail$/,
    )
    expect(message).toMatch(
      /\n {2}attributing rollout \d+, score 1, as bad: score < 4 \(the lowest-scoring rollout\)\n/,
    )
    expect(message).toContain('bad = policy grade < 4')
    expect(message).toMatch(/\n {2}▶ 0 +decide +"refund" .*← causal locus\n/)
  })
})

describe('toBeNoWorseThan from the package', () => {
  it('passes a prompt change shown no worse than the old prompt, paired under common random numbers', () => {
    expect(run.assertion('prompt change a polite prompt refunds no more often than the old one').status).toBe(
      'passed',
    )
    expect(run.assertion('prompt change check() makes the same claim').status).toBe('passed')
  })

  it('fails a regression, attributes the first rollout bad for the candidate only and names the locus', () => {
    const message = failure('prompt change a terse prompt refunds no more often than the old one')
    expect(message.split('\n')[0]).toBe(
      'expected support@terse to call issue_refund no more often than support@old (margin +5.0%) at 95% confidence',
    )
    expect(message).toMatch(
      /paired by rollout under common random numbers: both agents made the same steps in \d+ of \d+ pairs/,
    )
    expect(message).toMatch(
      /is the first where support@terse was bad and support@old was not: attributed on support@terse/,
    )
    expect(message).toMatch(/\n {2}▶ 0 +decide +"refund" .*← causal locus\n/)
  })

  it('shows the difference from the baseline in the summary table and the job summary', async () => {
    expect(summaryBlock(run.stdout)).toMatch(/vs support@old [+-][\d.]+% \[/)
    const markdown = await readFile(join(project.root, 'step-summary.md'), 'utf8')
    expect(markdown).toMatch(/vs support@old [+-][\d.]+% \\\[/)
  })
})

describe('judges from the package', () => {
  it('pass a careful run, judged by an AI SDK model', () => {
    expect(run.assertion('judges a careful ticket is rarely judged to refund').status).toBe('passed')
  })

  it('fail an injected run with the English label, count the judge calls and name the decide step as the locus', () => {
    const message = failure('judges an injected ticket is judged to refund')
    expect(message.split('\n')[0]).toBe(
      'expected support to rarely be judged "issues a refund": ≤ 10% at 95% confidence',
    )
    expect(message).toMatch(/\n {2}▶ 0 +decide +"refund" .*← causal locus\n/)
    expect(message).toMatch(/\n {2}cost: \d+ model calls[^\n]*, [\d,]+ tokens/)
  })

  it("correct the rate for the judge's calibration, pass and fail, and say so in every rendering", async () => {
    expect(run.assertion('judges a careful ticket, judge-corrected').status).toBe('passed')
    const message = failure('judges an injected ticket, judge-corrected')
    expect(message).toMatch(
      /\n {2}observed \d+\/\d+ rollouts judged yes; judge-corrected rate [\d.]+% at the sequential stop, 90% judge-corrected \(Rogan–Gladen\) confidence sequence/,
    )
    expect(message).toContain('calibration: sensitivity 48/50')
    expect(message).toMatch(/\n {2}▶ 0 +decide +"refund" .*← causal locus\n/)
    expect(summaryBlock(run.stdout)).toContain('judge-corrected (Rogan–Gladen) confidence sequence')
    expect(summaryBlock(run.stdout)).toContain('judge-corrected: the true rate estimated')
    const markdown = await readFile(join(project.root, 'step-summary.md'), 'utf8')
    expect(markdown).toContain('judge-corrected (Rogan–Gladen) confidence sequence')
  })
})
