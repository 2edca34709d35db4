import { describe, expect, it } from 'vitest'
import '../../../matchers/index.js'
import { check, defineAgent, scoresAtLeast, type Trajectory } from '../../../src/index.js'
import { renderReportHtml } from '../../../src/html/html.js'
import { renderIndexHtml } from '../../../src/html/index-page.js'
import { formatMarkdownSummary } from '../../../src/text/markdown-summary.js'
import { formatSummaryTable } from '../../../src/text/summary-table.js'
import { ArtifactSchema, scoreSummary } from '../../../src/verdict/schema.js'
import { readMetaEntries } from '../../../src/vitest/meta.js'
import { RunReportEntrySchema } from '../../../src/vitest/run-report.js'

/** plan (careful w.p. 0.3) → answer: careful scores 0.8–1, sloppy 0–0.5; the output is the score. */
const agent = defineAgent({
  name: 'support',
  input: { ticket: 'late order' },
  async run(_input, ctx) {
    const plan = await ctx.step('plan', (rng) => (rng() < 0.3 ? 'careful' : 'sloppy'))
    return ctx.step('answer', (rng) => (plan === 'careful' ? 0.8 + 0.2 * rng() : 0.5 * rng()))
  },
})
const helpfulness = (trajectory: Trajectory): number => trajectory.output as number

describe('the score matchers', () => {
  it('type-check, pass and fail, and leave the mean in the test meta for the reporter', async ({ task }) => {
    await expect(agent).toScoreAtMost(helpfulness, 0.7, { seed: 1 })
    await expect(
      expect(agent).toScoreAtLeast(helpfulness, 0.7, { seed: 1, attribute: false }),
    ).rejects.toThrow(
      /expected support to score helpfulness at least 0\.7 on average[\s\S]*attributing rollout \d+, score [\d.]+, as bad: score < 0\.7/,
    )
    const entries = readMetaEntries(task.meta)
    expect(entries.map((entry) => [entry.matcher, entry.verdict])).toEqual([
      ['toScoreAtMost', 'pass'],
      ['toScoreAtLeast', 'fail'],
    ])
    expect(entries[0]!.score).toMatchObject({ claim: 'scoreAtMost', threshold: 0.7 })
    expect(entries[0]!.score!.mean!.high).toBeLessThanOrEqual(0.7)
  })

  it('refuse .not, naming the matcher to use instead', async () => {
    await expect(expect(agent).not.toScoreAtLeast(helpfulness, 0.7)).rejects.toThrow(
      'expect(agent).not.toScoreAtLeast() is not supported: a rate assertion is pass, fail or inconclusive, and negating it would make "not enough evidence" pass. Instead, to claim the mean score is low, use toScoreAtMost(scorer, threshold) with the same scorer.',
    )
    await expect(expect(agent).not.toScoreAtMost(helpfulness, 0.7)).rejects.toThrow(/use toScoreAtLeast/)
  })

  it('reject a threshold outside the range, an unknown option and a non-function scorer', async () => {
    await expect(expect(agent).toScoreAtLeast(helpfulness, 4)).rejects.toThrow(/toScoreAtLeast: .*threshold/)
    // @ts-expect-error `rang` is not an option
    await expect(expect(agent).toScoreAtLeast(helpfulness, 0.5, { rang: [0, 1] })).rejects.toThrow(
      /unknown option `rang`/,
    )
  })
})

describe('a score verdict in the summary table, the job summary, the HTML page and the artifact', async () => {
  const result = await check(agent, scoresAtLeast(helpfulness, 0.7, { seed: 3 }))
  const row = {
    test: 'support scores',
    file: 'score.test.ts',
    verdict: result.verdict.kind,
    rate: result.verdict.observed,
    rollouts: result.verdict.rolloutsUsed,
    locus: { index: 0, name: 'plan' },
    score: scoreSummary(result.verdict),
  }

  it('the terminal table shows the mean with its sequence and level (snapshot)', () => {
    expect(formatSummaryTable([row])).toMatchSnapshot()
  })

  it('the job summary too, with the note that the mean is read at the sequential stop', () => {
    const markdown = formatMarkdownSummary([row])
    expect(markdown).toContain('| rate or mean score [interval] |')
    expect(markdown).toContain('the rate (or mean score) beside it is read at that stop')
    expect(markdown).toMatch(/mean 0\.433 \\\[0\.204–0\.695\\\] 90% betting confidence sequence, ≥ 0\.7/)
  })

  it('the HTML page states the mean, the threshold, the method and the bad outcome', () => {
    const html = renderReportHtml(result.artifact)
    expect(html).toContain('Mean score: helpfulness')
    expect(html).toContain('betting confidence sequence 0.204–0.695')
    expect(html).toContain('below the threshold of 0.7')
    expect(html).toContain('helpfulness &lt; 0.7')
    const index = renderIndexHtml([{ ...row, artifact: null, html: 'a.html' }])
    expect(index).toContain('mean score 0.433')
  })

  it('the artifact parses; a report entry of a rate gate (no score field, as before score gates) still does', () => {
    expect(ArtifactSchema.parse(JSON.parse(JSON.stringify(result.artifact))).verdict.gate).toBe('score')
    const { score: _score, ...rateRow } = row
    const entry = {
      ...rateRow,
      matcher: 'toRarely',
      agent: 'support',
      predicate: 'refund',
      rolloutsUsed: 11,
      errors: 0,
      seed: 3,
      replay: null,
      artifact: null,
      html: null,
    }
    expect(RunReportEntrySchema.parse(entry).score).toBeUndefined()
  })
})
