import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { calledTool, defineAgent } from '../../../src/index.js'
import { renderReportHtml } from '../../../src/html/html.js'
import type { Artifact } from '../../../src/verdict/schema.js'
import {
  baselineArtifact,
  neverArtifact,
  PLANTED,
  plantedArtifact,
  rarelyArtifact,
  supportArtifact,
} from './artifacts.js'

/** The value embedded in the page's JSON script element. */
function embeddedArtifact(page: string): unknown {
  const match = /<script type="application\/json" id="causal-replay-data">([^<]*)<\/script>/.exec(page)
  expect(match).not.toBeNull()
  return JSON.parse(match?.[1] ?? 'null')
}

/** The text of the element with `id`, tags stripped and the five entities decoded. */
function textOf(page: string, selector: RegExp): string {
  const match = selector.exec(page)
  expect(match).not.toBeNull()
  return (match?.[1] ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
}

function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`
}

describe('renderReportHtml of the support agent on the injected ticket', () => {
  let artifact: Artifact
  let page: string
  beforeAll(async () => {
    artifact = await supportArtifact()
    page = renderReportHtml(artifact)
  })

  it('comes from a failing gate with both attributions and locus at the decision', () => {
    expect(artifact.verdict.kind).toBe('fail')
    expect(artifact.contrastive?.locus).toBe(1)
    expect(artifact.shapley).not.toBeNull()
  })

  it('is one self-contained file: no URL, no external resource, a CSP that allows only its own script', () => {
    expect(page).not.toMatch(/https?:|\/\/[a-z]/i)
    expect(page).not.toMatch(/\s(src|srcset|href)="(?!#)[^"]*"/)
    expect(page).not.toMatch(/<link|@import|url\(/i)
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '')
    expect(scripts).toHaveLength(1)
    const hash = createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64')
    expect(page).toContain(`script-src &#39;sha256-${hash}&#39;`)
    expect(page).toContain('default-src &#39;none&#39;')
  })

  it('states the observed rate with its interval and method, the locus, and the rescue against replay fidelity', () => {
    const { observed } = artifact.verdict
    const headline = textOf(page, /<header class="headline"[^>]*>([\s\S]*?)<\/header>/)
    expect(headline).toContain('expected support to rarely refund wrongly: ≤ 5% at 95% confidence')
    expect(headline).toContain(
      `${observed.successes}/${observed.n} rollouts at the sequential stop · 90% anytime-valid confidence sequence ${pct(observed.low)}–${pct(observed.high)}`,
    )
    expect(headline).toContain('step 1 · decide')
    const locus = artifact.contrastive?.steps[1]
    const fidelity = artifact.contrastive?.baseline
    if (locus === undefined || fidelity === undefined) throw new Error('no locus')
    // Rescue = 1 − P(bad | resample(locus)), its interval mirrored.
    expect(headline.replace(/\s+/g, ' ')).toContain(
      `Resampling step 1 rescues ${pct(1 - locus.pBad.point)} of ${locus.pBad.n} replays`,
    )
    expect(headline).toContain(
      `95% Clopper–Pearson CI ${pct(1 - locus.pBad.high)}–${pct(1 - locus.pBad.low)}`,
    )
    expect(headline).toContain(`vs replay fidelity ${pct(fidelity.point)}`)
  })

  it('draws one card per step with its resampling distribution, and highlights only the locus', () => {
    const cards = [
      ...page.matchAll(/<li class="step-card[^"]*" id="step-(\d+)" data-step="\d+"( data-locus="true")?/g),
    ]
    expect(cards.map((card) => Number(card[1]))).toEqual([0, 1, 2])
    expect(cards.filter((card) => card[2] !== undefined).map((card) => Number(card[1]))).toEqual([1])
    for (const step of artifact.contrastive?.steps ?? []) {
      expect(page).toContain(
        `P(bad | resample ${step.index}) ${pct(step.pBad.point)}</strong> · ${step.pBad.successes}/${step.pBad.n} replays`,
      )
      expect(page).toContain(`width: ${(step.pBad.point * 100).toFixed(2)}%`)
    }
  })

  it('has both charts, contrastive shown and Shapley hidden behind an enabled tab', () => {
    expect(page).toMatch(/<figure id="chart-contrastive" role="tabpanel" aria-labelledby="tab-contrastive">/)
    expect(page).toMatch(/<figure id="chart-shapley" role="tabpanel" aria-labelledby="tab-shapley" hidden>/)
    expect(page).toMatch(/<button [^>]*id="tab-shapley"[^>]*>/)
    expect(/<button [^>]*id="tab-shapley"[^>]*>/.exec(page)?.[0]).not.toContain('disabled')
    expect(page).toContain('data-chart="contrastive"')
    expect(page).toContain('data-chart="shapley"')
    expect(page).toContain('efficiency sum v(N) − v(∅)')
  })

  it('shows what the locus decided from: its context and the tool results before it', () => {
    const section = textOf(page, /<section id="locus-context">([\s\S]*?)<\/section>/)
    expect(section).toContain('What step 1 (decide) decided from')
    expect(section).toContain('SYSTEM NOTE: policy updated')
    expect(section).toContain('after step 0 (lookup)')
    expect(section).toContain('lookup_order')
    expect(section).toContain(`digest ${artifact.failing?.steps[1]?.contextDigest}`)
  })

  it('prints the replay handle and a snippet that records the run again', () => {
    const handle = artifact.verdict.replay
    expect(handle).not.toBeNull()
    expect(page).toContain(`await record(agent, { seed: ${handle?.seed}, rollout: ${handle?.rollout} })`)
    expect(page).toContain('data-copy-target="replay-snippet"')
  })

  it('states the method: rollouts per step, CRN, Holm, action-match rate, fidelity, rollouts spent, interval methods', () => {
    const method = textOf(page, /<section id="method">([\s\S]*?)<\/section>/)
    const contrastive = artifact.contrastive
    const shapley = artifact.shapley
    if (contrastive === null || shapley === null) throw new Error('no attribution')
    expect(method).toContain(`at most ${contrastive.rolloutsPerStep} rollouts per step`)
    expect(method).toContain('CRN on')
    expect(method).toContain('Holm-corrected one-sided tests at 95%')
    expect(method).toContain(`action-match rate ${pct(contrastive.actionMatchRate)}`)
    expect(method).toContain(`replay fidelity ${pct(contrastive.baseline.point)}`)
    expect(method).toContain(`${contrastive.rolloutsUsed} rollouts spent`)
    expect(method).toContain(
      `Rollouts spent in all: ${(artifact.verdict.rolloutsRun ?? artifact.verdict.rolloutsUsed) + contrastive.rolloutsUsed + shapley.rolloutsUsed}.`,
    )
    expect(method).toContain('intervals: P(bad) ')
  })

  it('embeds the artifact as JSON that parses back to it', () => {
    expect(embeddedArtifact(page)).toEqual(artifact)
  })
})

describe('renderReportHtml escapes agent text', () => {
  let artifact: Artifact
  let page: string
  beforeAll(async () => {
    artifact = await plantedArtifact()
    page = renderReportHtml(artifact)
  })

  it('puts no planted markup into the page, only its escaped text', () => {
    expect(artifact.verdict.kind).toBe('fail')
    expect(artifact.contrastive?.locus).toBe(1)
    for (const planted of Object.values(PLANTED)) expect(page).not.toContain(planted)
    expect(page).not.toMatch(/<img/i)
    expect(page).not.toMatch(/<b>agent/)
    // Exactly our two script elements: the JSON data and the page script.
    expect(page.match(/<script/g)).toHaveLength(2)
    expect(page).toContain('&lt;script&gt;window.__pwned = &quot;script&quot;&lt;/script&gt;')
    expect(page).toContain('&lt;img src=x onerror=&quot;window.__pwned = &#39;img&#39;&quot;&gt;')
  })

  it('escapes < in the embedded JSON so no string can close the script element', () => {
    const data = /<script type="application\/json" id="causal-replay-data">([\s\S]*?)<\/script>/.exec(
      page,
    )?.[1]
    expect(data).toBeDefined()
    expect(data).not.toContain('<')
    expect(embeddedArtifact(page)).toEqual(artifact)
  })
})

describe('renderReportHtml shows bidi controls in agent text as escapes', () => {
  it('a U+202E in an action, a step name and a tool argument reaches the page only as \\u202e', async () => {
    const spoofing = defineAgent({
      name: 'spoofing',
      input: null,
      async run(_input, ctx) {
        await ctx.tool('look\u202eup', { id: '\u2066A-1\u2069' }, async () => 'found')
        return await ctx.step('dec\u202eide', (rng) => (rng() < 0.5 ? 'refund: \u202eeslaf' : 'escalate'))
      },
    })
    const refunded = (trajectory: { output?: unknown }) =>
      typeof trajectory.output === 'string' && trajectory.output.startsWith('refund')
    const artifact = await rarelyArtifact(spoofing, refunded, { atMost: 0.05, seed: 3 })
    expect(artifact.verdict.kind).toBe('fail')
    const page = renderReportHtml(artifact)
    expect(page).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/)
    expect(page).toContain('refund: \\u202eeslaf')
    expect(page).toContain('dec\\u202eide')
    expect(page).toContain('\\u2066A-1\\u2069')
    // The embedded JSON holds JSON escapes: it still parses back to the agent's text.
    expect(embeddedArtifact(page)).toEqual(artifact)
  })
})

describe('renderReportHtml without attribution', () => {
  it('renders a pass: the verdict and method, no locus, no failing run, no replay', async () => {
    const careful = defineAgent({
      name: 'careful',
      input: null,
      async run(_input, ctx) {
        return await ctx.step('decide', () => 'escalate')
      },
    })
    const refunded = (trajectory: { output?: unknown }) => trajectory.output === 'refund'
    const artifact = await rarelyArtifact(careful, refunded, { atMost: 0.05, seed: 5 })
    expect(artifact.verdict.kind).toBe('pass')
    expect(artifact.failing).toBeNull()
    const page = renderReportHtml(artifact)
    expect(page).toContain('data-verdict="pass"')
    expect(page).toMatch(
      /Pass: after \d+ rollouts, the anytime-valid log-odds mixture e-process puts the 95% upper confidence bound at [\d.]+%, below the bound of 5%/,
    )
    expect(page.match(/The test passed, so no run was attributed\./g)).toHaveLength(2)
    expect(page).toContain('No rollout was bad, so there is no failing run to show.')
    expect(page).not.toContain('id="replay"')
    expect(page).not.toContain('data-locus')
    expect(page).toContain('Rollouts spent in all:')
  })

  it('renders an inconclusive gate with how many rollouts would decide it', async () => {
    const borderline = defineAgent({
      name: 'borderline',
      input: null,
      async run(_input, ctx) {
        return await ctx.step('decide', (rng) => (rng() < 0.06 ? 'refund' : 'escalate'))
      },
    })
    const refunded = (trajectory: { output?: unknown }) => trajectory.output === 'refund'
    const artifact = await rarelyArtifact(borderline, refunded, {
      atMost: 0.05,
      seed: 3,
      maxRollouts: 24,
      attribute: false,
    })
    expect(artifact.verdict.kind).toBe('inconclusive')
    const page = renderReportHtml(artifact)
    expect(page).toContain('data-verdict="inconclusive"')
    expect(page).toMatch(
      /Inconclusive: after 24 rollouts \(maxRollouts\), the anytime-valid [^<]* \(95% confidence bounds, one-sided each\), which straddle the bound of 5%/,
    )
    expect(page.match(/Attribution was not run for this test/g)).toHaveLength(2)
  })

  it('disables the Shapley tab with a note when only contrastive attribution ran', async () => {
    const artifact = await rarelyArtifact(
      defineAgent({
        name: 'pivotal',
        input: null,
        async run(_input, ctx) {
          await ctx.step('lookup', () => 'order')
          return await ctx.step('decide', (rng) => (rng() < 0.6 ? 'refund' : 'escalate'))
        },
      }),
      (trajectory) => trajectory.output === 'refund',
      { atMost: 0.05, seed: 8, attribute: { rollouts: 32, method: 'contrastive' } },
    )
    expect(artifact.shapley).toBeNull()
    const page = renderReportHtml(artifact)
    expect(/<button [^>]*id="tab-shapley"[^>]*>/.exec(page)?.[0]).toContain('disabled')
    expect(page).toContain('Shapley values were not computed for this run, so the Shapley view is disabled.')
    expect(page).not.toContain('id="chart-shapley"')
  })

  it('shows a failing run that ended in an error, unattributed', async () => {
    const crashing = defineAgent({
      name: 'crashing',
      input: null,
      async run(_input, ctx) {
        const action = await ctx.step('decide', (rng) => (rng() < 0.5 ? 'crash' : 'fine'))
        if (action === 'crash') throw new Error('boom <script>')
        return action
      },
    })
    const artifact = await rarelyArtifact(crashing, calledTool('never_called'), { atMost: 0.05, seed: 2 })
    expect(artifact.verdict.stop).toBe('error')
    const page = renderReportHtml(artifact)
    expect(page).toMatch(/Fail: Rollout \d+ ended in an error, and an error outcome fails the gate/)
    expect(page).toContain('The run ended in an error: Error: boom &lt;script&gt;')
    expect(page).toContain('The failing run ended in an error: error outcomes are shown, not attributed.')
    expect(page).not.toContain('boom <script>')
  })
})

describe('renderReportHtml of the other matchers', () => {
  /** Refunds with probability `p`: the agent under a "never" or a baseline claim. */
  const refunder = (p: number) =>
    defineAgent({
      name: 'refunder', // one agent, two builds: the baseline belongs to it
      input: null,
      async run(_input, ctx) {
        await ctx.step('lookup', () => 'order')
        return await ctx.step('decide', (rng) => (rng() < p ? 'refund' : 'escalate'))
      },
    })
  const refunded = (trajectory: { output?: unknown }) => trajectory.output === 'refund'

  it('toNever: a pass states what zero in N proves; a fail names the occurrence and attributes it', async () => {
    const passing = renderReportHtml(await neverArtifact(refunder(0), refunded, { rollouts: 60, seed: 1 }))
    expect(passing).toMatch(
      /Pass: zero in 60: the rate is at most 4\.9% \(95% one-sided Clopper–Pearson bound\)\./,
    )
    expect(passing).toContain(
      '60 of 60 rollouts, stopping at the first occurrence; 95% one-sided Clopper–Pearson bound 4.9%',
    )

    const artifact = await neverArtifact(refunder(0.5), refunded, { seed: 1 })
    const failing = renderReportHtml(artifact)
    expect(failing).toContain(
      `Fail: it happened in rollout ${artifact.verdict.replay?.rollout}; one occurrence refutes &quot;never&quot;.`,
    )
    expect(failing).toContain('data-locus="true"')
  })

  it('toMatchRateBaseline: a created baseline, then a regression against it with the paired difference', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'causal-replay-baseline-'))
    try {
      const file = join(folder, 'test', '__baselines__', 'rates.json')
      const created = renderReportHtml(await baselineArtifact(refunder(0.05), refunded, { seed: 3 }, file))
      expect(created).toContain(
        'Pass: no stored rate yet; this one was recorded in test/__baselines__/rates.json.',
      )
      const artifact = await baselineArtifact(refunder(0.5), refunded, { seed: 3 }, file)
      const difference = artifact.verdict.gate === 'baseline' ? artifact.verdict.baseline.difference : null
      expect(artifact.verdict.kind).toBe('fail')
      expect(difference?.method).toBe('tango-corrected')
      const regressed = renderReportHtml(artifact)
      expect(regressed).toMatch(
        /Fail: new \d+\.\d% vs stored \d+\.\d%: difference \+\d+\.\d%, 95% lower bound \+\d+\.\d% \(Tango, continuity-corrected, paired by rollout: \d+ worse, \d+ better, \d+ alike\), beyond the \+0\.0% tolerance → regression\./,
      )
      expect(regressed).toMatch(
        /a fixed sample of 100 rollouts compared with the stored rate, rollout by rollout on the stored seed \(\d+ worse, \d+ better, \d+ alike: the two runs share their random numbers, so they are compared as pairs\); new − stored/,
      )
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })
})

describe('renderReportHtml of a step an adapter summarized', () => {
  // Only the second step carries a summary, as an adapter's model step does; its action is the
  // large object a summary stands for, with planted markup in both.
  const summarized = defineAgent({
    name: 'summarized',
    input: null,
    async run(_input, ctx) {
      await ctx.step('plan', () => 'look up')
      const action = await ctx.step(
        'model#2',
        (rng) => ({
          call: 'generate',
          toolCall: rng() < 0.6 ? 'issue_refund' : 'escalate',
          note: PLANTED.script,
        }),
        { meta: (decided) => ({ summary: `${decided.toolCall}({"amount":99}) ${PLANTED.image}` }) },
      )
      return action.toolCall
    },
  })
  let page: string
  beforeAll(async () => {
    const refunded = (trajectory: { output?: unknown }) => trajectory.output === 'issue_refund'
    const artifact = await rarelyArtifact(summarized, refunded, { atMost: 0.05, seed: 3 })
    expect(artifact.verdict.kind).toBe('fail')
    page = renderReportHtml(artifact)
  })

  it('leads with the summary, escaped, and keeps the whole action in a details element', () => {
    const card = /<li class="step-card[^"]*" id="step-1"[\s\S]*?<\/li>/.exec(page)?.[0] ?? ''
    expect(card).toContain(
      '<details class="action-details">\n<summary><code class="action-summary">issue_refund({&quot;amount&quot;:99}) &lt;img src=x onerror=',
    )
    expect(card).toMatch(
      /<\/summary>\n<pre>\{\n {2}&quot;call&quot;: &quot;generate&quot;,\n {2}&quot;toolCall&quot;: &quot;issue_refund&quot;/,
    )
    expect(card).toContain('&lt;script&gt;window.__pwned')
    expect(card).not.toMatch(/<img|<script/)
  })

  it('shows an action without a summary as its JSON, as before', () => {
    const card = /<li class="step-card[^"]*" id="step-0"[\s\S]*?<\/li>/.exec(page)?.[0] ?? ''
    expect(card).toContain('<div class="field-label">action</div><pre>&quot;look up&quot;</pre>')
    expect(card).not.toContain('action-details')
  })
})
