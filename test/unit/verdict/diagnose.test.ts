import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { toScenario } from '../../../src/agent/define-agent.js'
import type { Scenario } from '../../../src/agent/types.js'
import { check } from '../../../src/check/check.js'
import { RolloutAbortedError } from '../../../src/errors.js'
import { ArtifactSchema, rarely, record, type Trajectory } from '../../../src/index.js'
import { renderReportHtml } from '../../../src/html/html.js'
import { diagnose } from '../../../src/verdict/diagnose.js'
import { coinAgent, common, returnedBad } from './gate-helpers.js'

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
      const json = ArtifactSchema.parse(
        JSON.parse(await readFile(join(directory, result.report?.json ?? ''), 'utf8')),
      )
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
    const options = common({ attribute: { rollouts: 20, method: 'contrastive' } })
    const scenario = toScenario(coinAgent(0.5), 'test') as Scenario<unknown, unknown>
    await expect(diagnose(scenario, run, options, controller.signal)).rejects.toBeInstanceOf(
      RolloutAbortedError,
    )
  })
})

async function firstBad(): Promise<Trajectory> {
  for (let rollout = 0; ; rollout++) {
    const trajectory = await record(coinAgent(0.5), { seed: 1, rollout })
    if (returnedBad(trajectory)) return trajectory
  }
}
