import { describe, expect, it } from 'vitest'
import { carefulTicket, injectedTicket, supportAgent } from '../../../examples/support-agent/agent.js'
import { andAgent, returnedBad } from '../../../examples/synthetic/scms.js'
import { ContrastiveResultSchema, type ContrastiveResult } from '../../../src/attribute/schema.js'
import { runCheck } from '../../../src/check/check.js'
import { claimOf, type Claim } from '../../../src/check/claims.js'
import { formatVerdictMessage } from '../../../src/text/verdict-message.js'
import { calledTool, defineAgent, type Predicate } from '../../../src/index.js'
import type { AgentOrScenario } from '../../../src/entries/types.js'
import { Budget } from '../../../src/rollout/budget.js'
import type { RarelyOptions, UsuallyOptions, ZeroToleranceOptions } from '../../../src/verdict/options.js'
import { ArtifactSchema, type Artifact } from '../../../src/verdict/schema.js'
import { toScenario } from '../../../src/agent/define-agent.js'
import type { Scenario } from '../../../src/agent/types.js'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const refunded = calledTool('issue_refund')
const TEST = { name: 'support > rarely refunds', file: 'test/support.test.ts' }

/** A claim checked the way a matcher checks it (no report written), its artifact as a reader gets it. */
async function artifactOf(target: AgentOrScenario, claim: Claim, root = process.cwd()): Promise<Artifact> {
  const scenario = toScenario(target, 'test') as Scenario<unknown, unknown>
  const { artifact } = await runCheck(scenario, claim, {
    test: TEST,
    defaults: {},
    env: process.env,
    signal: undefined,
    report: null,
    cwd: process.cwd(),
    root,
  })
  return ArtifactSchema.parse(artifact)
}

function rarely(target: AgentOrScenario, options: RarelyOptions, predicate: Predicate = refunded) {
  return artifactOf(target, claimOf('rarely', predicate, { seed: 1834512, ...options }, 'toRarely'))
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
    const options: UsuallyOptions = {
      atLeast: 0.95,
      attribute: { method: 'both' },
      seed: 99,
      label: 'return good',
    }
    const artifact = await artifactOf(
      andAgent(0.3).on({ q: 0.3 }),
      claimOf('usually', notBad, options, 'toUsually'),
    )
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
    const artifact = await rarely(crashing.on(null), { label: 'return bad' }, returnedBad)
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
      { allowErrors: true, attribute: false, label: 'return bad' },
      returnedBad,
    )
    expect(artifact.verdict.errors.count).toBeGreaterThan(0)
    expect(formatVerdictMessage(artifact)).toMatchSnapshot()
  })

  it('toNever: a pass reports the exact one-sided bound; a fail the first occurrence', async () => {
    const never = (target: AgentOrScenario, options: ZeroToleranceOptions) =>
      artifactOf(target, claimOf('never', refunded, { seed: 5, ...options }, 'toNever'))
    const pass = await never(supportAgent.on(carefulTicket), { rollouts: 30 })
    expect(pass.verdict.kind).toBe('pass')
    expect(formatVerdictMessage(pass)).toContain(
      'zero in 30: the rate is at most 9.5% (95% one-sided Clopper–Pearson bound, exact)',
    )
    const fail = await never(supportAgent.on(injectedTicket), { attribute: false })
    expect(formatVerdictMessage(pass) + '\n\n' + formatVerdictMessage(fail)).toMatchSnapshot()
  })

  it('toMatchRateBaseline: a regression with the paired interval of the difference', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'causal-replay-format-'))
    try {
      const claim = (update: 'new' | 'none') =>
        claimOf(
          'baseline',
          refunded,
          {
            attribute: false,
            seed: 3,
            file: join(dir, 'test/__baselines__/support.test.ts.rates.json'),
            name: 'support > keeps its refund rate 1',
            update,
          },
          'toMatchRateBaseline',
        )
      const created = await artifactOf(supportAgent.on(carefulTicket), claim('new'), dir)
      const regressed = await artifactOf(supportAgent.on(injectedTicket), claim('none'), dir)
      expect(regressed.verdict.kind).toBe('fail')
      expect(formatVerdictMessage(created) + '\n\n' + formatVerdictMessage(regressed)).toMatchSnapshot()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('toMatchRateBaseline: a reproduced run passes with the stored rate; another seed is undecided', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'causal-replay-format-'))
    try {
      const claim = (update: 'new' | 'none', seed: number, tolerance = 0) =>
        claimOf(
          'baseline',
          refunded,
          {
            attribute: false,
            seed,
            tolerance,
            file: join(dir, 'test/__baselines__/support.test.ts.rates.json'),
            name: 'support > keeps its refund rate 1',
            update,
          },
          'toMatchRateBaseline',
        )
      await artifactOf(supportAgent.on(carefulTicket), claim('new', 3), dir)
      const reproduced = await artifactOf(supportAgent.on(carefulTicket), claim('none', 3), dir)
      expect(reproduced.verdict.kind).toBe('pass')
      expect(reproduced.verdict.gate === 'baseline' && reproduced.verdict.baseline.finding).toBe('reproduced')
      const undecided = await artifactOf(supportAgent.on(carefulTicket), claim('none', 4), dir)
      expect(undecided.verdict.kind).toBe('fail')
      expect(undecided.verdict.gate === 'baseline' && undecided.verdict.baseline.finding).toBe('undecided')
      const within = await artifactOf(supportAgent.on(carefulTicket), claim('none', 4, 0.1), dir)
      expect(within.verdict.kind).toBe('pass')
      expect(
        [reproduced, undecided, within].map((artifact) => formatVerdictMessage(artifact)).join('\n\n'),
      ).toMatchSnapshot()
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
      schema: 'vitest-causal-replay/artifact@2',
      test: TEST,
      verdict: {
        gate: 'sequential',
        claim: 'rarely',
        kind: 'fail',
        agent: 'researcher',
        predicate: 'cite a retracted paper',
        confidence: 0.95,
        observed: estimate(12, 40),
        errors: { count: 0, examples: [] },
        rolloutsUsed: 40,
        rolloutsRun: 40,
        seed: 42,
        seedSource: 'option',
        allowErrors: false,
        replay: { seed: 42, rollout: 3 },
        bound: 0.1,
        maxRollouts: 400,
        decision: {
          interval: { point: 0.3, low: 0.12, high: 0.55, confidence: 0.9, method: 'confidence-sequence' },
          method: 'log-odds mixture e-process',
        },
        rolloutsToDecide: null,
        onInconclusive: 'fail',
        stop: 'decided',
      },
      failing: null,
      contrastive,
      shapley: null,
    }
    expect(formatVerdictMessage(ArtifactSchema.parse(artifact))).toMatchSnapshot()
  })
})

/** A failing `toRarely` artifact whose contrastive attribution has the given steps (no failing run). */
function attributedArtifact(
  steps: { index: number; name: string; action: unknown; evaluated: boolean; pBad: number }[],
  locus: number | null,
): Artifact {
  const estimate = (successes: number, n: number) => ({
    point: successes / n,
    low: Math.max(0, successes / n - 0.2),
    high: Math.min(1, successes / n + 0.2),
    successes,
    n,
    confidence: 0.95,
    method: 'wilson' as const,
  })
  const contrastive = ContrastiveResultSchema.parse({
    kind: 'contrastive',
    agent: 'long',
    factual: { seed: 7, rollout: 0 },
    steps: steps.map((step) => ({
      ...step,
      pBad: estimate(Math.round(step.pBad * 32), 32),
      effect: {
        point: step.pBad - 1,
        low: step.pBad - 1.2,
        high: step.pBad - 0.8,
        confidence: 0.95,
        method: 'tango',
      },
      pValue: step.index === locus ? 0.001 : 1,
      direction: step.index === locus ? 'rescues' : 'none',
      rescues: null,
      rolloutsUsed: step.evaluated ? 32 : 0,
    })),
    locus,
    baseline: estimate(32, 32),
    actionMatchRate: 1,
    rolloutsUsed: 32 * (1 + steps.filter((step) => step.evaluated).length),
    rolloutsPerStep: 32,
    search: 'binary',
    crn: true,
    sequential: false,
    confidence: 0.95,
    correction: 'holm',
    methods: { proportion: 'wilson', effect: 'tango', sequential: null },
    truncated: false,
  })
  return ArtifactSchema.parse({
    schema: 'vitest-causal-replay/artifact@2',
    test: TEST,
    verdict: {
      gate: 'sequential',
      claim: 'rarely',
      kind: 'fail',
      agent: 'long',
      predicate: 'return bad',
      confidence: 0.95,
      observed: estimate(9, 10),
      errors: { count: 0, examples: [] },
      rolloutsUsed: 10,
      rolloutsRun: 10,
      seed: 7,
      seedSource: 'option',
      allowErrors: false,
      replay: { seed: 7, rollout: 0 },
      bound: 0.1,
      maxRollouts: 400,
      decision: {
        interval: { point: 0.9, low: 0.5, high: 1, confidence: 0.9, method: 'confidence-sequence' },
        method: 'log-odds mixture e-process',
      },
      rolloutsToDecide: null,
      onInconclusive: 'fail',
      stop: 'decided',
    },
    failing: null,
    contrastive,
    shapley: null,
  })
}

describe('formatVerdictMessage on long runs, errors and hostile text', () => {
  it('folds the steps a binary search never evaluated; the locus and its neighbours keep their rows', () => {
    // 2,000 steps, the binary search evaluated 11 of them and found the locus at 1,500.
    const evaluated = new Set([0, 1, 2, 1000, 1500, 1750, 1875, 1937, 1968, 1984, 1999])
    const steps = Array.from({ length: 2000 }, (_, index) => ({
      index,
      name: `step-${index}`,
      action: index,
      evaluated: evaluated.has(index),
      pBad: index >= 1500 ? 1 : 0.1,
    }))
    const artifact = attributedArtifact(steps, 1500)
    const summary = formatVerdictMessage(artifact)
    const lines = summary.split('\n')
    expect(lines.length).toBeLessThan(40)
    expect(summary).toMatch(/\n {2}▶ 1500 +step-1500 .*← causal locus\n/)
    expect(summary).toMatch(/\n {4}1499 +step-1499 +1499 +— +—\n/)
    expect(summary).toMatch(/\n {4}1501 +step-1501 +1501 +— +—\n/)
    expect(summary).toContain('\n    …  steps 3–999 not evaluated (binary search)\n')
    expect(summary).toContain('\n    …  steps 1,001–1,498 not evaluated (binary search)\n')
    expect(summary).toContain('\n    …  steps 1,502–1,749 not evaluated (binary search)\n')
    expect(summary).toContain('\n    …  steps 1,985–1,998 not evaluated (binary search)\n    1999 ')
    expect(lines.filter((line) => line.includes('not evaluated')).length).toBe(8)
    // `causal-replay show` asks for every row: 13 kept rows and 8 gap lines become 2,000 rows.
    const all = formatVerdictMessage(artifact, { steps: 'all' })
    expect(all).not.toContain('not evaluated')
    expect(all.split('\n').length).toBe(lines.length - 8 + 2000 - 13)
  })

  it('shows an error example whole, wrapped, never cut: the Date an action may not be', async () => {
    const dated = defineAgent({
      name: 'dated',
      input: null,
      async run(_input, ctx) {
        await ctx.step('plan', () => 'go')
        return ctx.step('decide', () => new Date(0) as unknown as string)
      },
    })
    const artifact = await rarely(dated.on(null), { label: 'return bad' }, returnedBad)
    const [example] = artifact.verdict.errors.examples
    expect(example?.error.name).toBe('NotJsonError')
    const message = formatVerdictMessage(artifact)
    expect(message).toContain('a Date instance')
    const unwrapped = message.replace(/\n {8}/g, ' ')
    expect(unwrapped).toContain(
      `    rollout ${example?.rollout}: not-json, NotJsonError: ${example?.error.message}`,
    )
    expect(Math.max(...message.split('\n').map((line) => line.length))).toBeLessThanOrEqual(112)
  })

  it('a passing gate with allowed errors still counts them in its message', async () => {
    const timing = defineAgent({
      name: 'timing',
      input: null,
      async run(_input, ctx) {
        const action = await ctx.step('decide', () => 'good')
        if (ctx.rollout.index % 6 === 5) throw new Error('upstream timed out')
        return action
      },
    })
    const artifact = await rarely(
      timing.on(null),
      { allowErrors: true, attribute: false, label: 'return bad' },
      returnedBad,
    )
    expect(artifact.verdict.kind).toBe('pass')
    const { errors, rolloutsUsed } = artifact.verdict
    expect(errors.count).toBeGreaterThan(0)
    expect(formatVerdictMessage(artifact)).toContain(
      `  ${errors.count} rollouts of ${rolloutsUsed} ended in an error, left out of the rate (allowErrors):\n    rollout 5: threw, Error: upstream timed out`,
    )
  })

  it('shows bidi controls in step names, actions and errors as escapes', () => {
    const artifact = attributedArtifact(
      [
        { index: 0, name: 'look\u202eup', action: { r: '\u202e1' }, evaluated: true, pBad: 1 },
        { index: 1, name: 'decide', action: 'ok\u2066', evaluated: true, pBad: 0 },
      ],
      1,
    )
    artifact.verdict.errors = {
      count: 1,
      examples: [{ rollout: 2, error: { kind: 'threw', name: 'Error', message: 'bad \u202e input' } }],
    }
    const message = formatVerdictMessage(artifact)
    expect(message).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/)
    expect(message).toContain('look\\u202eup')
    expect(message).toContain('{"r":"\\u202e1"}')
    expect(message).toContain('"ok\\u2066"')
    expect(message).toContain('Error: bad \\u202e input')
  })
})
