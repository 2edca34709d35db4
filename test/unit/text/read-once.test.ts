// Numbers that read once: an interval is never cut inside, one line never mixes sign conventions,
// a rate over no rollout says why instead of printing [0%, 100%], and a baseline gate's locus says
// it is one failing rollout's.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { renderReportHtml } from '../../../src/html/html.js'
import { check, defineAgent, rarely } from '../../../src/index.js'
import { rateText } from '../../../src/text/summary-table.js'
import { BASELINE_LOCUS_NOTE } from '../../../src/text/attribution.js'
import { formatVerdictMessage } from '../../../src/text/verdict-message.js'
import { annotationMessage } from '../../../src/vitest/annotation.js'
import { baselineArtifact, supportArtifact } from '../html/artifacts.js'

const NUMBERS = ' in 6/10 rollouts, 60.0% [31.3%–83.2%] (95% Wilson)'
/** The numbers as the annotation writes them: in ASCII. */
const ASCII_NUMBERS = ' in 6/10 rollouts, 60.0% [31.3%-83.2%] (95% Wilson)'

describe('the annotation line (and the attachment file named after it)', () => {
  it('keeps the numbers whole: the predicate label gives way, at its end', () => {
    const label = `call ${'very_long_tool_name_'.repeat(6)}`
    const message = annotationMessage('fail', label, NUMBERS, { index: 2, name: 'model#3' })
    expect(Array.from(message).length).toBeLessThanOrEqual(120)
    expect(message).toContain(ASCII_NUMBERS)
    expect(message).toMatch(/^fail: call very_\S*\.\.\. in 6\/10 rollouts/)
    expect(message.endsWith('; causal locus: step 2 (model#3)')).toBe(true)
  })

  it('drops the step name before it would cut a number, and keeps a short line as it is', () => {
    const message = annotationMessage('fail', 'x'.repeat(90), NUMBERS, { index: 12, name: 'n'.repeat(40) })
    expect(message).toContain(ASCII_NUMBERS)
    expect(message.endsWith('; causal locus: step 12')).toBe(true)
    expect(annotationMessage('pass', 'refund', NUMBERS, null)).toBe(`pass: refund${ASCII_NUMBERS}`)
  })

  it("labels a baseline gate's locus as one failing rollout's", () => {
    expect(annotationMessage('fail', 'refund', NUMBERS, { index: 1, name: 'decide' }, true)).toBe(
      `fail: refund${ASCII_NUMBERS}; locus of one failing rollout: step 1 (decide)`,
    )
  })

  it('is ASCII, so the attachment file named after it is: dashes, ellipses, ≥ and accents have ASCII forms', () => {
    const rate = annotationMessage('fail', 'café’s “réponse” ≥ 1', NUMBERS, {
      index: 3,
      name: 'modèle#2 — 検索',
    })
    expect(rate).toBe(`fail: cafe's "reponse" >= 1${ASCII_NUMBERS}; causal locus: step 3 (modele#2 - ??)`)
    const score = annotationMessage(
      'fail',
      'helpfulness',
      [': mean 0.433 [0.204–0.695] (90% betting confidence sequence), claim ≥ 0.7'],
      null,
    )
    expect(score).toBe(
      'fail: helpfulness: mean 0.433 [0.204-0.695] (90% betting confidence sequence), claim >= 0.7',
    )
    const cut = annotationMessage('fail', `call ${'é'.repeat(200)}`, NUMBERS, null)
    expect(cut).toMatch(/^[\x20-\x7e]+$/)
    expect(cut).toContain(`e...${ASCII_NUMBERS}`)
  })
})

describe('a rate over no completed rollout', () => {
  it('reads as such in the summary, not as 0.0% [0.0%–100.0%]', () => {
    const none = {
      point: 0,
      low: 0,
      high: 1,
      successes: 0,
      n: 0,
      confidence: 0.95,
      method: 'wilson',
    } as const
    expect(rateText(none)).toBe('no rollout completed')
  })

  it('an offline cassette miss says so instead of observed 0/0', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'causal-replay-offline-'))
    // The repository's test config turns cassettes off through the environment, which wins.
    vi.stubEnv('CAUSAL_REPLAY_CACHE', 'offline')
    try {
      const agent = defineAgent({
        name: 'cached',
        input: null,
        async run(_input, ctx) {
          return ctx.step('decide', (rng) => (rng() < 0.5 ? 'a' : 'b'), { cache: true })
        },
      })
      const result = await check(
        agent,
        rarely((trajectory) => trajectory.output === 'a', { seed: 1 }),
        {
          cache: { file: join(folder, 'none.cassette.json'), mode: 'offline' },
        },
      )
      const [, observed] = result.message.split('\n')
      expect(observed).toBe(
        '  observed: no rollout completed: cassette miss on step 0 "decide" of rollout 0 (offline)  → fail',
      )
    } finally {
      vi.unstubAllEnvs()
      await rm(folder, { recursive: true, force: true })
    }
  })
})

describe('one sign convention per line', () => {
  it("the page gives a step's own part of the effect in the effect's sign", async () => {
    const page = renderReportHtml(await supportArtifact())
    expect(page).not.toContain('rescue by this step alone')
    const captions =
      page.match(/effect [-+]?\d\.\d\d \[[^\]]*\][^\n]*?this step's own part of the effect [-+]?\d\.\d\d/g) ??
      []
    expect(captions.length).toBeGreaterThan(0)
    // The locus rescues, and most of it is its own: both read negative.
    expect(
      captions.some((caption) => /^effect -0\.\d\d .* own part of the effect -0\.\d\d$/.test(caption)),
    ).toBe(true)
  })
})

describe("a baseline gate's locus", () => {
  it('is labelled as one failing rollout, not the cause of the change, in the message and on the page', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'causal-replay-baseline-locus-'))
    const refunder = (p: number) =>
      defineAgent({
        name: 'refunder',
        input: null,
        async run(_input, ctx) {
          await ctx.step('lookup', () => 'order')
          return await ctx.step('decide', (rng) => (rng() < p ? 'refund' : 'escalate'))
        },
      })
    const refunded = (trajectory: { output?: unknown }) => trajectory.output === 'refund'
    try {
      const file = join(folder, 'test', '__baselines__', 'rates.json')
      await baselineArtifact(refunder(0.05), refunded, { seed: 3 }, file)
      const artifact = await baselineArtifact(refunder(0.5), refunded, { seed: 3 }, file)
      expect(artifact.verdict.kind).toBe('fail')
      expect(artifact.contrastive?.locus).toEqual(expect.any(Number))
      const message = formatVerdictMessage(artifact)
      expect(message).toContain(BASELINE_LOCUS_NOTE)
      expect(message).not.toContain('← causal locus')
      expect(renderReportHtml(artifact)).toContain(
        '<div class="stat-label">Locus of one failing rollout, not the cause of the change</div>',
      )
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })
})
