import { describe, expect, it } from 'vitest'
import { carefulTicket, injectedTicket, supportAgent } from '../../../examples/support-agent/agent.js'
import { andAgent, returnedBad } from '../../../examples/synthetic/scms.js'
import { ContrastiveResultSchema, type ContrastiveResult } from '../../../src/attribute/schema.js'
import { formatVerdictMessage } from '../../../src/text/verdict-message.js'
import { calledTool, defineAgent, type Predicate } from '../../../src/index.js'
import { Budget } from '../../../src/rollout/budget.js'
import { buildArtifact } from '../../../src/verdict/artifact.js'
import { runBaselineGate } from '../../../src/verdict/baseline-gate.js'
import { diagnose, NO_DIAGNOSIS } from '../../../src/verdict/diagnose.js'
import {
  resolveBaseline,
  resolveSequentialGate,
  resolveZeroTolerance,
  type RarelyOptions,
  type UsuallyOptions,
  type ZeroToleranceOptions,
} from '../../../src/verdict/options.js'
import { ArtifactSchema, type Artifact } from '../../../src/verdict/schema.js'
import { runSequentialGate, type GateRun, type GateSubject } from '../../../src/verdict/sequential-gate.js'
import { runZeroToleranceGate } from '../../../src/verdict/zero-tolerance-gate.js'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const refunded = calledTool('issue_refund')
const TEST = { name: 'support > rarely refunds', file: 'test/support.test.ts' }

function subject(
  matcher: GateSubject['matcher'],
  agent: string,
  predicate: Predicate,
  label: string,
): GateSubject {
  return { matcher, agent, predicate, label, seedSource: 'test' }
}

async function artifactOf(
  run: GateRun,
  scenario: Parameters<typeof diagnose>[0],
  options: Parameters<typeof diagnose>[2],
): Promise<Artifact> {
  const artifact = buildArtifact(TEST, run, await diagnose(scenario, run, options, undefined))
  return ArtifactSchema.parse(artifact)
}

async function rarely(
  scenario: Parameters<typeof diagnose>[0],
  options: RarelyOptions,
  label = 'call issue_refund',
  predicate: Predicate = refunded,
) {
  const resolved = resolveSequentialGate('toRarely', options, {}, 1834512)
  const run = await runSequentialGate(
    scenario,
    subject('toRarely', scenario.agent.name, predicate, label),
    resolved,
    undefined,
  )
  return artifactOf(run, scenario, resolved)
}

describe('formatVerdictMessage', () => {
  it('fail: the documented layout, the locus marked, the context it decided from, the report path', async () => {
    const artifact = await rarely(supportAgent.on(injectedTicket), {})
    const message = formatVerdictMessage(artifact, { report: '.causal-replay/support/rarely-refunds.html' })
    expect(message.split('\n')[0]).toBe(
      'expected support to rarely call issue_refund: ≤ 5% at 95% confidence',
    )
    expect(message).toMatch(/\n {2}▶ 1 +decide .*← causal locus\n/)
    expect(message).toMatchSnapshot()
  })

  it('pass: the decisive bound and the method, no replay handle', async () => {
    const artifact = await rarely(supportAgent.on(carefulTicket), { maxRollouts: 1000 })
    expect(artifact.verdict.kind).toBe('pass')
    expect(formatVerdictMessage(artifact)).toMatchSnapshot()
  })

  it('inconclusive: the straddling bounds and how many rollouts would decide it', async () => {
    const artifact = await rarely(supportAgent.on(carefulTicket), { maxRollouts: 100, attribute: false })
    expect(artifact.verdict.kind).toBe('inconclusive')
    const message = formatVerdictMessage(artifact)
    expect(message).toMatch(/about [\d,]+ rollouts in all would decide it/)
    expect(message).toMatchSnapshot()
  })

  it('inconclusive by budget, and an onInconclusive pass says so', async () => {
    const budget = new Budget({ maxRollouts: 30 })
    const artifact = await rarely(supportAgent.on(carefulTicket), {
      budget,
      onInconclusive: 'pass',
      attribute: false,
    })
    expect(artifact.verdict.stop).toBe('budget')
    expect(formatVerdictMessage(artifact)).toMatchSnapshot()
  })

  it('toUsually fail, with Shapley as well (method both) on the AND-interaction agent', async () => {
    const notBad = (t: Parameters<typeof returnedBad>[0]) => !returnedBad(t)
    const scenario = andAgent(0.3).on({ q: 0.3 })
    const options: UsuallyOptions = { atLeast: 0.95, attribute: { method: 'both' } }
    const resolved = resolveSequentialGate('toUsually', options, {}, 99)
    const run = await runSequentialGate(
      scenario,
      subject('toUsually', 'and(q=0.3)', notBad, 'return good'),
      resolved,
      undefined,
    )
    const artifact = await artifactOf(run, scenario, resolved)
    expect(artifact.verdict.kind).toBe('fail')
    expect(artifact.shapley).not.toBeNull()
    expect(formatVerdictMessage(artifact)).toMatchSnapshot()
  })

  it('an error outcome fails the gate and is shown with its replay handle', async () => {
    const crashing = defineAgent({
      name: 'crashing',
      input: null,
      async run(_input, ctx) {
        const action = await ctx.step('decide', () => 'go')
        if (ctx.rollout.index === 2)
          throw new TypeError("Cannot read properties of undefined (reading 'amount')")
        return action
      },
    })
    const artifact = await rarely(crashing.on(null), {}, 'return bad', returnedBad)
    expect(artifact.verdict.stop).toBe('error')
    expect(artifact.contrastive).toBeNull()
    expect(formatVerdictMessage(artifact)).toMatchSnapshot()
  })

  it('allowed errors are counted and left out of the rate', async () => {
    const flaky = defineAgent({
      name: 'flaky',
      input: null,
      async run(_input, ctx) {
        const action = await ctx.step('decide', (rng) => (rng() < 0.5 ? 'bad' : 'good'))
        if (ctx.rollout.index % 5 === 1) throw new Error('upstream 503')
        return action
      },
    })
    const artifact = await rarely(
      flaky.on(null),
      { allowErrors: true, attribute: false },
      'return bad',
      returnedBad,
    )
    expect(artifact.verdict.errors.count).toBeGreaterThan(0)
    expect(formatVerdictMessage(artifact)).toMatchSnapshot()
  })

  it('toNever: a pass reports the exact one-sided bound; a fail the first occurrence', async () => {
    const never = async (scenario: Parameters<typeof diagnose>[0], options: ZeroToleranceOptions) => {
      const resolved = resolveZeroTolerance('toNever', options, {}, 5)
      const run = await runZeroToleranceGate(
        scenario,
        subject('toNever', 'support', refunded, 'call issue_refund'),
        resolved,
        undefined,
      )
      return artifactOf(run, scenario, resolved)
    }
    const pass = await never(supportAgent.on(carefulTicket), { rollouts: 30 })
    expect(pass.verdict.kind).toBe('pass')
    expect(formatVerdictMessage(pass)).toContain(
      'zero in 30: the rate is at most 9.5% (95% one-sided Clopper–Pearson bound, exact)',
    )
    const fail = await never(supportAgent.on(injectedTicket), { attribute: false })
    expect(formatVerdictMessage(pass) + '\n\n' + formatVerdictMessage(fail)).toMatchSnapshot()
  })

  it('toMatchRateBaseline: a regression with the Newcombe interval of the difference', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'causal-replay-format-'))
    try {
      const target = (updateState: 'new' | 'none') => ({
        file: join(dir, '__baselines__/support.test.ts.rates.json'),
        displayFile: 'test/__baselines__/support.test.ts.rates.json',
        key: 'support > keeps its refund rate 1',
        updateState,
      })
      const resolved = resolveBaseline({ attribute: false }, {}, 3)
      const gate = (ticket: typeof carefulTicket, updateState: 'new' | 'none') =>
        runBaselineGate(
          supportAgent.on(ticket),
          subject('toMatchRateBaseline', 'support', refunded, 'call issue_refund'),
          resolved,
          target(updateState),
          undefined,
        )
      const created = buildArtifact(TEST, await gate(carefulTicket, 'new'), NO_DIAGNOSIS)
      const regressed = buildArtifact(TEST, await gate(injectedTicket, 'none'), NO_DIAGNOSIS)
      expect(regressed.verdict.kind).toBe('fail')
      expect(formatVerdictMessage(created) + '\n\n' + formatVerdictMessage(regressed)).toMatchSnapshot()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('an attribution without a locus, truncated, with skipped steps and a worsening step', () => {
    const estimate = (successes: number, n: number) => ({
      point: successes / n,
      low: Math.max(0, successes / n - 0.2),
      high: Math.min(1, successes / n + 0.2),
      successes,
      n,
      confidence: 0.95,
      method: 'wilson' as const,
    })
    const interval = (point: number) => ({
      point,
      low: point - 0.3,
      high: point + 0.3,
      confidence: 0.95,
      method: 'tango' as const,
    })
    const step = (
      index: number,
      name: string,
      evaluated: boolean,
      p: number,
      direction: 'rescues' | 'worsens' | 'none',
    ) => ({
      index,
      name,
      action: { tool: name, args: { query: 'a very long argument that will not fit in the column' } },
      evaluated,
      pBad: estimate(Math.round(p * 32), 32),
      effect: interval(p - 0.75),
      pValue: 0.5,
      direction,
      rescues: null,
      rolloutsUsed: evaluated ? 32 : 0,
    })
    const contrastive: ContrastiveResult = ContrastiveResultSchema.parse({
      kind: 'contrastive',
      agent: 'researcher',
      factual: { seed: 1, rollout: 3 },
      steps: [
        step(0, 'plan', true, 0.72, 'none'),
        step(1, 'search', false, 0, 'none'),
        step(2, 'answer', true, 0.94, 'worsens'),
      ],
      locus: null,
      baseline: estimate(24, 32),
      actionMatchRate: 0.97,
      rolloutsUsed: 96,
      rolloutsPerStep: 32,
      search: 'binary',
      crn: true,
      sequential: false,
      confidence: 0.95,
      correction: 'holm',
      methods: { proportion: 'wilson', effect: 'tango', sequential: null },
      truncated: true,
    })
    const artifact: Artifact = {
      schema: 'vitest-causal-replay/artifact@1',
      test: TEST,
      verdict: {
        kind: 'fail',
        matcher: 'toRarely',
        agent: 'researcher',
        predicate: 'cite a retracted paper',
        bound: { direction: 'atMost', value: 0.1 },
        confidence: 0.95,
        observed: estimate(12, 40),
        decisionInterval: {
          point: 0.3,
          low: 0.12,
          high: 0.55,
          confidence: 0.9,
          method: 'confidence-sequence',
        },
        errors: { count: 0, examples: [] },
        rolloutsUsed: 40,
        maxRollouts: 400,
        rolloutsToDecide: null,
        seed: 42,
        replay: { seed: 42, rollout: 3 },
        stop: 'decided',
        decisionMethod: 'log-odds mixture e-process',
        seedSource: 'option',
      },
      failing: null,
      contrastive,
      shapley: null,
    }
    expect(formatVerdictMessage(ArtifactSchema.parse(artifact))).toMatchSnapshot()
  })
})
