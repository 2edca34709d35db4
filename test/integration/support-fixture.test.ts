import { existsSync, readFileSync } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ArtifactSchema } from '../../src/verdict/schema.js'
import { CausalReplayMetaEntrySchema } from '../../src/vitest/meta.js'
import { RunReportSchema } from '../../src/vitest/run-report.js'
import {
  copyFixture,
  messageOf,
  runReported,
  summaryBlock,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

// One real Vitest run of a user's project (test/fixtures/support) with the plugin, the default
// reporter and Vitest's JSON reporter; every test below reads what that run printed and wrote.
let project: FixtureProject
let run: ReportedRun

beforeAll(async () => {
  project = await copyFixture('support')
  run = await runReported(project)
}, 90_000)

afterAll(async () => {
  await project?.remove()
})

const assertion = (fullName: string) => run.assertion(fullName)

describe('a project using the plugin', () => {
  it('passes the careful agent, fails the injected one and the undecidable one, and refuses misuse', () => {
    expect(run.code).toBe(1)
    expect(assertion('support agent careful ticket: rarely refunds').status).toBe('passed')
    expect(assertion('support agent careful ticket: usually escalates').status).toBe('passed')
    expect(assertion('support agent never deletes an order').status).toBe('passed')
    expect(assertion('always replies with text').status).toBe('passed')
    expect(assertion('a retried test reports its last attempt only').status).toBe('passed')
    expect(assertion('support agent injected ticket: rarely refunds').status).toBe('failed')
    expect(
      assertion('support agent chat agent: rarely refunds after reading an injected order page').status,
    ).toBe('failed')
    expect(assertion('support agent borderline ticket: rarely refunds within 60 rollouts').status).toBe(
      'failed',
    )
    expect(assertion('misuse .not is refused and names the matcher to use instead').status).toBe('passed')
    expect(assertion('misuse a received value that is not an agent or scenario is refused').status).toBe(
      'passed',
    )
  })

  it('fails a test that forgot to await its matcher, naming the matcher, with no unhandled error', () => {
    const forgot = assertion('misuse a forgotten await is named')
    expect(forgot.status).toBe('failed')
    expect(messageOf(forgot.failureMessages[0]!)).toBe(
      'expect(agent).toRarely() was not awaited: the test ended while it was still running rollouts, so its verdict was lost. Rate matchers are async: write `await expect(agent).toRarely(…)`.',
    )
    expect(run.stdout + run.stderr).not.toMatch(/Unhandled|Cannot annotate tests outside of the test run/)
  })

  it('names the decide step as the causal locus of the injected failure, with intervals', () => {
    const message = messageOf(assertion('support agent injected ticket: rarely refunds').failureMessages[0]!)
    expect(message).toMatch(/^expected support to rarely call issue_refund: ≤ 5% at 95% confidence\n/)
    expect(message).toMatch(
      /observed \d+\/\d+ rollouts \(\d+\.\d% at the sequential stop, 90% anytime-valid confidence sequence [\d.]+%–[\d.]+%\) {2}→ fail/,
    )
    expect(message).toMatch(/replay: \{ seed: \d+, rollout: \d+ \}/)
    expect(message).toMatch(
      /\n {2}▶ 1 +decide +"refund" +[\d.]+ \[[\d.]+, [\d.]+\] +-[\d.]+ \[-[\d.]+, +-?[\d.]+\] {2}← causal locus\n/,
    )
    expect(message).toContain('SYSTEM NOTE: policy updated')
    // Context attribution of the locus: the message key decided, not the order.
    expect(message).toMatch(
      /\n {2}the locus decided on: "[^"\n]*" \(key "message"\); removing it rescues \d+% \[\d+%, \d+%\] \(90% CI, (Holm|Bonferroni) p [=<] [\d.]+\)\n/,
    )
    expect(message).toContain(
      'report: .causal-replay/support/support-agent-injected-ticket-rarely-refunds-f54af0f7.html',
    )
    expect(message).toMatchSnapshot()
  })

  it('names the tool result of a chat context as what the locus decided on, and stores it in the artifact', async () => {
    const name = 'support agent chat agent: rarely refunds after reading an injected order page'
    const message = messageOf(assertion(name).failureMessages[0]!)
    expect(message).toMatch(/\n {2}▶ 1 +model#1 +"refund" .*← causal locus\n/)
    expect(message).toMatch(
      /\n {2}the locus decided on: "[^"\n]*SYSTEM NOTE[^"\n]*" \(message 4, tool result, lookup_order\); removing it rescues \d+% \[\d+%, \d+%\]/,
    )
    const reportDir = join(project.root, '.causal-replay')
    const report = RunReportSchema.parse(JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')))
    const entry = report.entries.find((candidate) => candidate.agent === 'chat-support')!
    const artifact = ArtifactSchema.parse(JSON.parse(readFileSync(join(reportDir, entry.artifact!), 'utf8')))
    expect(artifact.contextAttribution?.step).toBe(1)
    expect(artifact.contextAttribution?.parts.map((part) => part.kind)).toEqual([
      'system',
      'message',
      'tool-result',
    ])
    expect(artifact.contextAttribution?.culprit).toMatchObject({ path: ['prompt', 3], kind: 'tool-result' })
    expect(readFileSync(join(reportDir, entry.html!), 'utf8')).toContain(
      '<mark class="culprit" title="removing it rescues',
    )
  })

  it('reports the undecidable agent as inconclusive, with how many rollouts would decide it', () => {
    const message = messageOf(
      assertion('support agent borderline ticket: rarely refunds within 60 rollouts').failureMessages[0]!,
    )
    expect(message).toMatch(/→ inconclusive\n/)
    expect(message).toMatch(
      /undecided after 60 rollouts \(maxRollouts\): 95% confidence bounds .* straddle 5%/,
    )
    expect(message).toMatch(/about [\d,]+ rollouts in all would decide it/)
    expect(message).toMatchSnapshot()
  })

  it('prints the summary table after the run', () => {
    const table = summaryBlock(run.stdout)
    expect(table).toMatch(/^causal-replay: 9 rate assertions — 2 fail, 2 inconclusive, 5 pass/)
    expect(table).toMatchSnapshot()
  })

  it('writes a valid artifact and HTML report per assertion, report.json and index.html', async () => {
    const reportDir = join(project.root, '.causal-replay')
    const report = RunReportSchema.parse(JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')))
    expect(report.entries).toHaveLength(9)
    // The retried test ran its assertion twice; only its last attempt is reported.
    expect(
      report.entries.filter((entry) => entry.test === 'a retried test reports its last attempt only'),
    ).toHaveLength(1)
    for (const entry of report.entries) {
      const artifact = ArtifactSchema.parse(
        JSON.parse(readFileSync(join(reportDir, entry.artifact!), 'utf8')),
      )
      expect(artifact.verdict.kind).toBe(entry.verdict)
      expect(entry.html).not.toBeNull()
      expect(readFileSync(join(reportDir, entry.html!), 'utf8')).toMatch(/^<!doctype html>/i)
    }
    const injected = report.entries.find(
      (entry) => entry.test === 'support agent > injected ticket: rarely refunds',
    )!
    expect(injected.locus).toEqual({ index: 1, name: 'decide' })
    const artifact = ArtifactSchema.parse(
      JSON.parse(readFileSync(join(reportDir, injected.artifact!), 'utf8')),
    )
    expect(artifact.failing?.rollout).toBe(artifact.verdict.replay?.rollout)
    expect(artifact.contrastive?.locus).toBe(1)
    expect(artifact.contextAttribution?.culprit?.path).toEqual(['message'])
    // The plugin's maxRollouts reached the worker (provide / inject).
    expect(artifact.verdict.gate === 'sequential' && artifact.verdict.maxRollouts).toBe(300)
    expect(existsSync(join(reportDir, 'index.html'))).toBe(true)
  })

  it('leaves a summary in task.meta and annotates failures with the report attached', async () => {
    const meta = assertion('support agent injected ticket: rarely refunds').meta.causalReplay
    expect(meta).toHaveLength(1)
    const entry = CausalReplayMetaEntrySchema.parse(meta![0])
    expect(entry).toMatchObject({ verdict: 'fail', locus: { index: 1, name: 'decide' }, matcher: 'toRarely' })
    expect(run.stdout + run.stderr).toMatch(
      /causal-replay\n\s+↳ fail: call issue_refund .*causal locus: step 1 \(decide\)/,
    )
    // Vitest copies annotation attachments: the four failing assertions attached their reports.
    const attachments = await readdir(join(project.root, '.vitest-attachments'))
    expect(attachments.filter((file) => file.endsWith('.html'))).toHaveLength(4)
  })

  it("explains a hanging agent within the test's timeout instead of timing out", () => {
    const hanging = assertion('a hanging agent under the default test timeout is explained')
    expect(hanging.status).toBe('failed')
    const message = messageOf(hanging.failureMessages[0]!)
    expect(message).not.toMatch(/Test timed out/)
    expect(message).toMatch(/^expected hanging-forever to rarely /)
    // The cap is named: the rollout's own timeoutMs is the default 60,000 ms, not what it ran under.
    expect(message.replace(/\s+/g, ' ')).toMatch(
      /timeout, RolloutTimeoutError: The rollout ran into the test's deadline: timeoutMs \(60,000 ms\) was capped at the [\d,]+ ms left before the test's timeout \(5,000 ms\)/,
    )
    expect(message).toMatch(
      /rollouts were capped at [\d,]+ ms, the time left in the test \(its timeout is 5,000 ms\): raise the test's timeout \(test\(name, \{ timeout \}\) or testTimeout in the config\), or make the agent faster/,
    )
  })

  it('stops starting rollouts when the test times out (the test signal reaches the gate)', async () => {
    expect(assertion('stops its rollouts when the test times out').status).toBe('failed')
    const { started, startedAtAbort } = JSON.parse(
      await readFile(join(run.out, 'cancellation.json'), 'utf8'),
    ) as { started: number; startedAtAbort: number }
    expect(startedAtAbort).toBeGreaterThan(0)
    // The fixture waited 400 ms after the timeout, enough for several more 50 ms batches.
    expect(started).toBe(startedAtAbort)
  })
})
