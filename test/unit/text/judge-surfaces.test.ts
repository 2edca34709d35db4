import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, test } from 'vitest'
import { judge } from '../../../src/adapters/ai-sdk/index.js'
import { renderReportHtml } from '../../../src/html/html.js'
import { check, defineAgent, rarely, usually } from '../../../src/index.js'
import { formatMarkdownSummary } from '../../../src/text/markdown-summary.js'
import { formatSummaryTable, type SummaryRow } from '../../../src/text/summary-table.js'
import type { Verdict } from '../../../src/verdict/schema.js'
import { refunder } from '../../scm/refunder.js'

/**
 * A judge model that errs at random, from the seed it is given (the run's judge stream): it misses
 * a refund with probability 0.2 and flags a run without one with probability 0.03.
 */
const noisyJudgeModel = () =>
  new MockLanguageModelV3({
    modelId: 'noisy-judge',
    doGenerate: async (options) => {
      const user = JSON.stringify(options.prompt)
      const draw = ((options.seed ?? 0) % 10_000) / 10_000
      const refunded = user.includes('issue_refund')
      const yes = refunded ? draw >= 0.2 : draw < 0.03
      return {
        content: [{ type: 'text', text: yes ? 'YES' : 'NO' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 80, noCache: 80, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      }
    },
  })

/** A judge model that ignores the run and says yes with probability `rate`, from its seed. */
const coinJudgeModel = (rate: number) =>
  new MockLanguageModelV3({
    modelId: 'coin-judge',
    doGenerate: async (options) => ({
      content: [{ type: 'text', text: ((options.seed ?? 0) % 10_000) / 10_000 < rate ? 'YES' : 'NO' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 80, noCache: 80, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      },
      warnings: [],
    }),
  })

const calibration = { sensitivity: { correct: 41, of: 50 }, specificity: { correct: 97, of: 100 } }

function summaryRow(test: string, verdict: Verdict): SummaryRow {
  return {
    test,
    file: 'judge.test.ts',
    verdict: verdict.kind,
    rate: verdict.observed,
    rollouts: verdict.rolloutsUsed,
    locus: null,
    cost: verdict.cost,
    passK: verdict.passK,
  }
}

describe('a judge-corrected verdict in every rendering', () => {
  test('the message, the summary table, the job summary and the page say the rate is judge-corrected', async () => {
    const refunds = judge(noisyJudgeModel(), 'issues a refund', { calibration })
    const failing = await check(refunder(0.4), rarely(refunds, { atMost: 0.1, seed: 5, attribute: false }))
    const passing = await check(refunder(0.01), rarely(refunds, { atMost: 0.3, seed: 5, attribute: false }))
    expect(failing.verdict.kind).toBe('fail')
    expect(passing.verdict.kind).toBe('pass')
    for (const { verdict } of [failing, passing]) {
      expect(verdict.gate === 'sequential' && verdict.judgeCorrection?.sensitivity).toMatchObject({
        correct: 41,
        of: 50,
      })
      expect(verdict.observed.method).toBe('rogan-gladen')
    }
    expect(failing.message).toMatchSnapshot()
    expect(passing.message).toContain('judge-corrected (Rogan–Gladen')
    expect(passing.message).toContain('sensitivity 41/50')

    const rows = [
      summaryRow('rarely refunds (fails)', failing.verdict),
      summaryRow('rarely refunds', passing.verdict),
    ]
    const table = formatSummaryTable(rows)
    expect(table).toMatchSnapshot()
    expect(table).toContain('judge-corrected (Rogan–Gladen)')
    expect(table).toContain('pass^k (largest k)')
    const markdown = formatMarkdownSummary(rows.map((row) => ({ ...row, report: null })))
    expect(markdown).toContain('judge-corrected')

    const page = renderReportHtml(failing.artifact)
    expect(page).toContain('data-judge-correction')
    expect(page).toContain('Judge-corrected (Rogan–Gladen')
  })

  test('an undecided corrected gate says more rollouts cannot decide it where the calibration cannot', async () => {
    const small = { sensitivity: { correct: 16, of: 20 }, specificity: { correct: 28, of: 30 } }
    const refunds = judge(noisyJudgeModel(), 'issues a refund', { calibration: small })
    const { verdict, message } = await check(
      refunder(0.12),
      rarely(refunds, { atMost: 0.15, seed: 3, attribute: false, maxRollouts: 200 }),
    )
    expect(verdict.kind).toBe('inconclusive')
    expect(message).toMatch(
      /where the calibration cannot tell the true rate from 15%: label more runs to narrow it/,
    )
  })

  test('toUsually corrects the rate of a negated-calibration judge alike', async () => {
    const declines = judge(noisyJudgeModel(), 'issues a refund', { calibration })
    const { verdict } = await check(
      refunder(0.02),
      usually((trajectory) => declines(trajectory).then((yes) => !yes), {
        atLeast: 0.5,
        seed: 2,
        attribute: false,
      }),
    )
    // A plain function around a judge carries no calibration: the gate tests the apparent rate.
    expect(verdict.observed.method).toBe('confidence-sequence')
  })

  test('a failure the judge does not repeat on replay is called judge noise, not sent to Shapley', async () => {
    const rude = judge(coinJudgeModel(0.2), 'was rude')
    // Every run is the same: its one step always chooses the same reply, so no step can be the cause.
    const polite = defineAgent({
      name: 'polite',
      input: {},
      async run(_input, ctx) {
        return ctx.step('reply', () => 'Thank you for waiting.')
      },
    })
    const result = await check(polite, rarely(rude, { atMost: 0.02, seed: 4 }))
    expect(result.verdict.kind).toBe('fail')
    expect(result.artifact.failingJudged).toBe(true)
    expect(result.artifact.contrastive?.locus).toBeNull()
    expect(result.artifact.contrastive?.baseline.high).toBeLessThan(0.5)
    expect(result.message).toMatch(
      /the judge's verdict does not reproduce on replay \(replay fidelity 0\.\d\d \[0\.\d\d, 0\.\d\d\] with every step held\): likely judge noise/,
    )
    expect(result.message).not.toContain("attribute: { method: 'shapley' }")
    expect(renderReportHtml(result.artifact)).toContain('likely judge noise')

    // Without a judge the same abstention keeps its suggestion, and the artifact says nothing of judges.
    const flaky = await check(
      polite,
      rarely((trajectory) => trajectory.rollout % 5 === 0, { atMost: 0.02, seed: 4 }),
    )
    expect(flaky.artifact.failingJudged).toBeUndefined()
    expect(flaky.message).not.toContain('likely judge noise')
  })
})
