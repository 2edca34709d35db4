import type { Estimate } from '../stats/estimate.js'
import { cutMiddle } from './context.js'
import { confidenceLevel, count, methodName, percent, plural } from './numbers.js'
import { formatTable } from './table.js'

/** One rate assertion in the end-of-run summary. */
export interface SummaryRow {
  /** The test's full name. */
  test: string
  /** The test file, relative to the project root. */
  file: string
  verdict: 'pass' | 'fail' | 'inconclusive'
  /** The observed rate with its interval. */
  rate: Estimate
  /** Rollouts the gate ran (errors included). */
  rollouts: number
  /** Default 0. Rollouts that ended in an error: shown beside the rollouts, even on a pass. */
  errors?: number
  locus: { index: number; name: string } | null
}

/** Options of {@link formatSummaryTable}. */
export interface SummaryOptions {
  /** Default: none. Where the index page is, for the last line. */
  index?: string
  /** Default: identity. Colors a verdict word (the reporter passes chalk; messages stay plain). */
  paint?: (verdict: SummaryRow['verdict'], text: string) => string
}

// Failures first: the summary is read to find what broke.
const ORDER = { fail: 0, inconclusive: 1, pass: 2 } as const

/**
 * The reporter's end-of-run table: one line per rate assertion — test, verdict, rate with its
 * interval and method, rollouts, causal locus — failures first, then by file and name.
 */
export function formatSummaryTable(rows: readonly SummaryRow[], options: SummaryOptions = {}): string {
  const paint = options.paint ?? ((_verdict, text) => text)
  const tally = (verdict: SummaryRow['verdict']) => rows.filter((row) => row.verdict === verdict).length
  const lines = [
    `causal-replay: ${plural(rows.length, 'rate assertion')} — ${tally('fail')} fail, ${tally('inconclusive')} inconclusive, ${tally('pass')} pass`,
  ]
  if (rows.length > 0) {
    const sorted = [...rows].sort(
      (a, b) =>
        ORDER[a.verdict] - ORDER[b.verdict] || a.file.localeCompare(b.file) || a.test.localeCompare(b.test),
    )
    const levels = new Set(rows.map((row) => confidenceLevel(row.rate.confidence)))
    const level = levels.size === 1 ? [...levels][0] : 'confidence'
    const table = formatTable(
      [
        { header: 'test' },
        { header: 'verdict' },
        { header: `rate [${level} CI]` },
        { header: 'rollouts', align: 'right' },
        { header: 'locus' },
      ],
      sorted.map((row) => [
        cutMiddle(`${row.file} > ${row.test}`, 70),
        paint(row.verdict, row.verdict),
        `${percent(row.rate.point)} [${percent(row.rate.low)}–${percent(row.rate.high)}] ${methodName(row.rate.method)}`,
        rolloutsText(row),
        row.locus === null ? '—' : `${row.locus.index} ${row.locus.name}`,
      ]),
    )
    lines.push(...table.map((line) => `  ${line}`))
  }
  if (options.index !== undefined) lines.push(`  report: ${options.index}`)
  return lines.join('\n')
}

/**
 * "84", or "84 (13 errors)": with allowErrors a gate can pass on the rollouts that completed, and
 * the errors it left out of the rate must not be visible only in the artifact.
 */
function rolloutsText(row: SummaryRow): string {
  const errors = row.errors ?? 0
  return errors === 0 ? count(row.rollouts) : `${count(row.rollouts)} (${plural(errors, 'error')})`
}
