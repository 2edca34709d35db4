import { beforeAll, describe, expect, it } from 'vitest'
import { injectedTicket, supportAgent } from '../../../examples/support-agent/agent.js'
import { contrastive } from '../../../src/entries/attribution.js'
import { renderAttribution } from '../../../src/html/attribution.js'
import { calledTool } from '../../../src/index.js'
import { formatContrastive } from '../../../src/text/attribution.js'
import type { Artifact } from '../../../src/verdict/schema.js'
import { supportArtifact } from './artifacts.js'

const refundWrongly = calledTool('issue_refund')

/** The contrastive figure's caption, tags stripped. */
function caption(artifact: Artifact): string {
  const html = String(renderAttribution(artifact))
  const match = /<figure id="chart-contrastive"[\s\S]*?<figcaption>([\s\S]*?)<\/figcaption>/.exec(html)
  expect(match).not.toBeNull()
  return (match?.[1] ?? '').replace(/<[^>]*>/g, '').replace(/&#39;/g, "'")
}

describe('contrastive intervals match the locus test', () => {
  let sequential: Artifact
  let fixed: Artifact
  beforeAll(async () => {
    sequential = await supportArtifact()
    // The matchers always attribute sequentially; the fixed-sample design is contrastive's option.
    const factual = sequential.failing
    if (factual === null) throw new Error('the support artifact has no failing run')
    const contrastiveResult = await contrastive(supportAgent.on(injectedTicket), factual, {
      isBad: refundWrongly,
      seed: sequential.contrastive?.seed ?? 2024,
      rollouts: 32,
      sequential: false,
    })
    fixed = { ...sequential, contrastive: contrastiveResult }
  })

  it('prints the effects two-sided at 90% for a 95% attribution, and a locus interval below 0', () => {
    for (const artifact of [sequential, fixed]) {
      const result = artifact.contrastive
      expect(result).not.toBeNull()
      if (result === null) return
      const lines = formatContrastive(result, artifact.failing)
      expect(lines[1]).toContain('effect [90% CI]')
      const locus = result.steps.find((step) => step.index === result.locus)
      expect(locus?.effect.confidence).toBeCloseTo(0.9, 12)
      expect(locus?.effect.high).toBeLessThan(0)
      expect(lines.join('\n')).toMatch(
        /locus: the latest step whose one-sided rescue test .*rejects at 5% after Holm over \d+ steps \(intervals are not Holm-adjusted\)/,
      )
    }
  })

  it('names the continuity-corrected Tango interval, and its fallback, for fixed-sample paired arms', () => {
    const result = fixed.contrastive
    if (result === null) throw new Error('no attribution')
    expect(formatContrastive(result, fixed.failing).join('\n')).toContain(
      'effect two-sided 90% Tango score interval with continuity correction ½, or the paired betting confidence sequence where ≥ 90% of pairs are discordant (its upper end is the one-sided 95% bound)',
    )
    expect(caption(fixed)).toContain(
      'two-sided 90% Tango score interval with continuity correction ½, or the paired betting confidence sequence where ≥ 90% of pairs are discordant — each upper end is the one-sided 95% bound that the rescue test inverts',
    )
    expect(caption(fixed)).not.toContain('stopped early')
  })

  it('says, for a sequential attribution, that the points lean away from 0 and by how much', () => {
    const text = caption(sequential)
    expect(text).toContain('two-sided 90% anytime-valid confidence sequence, intersected over the looks')
    expect(text).toContain('Points come from arms that stopped early once the evidence was strong')
    expect(text).toContain('about 0.02 per effect')
  })
})
