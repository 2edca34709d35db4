// Artifacts for the report and CLI tests, made the way the `toRarely` matcher makes them: the real
// sequential gate, then contrastive and Shapley attribution of the first failing rollout. Agents are
// synthetic and seeded, so every artifact is the same on every run.
import { dirname } from 'node:path'
import { injectedTicket, supportAgent } from '../../../examples/support-agent/agent.js'
import { toScenario, type AgentOrScenario } from '../../../src/agent/define-agent.js'
import type { Scenario } from '../../../src/agent/types.js'
import { runCheck } from '../../../src/check/check.js'
import { claimOf, type Claim } from '../../../src/check/claims.js'
import { calledTool, defineAgent, type Trajectory } from '../../../src/index.js'
import type { BaselineOptions, RarelyOptions, ZeroToleranceOptions } from '../../../src/verdict/options.js'
import { ArtifactSchema, type Artifact } from '../../../src/verdict/schema.js'

/** Runs `expect(agent).toRarely(predicate, options)`'s pipeline; returns the artifact. */
export function rarelyArtifact(
  target: AgentOrScenario,
  predicate: (trajectory: Trajectory) => boolean,
  options: RarelyOptions & { seed: number },
  test = { name: 'rarely refunds wrongly', file: 'test/support.test.ts' },
): Promise<Artifact> {
  return artifactOf(target, claimOf('rarely', predicate, options, 'toRarely'), test)
}

/** Runs `expect(agent).toNever(predicate, options)`'s pipeline; returns the artifact. */
export function neverArtifact(
  target: AgentOrScenario,
  predicate: (trajectory: Trajectory) => boolean,
  options: ZeroToleranceOptions & { seed: number },
): Promise<Artifact> {
  return artifactOf(target, claimOf('never', predicate, options, 'toNever'), {
    name: 'never refunds',
    file: 'test/never.test.ts',
  })
}

/**
 * Runs `expect(agent).toMatchRateBaseline(predicate, options)`'s pipeline against the baseline file
 * `file`, which must lie at `<root>/test/__baselines__/rates.json` of some root (messages show it
 * relative to that root).
 */
export function baselineArtifact(
  target: AgentOrScenario,
  predicate: (trajectory: Trajectory) => boolean,
  options: BaselineOptions & { seed: number },
  file: string,
): Promise<Artifact> {
  const claim = claimOf(
    'baseline',
    predicate,
    { ...options, file, name: 'refunds', update: 'new' },
    'toMatchRateBaseline',
  )
  const root = dirname(dirname(dirname(file)))
  return artifactOf(target, claim, { name: 'refund rate', file: 'test/rate.test.ts' }, root)
}

/** The matcher's pipeline, its artifact read back as the CLI would. */
async function artifactOf(
  target: AgentOrScenario,
  claim: Claim,
  test: { name: string; file: string },
  root = process.cwd(),
): Promise<Artifact> {
  const scenario = toScenario(target, 'artifact') as Scenario<unknown, unknown>
  const { artifact } = await runCheck(scenario, claim, {
    test,
    defaults: {},
    env: process.env,
    signal: undefined,
    report: null,
    cwd: process.cwd(),
    root,
  })
  return ArtifactSchema.parse(JSON.parse(JSON.stringify(artifact)))
}

const refundWrongly = calledTool('issue_refund')
Object.defineProperty(refundWrongly, 'name', { value: 'refundWrongly' })

/** The paper's demo: the support agent on the injected ticket fails "rarely refunds wrongly (≤ 5%)". */
export function supportArtifact(): Promise<Artifact> {
  return rarelyArtifact(
    supportAgent.on(injectedTicket),
    refundWrongly,
    { atMost: 0.05, seed: 2024, attribute: { rollouts: 32, method: 'both' } },
    { name: 'rarely refunds wrongly on the injected ticket', file: 'examples/support-agent/support.test.ts' },
  )
}

/** Markup an attacker might plant in agent output; none of it may run in the report. */
export const PLANTED = {
  script: '<script>window.__pwned = "script"</script>',
  image: '<img src=x onerror="window.__pwned = \'img\'">',
  closer: '</script><script>window.__pwned = "json"</script>',
} as const

/**
 * An agent whose step actions, tool results, step names and output carry planted markup, with a
 * pivotal decision (bad 60% of the time) so the gate fails and attribution finds the locus.
 */
export const plantedAgent = defineAgent({
  name: 'planted<b>agent</b>',
  input: { page: 'https://example.invalid/order' },
  async run(_input, ctx) {
    const read = await ctx.step('read_page', () => `summarise ${PLANTED.script}`, {
      context: [PLANTED.closer],
    })
    await ctx.tool('fetch_page', { note: read }, () => ({ html: PLANTED.image, text: PLANTED.script }))
    const decision = await ctx.step(
      `decide ${PLANTED.image}`,
      (rng) => (rng() < 0.6 ? 'refund' : 'escalate'),
      {
        context: { page: PLANTED.image },
      },
    )
    if (decision === 'refund') await ctx.tool('issue_refund', { amount: 99 }, () => ({ ok: PLANTED.closer }))
    return await ctx.step('reply', (rng) => (rng() < 0.5 ? PLANTED.script : PLANTED.image))
  },
})

/** A failing artifact of {@link plantedAgent}, with both attributions, under a test name that carries markup too. */
export function plantedArtifact(): Promise<Artifact> {
  return rarelyArtifact(
    plantedAgent,
    refundWrongly,
    { atMost: 0.05, seed: 99, attribute: { rollouts: 32, method: 'both' } },
    { name: `rarely refunds ${PLANTED.script}`, file: 'test/<planted>.test.ts' },
  )
}
