import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ArtifactSchema } from '../../src/verdict/schema.js'
import { CausalReplayMetaEntrySchema } from '../../src/vitest/meta.js'
import {
  copyFixture,
  messageOf,
  runReported,
  summaryBlock,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

// One real Vitest run of test/fixtures/long-runs: agents whose output used to be unreadable in the
// terminal (a 2,000-step run, an error message cut in the middle, errors hidden by a pass).
let project: FixtureProject
let run: ReportedRun

beforeAll(async () => {
  project = await copyFixture('long-runs')
  run = await runReported(project)
}, 90_000)

afterAll(async () => {
  await project?.remove()
})

const assertion = (fullName: string) => run.assertion(fullName)

describe('a project with long runs, non-JSON actions and timeouts', () => {
  it('fails the long and the dated agent, passes the slow one', () => {
    expect(run.code).toBe(1)
    expect(assertion('a 2,000-step agent rarely refunds').status).toBe('failed')
    expect(assertion('an agent whose action is a Date rarely refunds').status).toBe('failed')
    expect(assertion('a slow agent rarely refunds, timeouts allowed').status).toBe('passed')
    expect(assertion('a looping agent rarely refunds').status).toBe('failed')
  })

  it('prints a 2,000-step failure in a few dozen lines, the locus and its neighbours shown', () => {
    const message = messageOf(assertion('a 2,000-step agent rarely refunds').failureMessages[0]!)
    expect(message.split('\n').length).toBeLessThan(60)
    expect(message).toMatch(/\n {2}▶ 1500 +decide +"refund" .*← causal locus\n/)
    expect(message).toMatch(/\n {4}1499 +think +/)
    expect(message).toMatch(/\n {4}1501 +think +/)
    expect(message).toMatch(/\n {4}… {2}steps [\d,]+–[\d,]+ not evaluated \(binary search\)\n/)
  })

  it('attributes a 2,000-step failure by both methods within its budget, the worker alive', async () => {
    const test = assertion('a 2,000-step agent, attributed by both methods within a budget')
    expect(test.status).toBe('failed')
    const message = messageOf(test.failureMessages[0]!)
    expect(message).toMatch(/\n {2}▶ 1500 +decide +"refund" .*← causal locus\n/)
    // Two antithetic units of 2,001 prefixes cost 8,004 rollouts: more than the budget has left.
    expect(message).toContain(
      '\n  Shapley values of rollout 0: not started: the budget left too few rollouts; estimating them takes at least 8,004 rollouts',
    )
    const entry = CausalReplayMetaEntrySchema.parse(test.meta.causalReplay?.[0])
    const artifact = ArtifactSchema.parse(
      JSON.parse(await readFile(join(project.root, '.causal-replay', entry.artifact!), 'utf8')),
    )
    expect(artifact.shapley).toMatchObject({ truncated: true, rolloutsUsed: 0, minimumRollouts: 8004 })
    expect(artifact.verdict.rolloutsRun + artifact.contrastive!.rolloutsUsed).toBeLessThanOrEqual(500)
  })

  it('quotes the whole maxSteps sentence of a looping agent', () => {
    const message = messageOf(assertion('a looping agent rarely refunds').failureMessages[0]!)
    expect(message.replace(/\n {8}/g, ' ')).toContain(
      'rollout 0: max-steps, MaxStepsExceededError: The rollout took more than maxSteps (100) steps; the agent seems to loop (last step "think").',
    )
  })

  it('quotes the whole NotJsonError sentence of an action that is a Date', () => {
    const message = messageOf(assertion('an agent whose action is a Date rarely refunds').failureMessages[0]!)
    const unwrapped = message.replace(/\n {8}/g, ' ')
    expect(unwrapped).toMatch(
      /rollout \d+: not-json, NotJsonError: The action of step 1 "decide" is not a JSON value: .*a Date instance.*\./,
    )
    expect(message).not.toContain('…')
  })

  it('shows the errors a passing gate left out of its rate in the summary table and on the index page', () => {
    const table = summaryBlock(run.stdout)
    expect(table).toMatch(/a slow agent rarely refunds, timeouts allowed +pass .* [\d,]+ \(\d+ errors?\)/)
    const index = readFileSync(join(project.root, '.causal-replay', 'index.html'), 'utf8')
    const slowRow = index.split('<tr ').find((row) => row.includes('a slow agent rarely refunds'))
    expect(slowRow).toMatch(/data-errors="\d+">\d+ rollouts? ended in an error, not in the rate/)
  })
})
