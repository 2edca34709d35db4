// Artifacts for the report and CLI tests, made the way the `toRarely` matcher makes them: the real
// sequential gate, then contrastive and Shapley attribution of the first failing rollout. Agents are
// synthetic and seeded, so every artifact is the same on every run.
import { injectedTicket, supportAgent } from '../../examples/support-agent/agent.js'
import { toScenario, type AgentOrScenario } from '../../src/agent/define-agent.js'
import { calledTool, defineAgent, type Trajectory } from '../../src/index.js'
import { buildArtifact } from '../../src/verdict/artifact.js'
import { diagnose } from '../../src/verdict/diagnose.js'
import { predicateLabel } from '../../src/verdict/label.js'
import { resolveSequentialGate, type RarelyOptions } from '../../src/verdict/options.js'
import { ArtifactSchema, type Artifact } from '../../src/verdict/schema.js'
import { runSequentialGate } from '../../src/verdict/sequential-gate.js'

/** Runs `expect(agent).toRarely(predicate, options)`'s gate and attribution; returns the artifact. */
export async function rarelyArtifact(
  target: AgentOrScenario,
  predicate: (trajectory: Trajectory) => boolean,
  options: RarelyOptions & { seed: number },
  test = { name: 'rarely refunds wrongly', file: 'test/support.test.ts' },
): Promise<Artifact> {
  const resolved = resolveSequentialGate('toRarely', options, {}, options.seed)
  const scenario = toScenario(target, 'rarelyArtifact')
  const run = await runSequentialGate(
    scenario,
    {
      matcher: 'toRarely',
      agent: scenario.agent.name,
      predicate,
      label: predicateLabel(predicate),
      seedSource: 'option',
    },
    resolved,
    undefined,
  )
  const diagnosis = await diagnose(scenario, run, resolved, undefined)
  // Round-trip through JSON and the schema, as the CLI reads it back.
  return ArtifactSchema.parse(JSON.parse(JSON.stringify(buildArtifact(test, run, diagnosis))))
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
