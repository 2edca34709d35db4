import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { toScenario } from '../../../src/agent/define-agent.js'
import type { Scenario } from '../../../src/agent/types.js'
import { check } from '../../../src/index.js'
import { RolloutAbortedError } from '../../../src/errors.js'
import { rarely, type Trajectory } from '../../../src/index.js'
import { record } from '../../../src/entries/replay.js'
import { ArtifactSchema } from '../../../src/entries/schemas.js'
import { renderReportHtml } from '../../../src/html/html.js'
import { diagnose } from '../../../src/verdict/diagnose.js'
import type { RarelyOptions } from '../../../src/verdict/options.js'
import {
  coinAgent,
  common,
  PLANTED_TICKET,
  plantedContextAgent,
  refunded,
  returnedBad,
} from './gate-helpers.js'

// Scores the gate's own rollouts, then throws on the first replay rollout it is asked about: the
// failure happens during attribution only.
function judgeDownOnReplays(trajectory: Trajectory): boolean {
  if (trajectory.intervention !== undefined) throw new Error('the judge is down')
  return returnedBad(trajectory)
}
Object.defineProperty(judgeDownOnReplays, 'name', { value: 'judged bad' })

describe('diagnose, when the attribution fails', () => {
  it('keeps the gate verdict and reports the failure with its replay rollout', async () => {
    const result = await check(coinAgent(0.5), rarely(judgeDownOnReplays, { atMost: 0.05, seed: 1 }))
    expect(result.verdict.kind).toBe('fail')
    expect(result.passed).toBe(false)
    expect(result.attribution).toBeNull()
    expect(result.artifact).toMatchObject({ contrastive: null, shapley: null })
    const failure = result.artifact.attributionError
    expect(failure).toEqual({
      message: 'The predicate "judged bad" threw: the judge is down',
      rollout: expect.any(Number) as number,
    })
    expect(() => ArtifactSchema.parse(result.artifact)).not.toThrow()
    expect(result.message).toContain(
      `\n  attribution failed: The predicate "judged bad" threw: the judge is down (replay rollout ${failure?.rollout})`,
    )
    // The gate's replay handle is still there: the failing run can be recorded and debugged.
    expect(result.message).toMatch(/replay: \{ seed: \d+, rollout: \d+ \}/)
  })

  it('writes the artifact, and the HTML page says the same sentence', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'causal-replay-diagnose-'))
    try {
      const result = await check(coinAgent(0.5), rarely(judgeDownOnReplays, { atMost: 0.05, seed: 1 }), {
        reportDir: directory,
      })
      expect(result.report).not.toBeNull()
      const json = ArtifactSchema.parse(JSON.parse(await readFile(result.report?.json ?? '', 'utf8')))
      expect(json.attributionError).toEqual(result.artifact.attributionError)
      // In the headline's locus stat and in place of the attribution chart, escaped like any text.
      const sentence = `attribution failed: The predicate &quot;judged bad&quot; threw: the judge is down (replay rollout ${json.attributionError?.rollout})`
      const html = renderReportHtml(result.artifact)
      expect(html).toContain(`<div class="stat-detail">${sentence}</div>`)
      expect(html).toContain(
        `<section id="attribution" data-view="none"><h2>Attribution</h2><p class="section-lead">${sentence}</p>`,
      )
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
  })

  it('names the replay rollout of a predicate that returns a non-boolean only on replays', async () => {
    const sloppy = (trajectory: Trajectory) =>
      (trajectory.intervention === undefined ? returnedBad(trajectory) : 1n) as unknown as boolean
    const result = await check(coinAgent(0.5), rarely(sloppy, { atMost: 0.05, seed: 1, label: 'sloppy' }))
    expect(result.verdict.kind).toBe('fail')
    expect(result.artifact.attributionError?.message).toBe(
      'the predicate "sloppy": `predicate` must be a function (trajectory) => boolean (or a promise of one), got one that returned 1n.',
    )
    expect(result.artifact.attributionError?.rollout).toEqual(expect.any(Number))
  })

  it('lets the test abort through', async () => {
    const controller = new AbortController()
    const abortOnReplay = (trajectory: Trajectory) => {
      if (trajectory.intervention !== undefined) controller.abort()
      return returnedBad(trajectory)
    }
    const run = {
      verdict: { kind: 'fail' } as never,
      failing: await firstBad(),
      isBad: (trajectory: Trajectory) => Promise.resolve(abortOnReplay(trajectory)),
    }
    const options = common({
      attribute: { rollouts: 20, method: 'contrastive', context: false, runAhead: 0 },
      signal: controller.signal,
    })
    const scenario = toScenario(coinAgent(0.5), 'test') as Scenario<unknown, unknown>
    await expect(diagnose(scenario, run, options)).rejects.toBeInstanceOf(RolloutAbortedError)
  })
})

async function firstBad(): Promise<Trajectory> {
  for (let rollout = 0; ; rollout++) {
    const trajectory = await record(coinAgent(0.5), { seed: 1, rollout })
    if (returnedBad(trajectory)) return trajectory
  }
}

describe('diagnose, context attribution of the locus', () => {
  const claim = (attribute?: RarelyOptions['attribute']) =>
    rarely(refunded, {
      atMost: 0.05,
      seed: 3,
      label: 'refund',
      ...(attribute === undefined ? {} : { attribute }),
    })

  it('takes apart a locus context of several keys and names the decisive one, within the contrastive spend', async () => {
    const result = await check(plantedContextAgent, claim())
    expect(result.attribution?.locus).toBe(1)
    const context = result.contextAttribution
    expect(context).not.toBeNull()
    expect(result.artifact.contextAttribution).toBe(context)
    expect(context?.step).toBe(1)
    expect(context?.parts.map((part) => part.label)).toEqual(['key "ticket"', 'key "order"', 'key "tier"'])
    expect(context?.culprit?.path).toEqual(['ticket'])
    expect(PLANTED_TICKET).toContain(context?.culprit?.text ?? '∅')
    // The default cap: what the contrastive attribution spent, or two arms' worth when that was less.
    expect(context?.rolloutsUsed).toBeLessThanOrEqual(Math.max(result.attribution?.rolloutsUsed ?? 0, 2 * 64))
    expect(() => ArtifactSchema.parse(JSON.parse(JSON.stringify(result.artifact)))).not.toThrow()
    // An artifact written before context attribution (neither field) still parses.
    const { contextAttribution: _context, contextAttributionError: _error, ...older } = result.artifact
    expect(ArtifactSchema.parse(JSON.parse(JSON.stringify(older))).contextAttribution).toBeUndefined()
    expect(result.message).toMatch(
      /\n {2}the locus decided on: "[^"]*SYSTEM NOTE[^"]*" \(key "ticket"\); removing it rescues \d+% \[\d+%, \d+%\] \(90% CI, (Holm|Bonferroni) p [=<] [\d.]+\)$/m,
    )
  })

  it('gives byte-identical results at any concurrency, its cap binding or not', async () => {
    const at = async (concurrency: number, attribute?: RarelyOptions['attribute']) =>
      JSON.stringify(
        (await check(plantedContextAgent, rarely(refunded, { ...claim(attribute).options, concurrency })))
          .artifact.contextAttribution,
      )
    expect(await at(1)).toBe(await at(8))
    expect(await at(1, { context: { maxRollouts: 200 } })).toBe(
      await at(5, { context: { maxRollouts: 200 } }),
    )
  })

  it('spends at most attribute.context.maxRollouts, from the gate budget', async () => {
    const result = await check(plantedContextAgent, claim({ context: { maxRollouts: 8 } }))
    expect(result.contextAttribution?.rolloutsUsed).toBeLessThanOrEqual(8)
    expect(result.contextAttribution?.truncated).toBe(true)
    expect(result.message).toContain('context attribution stopped early (the budget ran out after')
  })

  it('is skipped with attribute: { context: false }, and for a locus context of one part', async () => {
    const off = await check(plantedContextAgent, claim({ context: false }))
    expect(off.attribution?.locus).toBe(1)
    expect(off.contextAttribution).toBeNull()
    expect(off.artifact.contextAttribution).toBeNull()
    expect(off.message).not.toContain('context attribution')
    const onePart = await check(
      plantedContextAgent,
      claim({
        context: {
          parts: (context) => [
            { path: ['ticket'], label: 'the ticket', text: String((context as { ticket: string }).ticket) },
          ],
        },
      }),
    )
    expect(onePart.contextAttribution).toBeNull()
    expect(onePart.artifact.contextAttributionError).toBeNull()
  })

  it('keeps the contrastive result and the verdict when the context attribution fails, and says why', async () => {
    const result = await check(
      plantedContextAgent,
      claim({ context: { parts: () => 'not a list' as never } }),
    )
    expect(result.verdict.kind).toBe('fail')
    expect(result.attribution?.locus).toBe(1)
    expect(result.contextAttribution).toBeNull()
    expect(result.artifact.attributionError).toBeNull()
    const failure = result.artifact.contextAttributionError
    expect(failure?.rollout).toBeNull()
    expect(failure?.message).toMatch(/parts/)
    expect(result.message).toContain(`\n  context attribution failed: ${failure?.message}`)
    expect(result.message).toContain('← causal locus')
  })
})
