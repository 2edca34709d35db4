import { describe, expect, it } from 'vitest'
import { PASS_K_METHOD, passK } from '../../../src/stats/pass-k.js'
import { formatMarkdownSummary, type MarkdownSummaryRow } from '../../../src/text/markdown-summary.js'
import type { Estimate } from '../../../src/stats/estimate.js'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { datasetSummary, type DatasetCaseRow, type Verdict } from '../../../src/verdict/schema.js'

const rate = (successes: number, n: number, low: number, high: number): Estimate => ({
  successes,
  n,
  point: successes / n,
  low,
  high,
  confidence: 0.95,
  method: 'wilson',
})

const rows: MarkdownSummaryRow[] = [
  {
    test: 'support > careful ticket',
    file: 'support.test.ts',
    verdict: 'pass',
    rate: rate(0, 72, 0, 0.0507),
    rollouts: 72,
    locus: null,
    report: null,
    passK: {
      confidence: 0.95,
      method: PASS_K_METHOD,
      values: passK(72, 72, [1, 3, 8], { low: 1 - 0.0507, high: 1 }),
    },
  },
  {
    test: 'support > injected | <b>bold</b> _ticket_',
    file: 'support.test.ts',
    verdict: 'fail',
    // A sequential gate's rate: the anytime-valid confidence sequence its test decided with.
    rate: { ...rate(6, 16, 0.1425, 0.6741), confidence: 0.9, method: 'confidence-sequence' },
    rollouts: 16,
    errors: 2,
    locus: { index: 0, name: 'decide#1' },
    cost: {
      modelCalls: 96,
      cassetteHits: 40,
      inputTokens: 6720,
      outputTokens: 1120,
      usd: 0.0224,
      unpricedCalls: 0,
      savedUsd: 0.016,
    },
    report: '.causal-replay/support/support.test.ts/injected.html',
  },
  {
    test: 'refunds',
    file: 'billing.test.ts',
    verdict: 'inconclusive',
    rate: rate(3, 40, 0.0258, 0.1989),
    rollouts: 40,
    locus: null,
    cost: {
      modelCalls: 40,
      cassetteHits: 0,
      inputTokens: 4000,
      outputTokens: 800,
      usd: null,
      unpricedCalls: 40,
      savedUsd: null,
    },
    report: '.causal-replay/billing/refunds.json',
  },
]

describe('formatMarkdownSummary', () => {
  it('renders a table, failing assertions first, with cost, locus, report and the run total', () => {
    expect(formatMarkdownSummary(rows)).toMatchInlineSnapshot(`
      "### causal-replay: 3 rate assertions — 1 fail, 1 inconclusive, 1 pass

      | test | verdict | rate [interval] | pass^k (largest k) | rollouts | cost | causal locus | report |
      | --- | --- | --- | --- | ---: | --- | --- | --- |
      | support.test.ts &gt; support &gt; injected \\| &lt;b&gt;bold&lt;/b&gt; \\_ticket\\_ | ❌ fail | 37.5% \\[14.2%–67.4%\\] 90% confidence sequence | — | 16 (2 errors) | 96 calls (40 cassette), $0.0224 | 0 decide\\#1 | \`.causal-replay/support/support.test.ts/injected.html\` |
      | billing.test.ts &gt; refunds | ⚠️ inconclusive | 7.5% \\[2.6%–19.9%\\] 95% Wilson | — | 40 | 40 calls, unpriced | — | \`.causal-replay/billing/refunds.json\` |
      | support.test.ts &gt; support &gt; careful ticket | ✅ pass | 0.0% \\[0.0%–5.1%\\] 95% Wilson | pass^8 100.0% \\[66.0%–100.0%\\] 95% | 72 | — | — | — |

      confidence sequence: anytime-valid, so it holds at the rollout where the sequential test stopped; the rate beside it is read at that stop and leans toward the verdict

      Total cost: 136 model calls (40 from the cassette), 12,640 tokens, $0.0224 + 40 unpriced calls; the cassette saved $0.0160

      "
    `)
  })

  it('counts a fail in a test.fails test as an expected fail, as Vitest counts its test', () => {
    const expected = { ...rows[1]!, expectedFail: true }
    const markdown = formatMarkdownSummary([expected, rows[0]!])
    expect(markdown.split('\n')[0]).toBe(
      '### causal-replay: 2 rate assertions — 0 fail, 1 expected fail, 0 inconclusive, 1 pass',
    )
    expect(markdown).toContain('| ✅ expected fail |')
    expect(markdown).not.toContain('❌')
  })

  it('names the rate baselines the run wrote', () => {
    const written = {
      ...rows[0]!,
      baselineWritten: {
        file: '__baselines__/support.test.ts.rates.json',
        key: 'careful 1',
        status: 'created' as const,
      },
    }
    const updated = {
      ...rows[2]!,
      baselineWritten: {
        file: '__baselines__/billing.test.ts.rates.json',
        key: 'refunds 1',
        status: 'updated' as const,
      },
    }
    expect(formatMarkdownSummary([written, updated])).toContain(
      [
        '1 rate baseline written, 1 updated:',
        '',
        '- `__baselines__/support.test.ts.rates.json` › `careful 1` (new)',
        '- `__baselines__/billing.test.ts.rates.json` › `refunds 1` (updated)',
      ].join('\n'),
    )
    expect(formatMarkdownSummary(rows)).not.toContain('rate baseline')
  })

  it('says how a dataset claim split across shards was decided after the merge', () => {
    const merged = formatMarkdownSummary([
      {
        test: 'over the tickets',
        file: 'sharded.test.js',
        verdict: 'inconclusive',
        rate: clopperPearson(6, 92, 0.9),
        rollouts: 92,
        locus: null,
        report: null,
        merged: {
          shards: 2,
          merged: [1],
          reason: 'shard 2/2 missing from the merge (27 cases of 50 not run)',
        },
      },
    ])
    expect(merged).toContain(
      '**sharded.test.js &gt; over the tickets**: merged from 1 of 2 shards: shard 2/2 missing from the merge (27 cases of 50 not run)',
    )
  })

  it('says there was nothing to report for a run without rate assertions', () => {
    expect(formatMarkdownSummary([])).toBe(
      '### causal-replay: 0 rate assertions — 0 fail, 0 inconclusive, 0 pass\n\n',
    )
  })

  describe('a dataset assertion', () => {
    /** 50 cases: 8 that failed (t-01 … t-08, from 6 of 6 down to 1 of 6), the rest clean. */
    const table: DatasetCaseRow[] = Array.from({ length: 50 }, (_, index) => {
      const failures = index < 8 ? Math.max(1, 6 - index) : 0
      return {
        id: `t-${String(index + 1).padStart(2, '0')}`,
        runs: 6,
        failures,
        errors: 0,
        interval: clopperPearson(failures, 6, 0.95),
        decision: failures >= 4 ? 'violates' : 'undecided',
      }
    })
    const verdict = {
      dataset: { name: 'tickets', cases: 50, rounds: 6, worst: 't-01', table, per: 'case' },
    } as unknown as Verdict
    const summary = datasetSummary(verdict)!
    const row: MarkdownSummaryRow = {
      test: 'tickets > every ticket rarely refunds',
      file: 'tickets.test.ts',
      verdict: 'fail',
      rate: rate(20, 300, 0.04, 0.11),
      rollouts: 300,
      locus: null,
      dataset: summary,
    }

    it('keeps the worst 5 cases, worst first, and counts the rest', () => {
      expect(summary.worst.map((case_) => case_.id)).toEqual(['t-01', 't-02', 't-03', 't-04', 't-05'])
      expect(summary.rest).toBe(45)
      expect(datasetSummary({ dataset: undefined } as unknown as Verdict)).toBeUndefined()
    })

    it('lists them under the table with runs, failures, interval and decision', () => {
      const markdown = formatMarkdownSummary([row])
      expect(markdown).toContain(
        '**tickets.test.ts &gt; tickets &gt; every ticket rarely refunds**: dataset "tickets" (50 cases), worst cases:',
      )
      expect(markdown).toContain('| case | runs | failures | errors | rate [95% CI] | decision |')
      expect(markdown).toContain('| t-01 | 6 | 6 | 0 | 100.0% [54.1%, 100.0%] | violates |')
      expect(markdown).toContain('| t-05 | 6 | 2 | 0 |')
      expect(markdown).not.toContain('| t-06 |')
      expect(markdown).toContain('and 45 more cases (every case is in the report)')
    })

    it('leaves the decision column out for the mean over cases, and says when no case failed', () => {
      const { per: _per, ...mean } = summary
      expect(formatMarkdownSummary([{ ...row, dataset: mean }])).not.toContain('decision')
      const clean = { ...summary, worst: [], rest: 50 }
      expect(formatMarkdownSummary([{ ...row, dataset: clean }])).toContain('(50 cases): no case failed.')
    })
  })
})
