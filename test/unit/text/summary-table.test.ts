import { describe, expect, it } from 'vitest'
import { formatSummaryTable, type SummaryRow } from '../../../src/text/summary-table.js'
import { formatTable } from '../../../src/text/table.js'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import { wilson } from '../../../src/stats/wilson.js'
import { confidenceSequence } from '../../../src/stats/confidence-sequence.js'

const rows: SummaryRow[] = [
  {
    test: 'support > careful: rarely refunds',
    file: 'support.test.ts',
    verdict: 'pass',
    // A sequential gate's rate: its test's anytime-valid confidence sequence, one-sided 95% each end.
    rate: confidenceSequence(7, 356, 0.1),
    rollouts: 356,
    locus: null,
  },
  {
    test: 'support > injected: rarely refunds',
    file: 'support.test.ts',
    verdict: 'fail',
    rate: confidenceSequence(2, 3, 0.1),
    rollouts: 3,
    locus: { index: 1, name: 'decide' },
  },
  {
    test: 'support > borderline',
    file: 'support.test.ts',
    verdict: 'inconclusive',
    rate: wilson(6, 60),
    rollouts: 60,
    locus: { index: 1, name: 'decide' },
  },
  {
    test: 'never deletes an order',
    file: 'a.test.ts',
    verdict: 'pass',
    rate: clopperPearson(0, 100),
    rollouts: 100,
    locus: null,
  },
]

describe('formatSummaryTable', () => {
  it('lists failures first, each rate with its interval and method', () => {
    expect(formatSummaryTable(rows, { index: '.causal-replay/index.html' })).toMatchSnapshot()
  })

  it('keeps columns aligned when verdicts are colored', () => {
    const escape = String.fromCharCode(27)
    const painted = formatSummaryTable(rows, {
      paint: (verdict, text) => `${escape}[3${verdict.length % 7}m${text}${escape}[39m`,
    })
    const plain = formatSummaryTable(rows)
    expect(painted.replace(new RegExp(`${escape}\\[\\d+m`, 'g'), '')).toBe(plain)
  })

  it('shows the errors a passing gate left out of its rate beside the rollouts', () => {
    const allowed: SummaryRow = {
      test: 'flaky > rarely refunds',
      file: 'flaky.test.ts',
      verdict: 'pass',
      rate: wilson(0, 71),
      rollouts: 84,
      errors: 13,
      locus: null,
    }
    const table = formatSummaryTable([allowed, { ...allowed, test: 'flaky > one error', errors: 1 }])
    expect(table).toMatch(/flaky\.test\.ts > flaky > rarely refunds +pass .* 84 \(13 errors\)/)
    expect(table).toContain('84 (1 error)')
    expect(formatSummaryTable(rows)).not.toContain('error')
  })

  it('counts a fail in a test.fails test as Vitest does: an expected fail, after the failures', () => {
    const expected: SummaryRow = { ...rows[1]!, test: 'support > fails on purpose', expectedFail: true }
    const table = formatSummaryTable([expected, ...rows])
    const lines = table.split('\n')
    expect(lines[0]).toBe(
      'causal-replay: 5 rate assertions — 1 fail, 1 expected fail, 1 inconclusive, 2 pass',
    )
    const order = lines
      .slice(2, 7)
      .map((line) => /(fail|expected fail|inconclusive|pass) {2}/.exec(line)?.[1])
    expect(order).toEqual(['fail', 'inconclusive', 'expected fail', 'pass', 'pass'])
    expect(table).toMatch(/support\.test\.ts > support > fails on purpose +expected fail /)
  })

  it('counts the rate baselines the run wrote, as Vitest counts written snapshots', () => {
    const write = (key: string, status: 'created' | 'updated'): SummaryRow => ({
      ...rows[0]!,
      test: key,
      baselineWritten: { file: '__baselines__/a.test.ts.rates.json', key, status },
    })
    expect(formatSummaryTable(rows)).not.toContain('rate baseline')
    expect(
      formatSummaryTable([write('a', 'created')])
        .split('\n')
        .at(-1),
    ).toBe('  1 rate baseline written')
    expect(
      formatSummaryTable([write('a', 'updated')])
        .split('\n')
        .at(-1),
    ).toBe('  1 rate baseline updated')
    const both = formatSummaryTable([write('a', 'created'), write('b', 'created'), write('c', 'updated')], {
      index: '.causal-replay/index.html',
    })
    expect(both.split('\n').slice(-2)).toEqual([
      '  2 rate baselines written, 1 updated',
      '  report: .causal-replay/index.html',
    ])
  })

  it('says so when a run had no rate assertion', () => {
    expect(formatSummaryTable([])).toBe('causal-replay: 0 rate assertions — 0 fail, 0 inconclusive, 0 pass')
  })
})

describe('formatTable', () => {
  it('pads columns, right-aligns numbers and trims trailing spaces', () => {
    expect(
      formatTable(
        [{ header: 'name' }, { header: 'n', align: 'right' }, { header: 'note' }],
        [
          ['a', '1', ''],
          ['longer', '100', 'x'],
        ],
      ),
    ).toEqual(['name      n  note', 'a         1', 'longer  100  x'])
  })
})

describe('formatSummaryTable with an A/B comparison', () => {
  it('shows the difference from the baseline agent, with its interval and the margin, beside the rate', () => {
    const row: SummaryRow = {
      test: 'prompt change > no worse than the old prompt',
      file: 'compare.test.ts',
      verdict: 'pass',
      rate: confidenceSequence(1, 9, 0.1),
      rollouts: 9,
      locus: null,
      comparison: {
        baselineAgent: 'support@old-prompt',
        difference: { point: -0.556, low: -0.9, high: 0.031, confidence: 0.9, method: 'confidence-sequence' },
        margin: 0.05,
        better: 'lower',
      },
    }
    expect(formatSummaryTable([row])).toMatchSnapshot()
  })
})
