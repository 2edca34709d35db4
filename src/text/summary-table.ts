import type { Estimate } from '../stats/estimate.js'
import { CLAIMS } from '../verdict/claim-table.js'
import type {
  DatasetSummary,
  BaselineWrite,
  ComparisonSummary,
  ModelCost,
  PassKReport,
  ScoreSummary,
} from '../verdict/schema.js'
import { versusText } from './comparison-lines.js'
import { cutMiddle } from './context.js'
import { costCell, formatCostLine, sumCosts } from './cost.js'
import { confidenceLevel, count, methodName, percent, plural, scoreNumber } from './numbers.js'
import { largestPassKText } from './pass-k.js'
import { formatTable } from './table.js'
import { showName } from './visible.js'

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
  /** Default: none. What the assertion's model calls cost. */
  cost?: ModelCost | undefined
  /** Default: none. The verdict's pass^k. */
  passK?: PassKReport | undefined
  /** Default: none. An A/B comparison's baseline agent, difference and margin. */
  comparison?: ComparisonSummary | undefined
  /** Default: none (a rate gate). A score gate's mean, shown instead of the rate. */
  score?: ScoreSummary | undefined
  /**
   * Default false. The test is marked `test.fails`: a fail verdict is what it expects, and Vitest
   * counts the test as passed (see {@link standingOf}).
   */
  expectedFail?: boolean | undefined
  /** Default: none. The stored rate baseline the assertion wrote. */
  baselineWritten?: BaselineWrite | undefined
  /** Default: none (one input). A dataset claim's worst cases and how many it leaves out. */
  dataset?: DatasetSummary | undefined
  /**
   * Default: none. A dataset claim whose cases were split across shards and decided after
   * `--merge-reports`: which shards it was merged from and the reason of its verdict.
   */
  merged?: { shards: number; merged: readonly number[]; reason: string } | undefined
}

/** How a row counts, as Vitest counts its test: a verdict, or a fail its `test.fails` test expected. */
export type Standing = SummaryRow['verdict'] | 'expected fail'

/** The row's {@link Standing}: an expected fail is a fail verdict in a test marked `test.fails`. */
export function standingOf(row: Pick<SummaryRow, 'verdict' | 'expectedFail'>): Standing {
  return row.verdict === 'fail' && row.expectedFail === true ? 'expected fail' : row.verdict
}

/** Options of {@link formatSummaryTable}. */
export interface SummaryOptions {
  /** Default: none. Where the index page is, for the last line. */
  index?: string
  /** Default: identity. Colors a standing's word (the reporter passes chalk; messages stay plain). */
  paint?: (standing: Standing, text: string) => string
}

/** Failures first: a summary (or the index page) is read to find what broke. An expected fail is a passed test. */
export const STANDING_ORDER: Readonly<Record<Standing, number>> = {
  fail: 0,
  inconclusive: 1,
  'expected fail': 2,
  pass: 3,
}

/** The rows in summary order: failures first, then inconclusive, expected fails, passes; each by file and name. */
export function summaryOrder<Row extends SummaryRow>(rows: readonly Row[]): Row[] {
  return [...rows].sort(
    (a, b) =>
      STANDING_ORDER[standingOf(a)] - STANDING_ORDER[standingOf(b)] ||
      a.file.localeCompare(b.file) ||
      a.test.localeCompare(b.test),
  )
}

/** How many rows have each standing. */
export function standingCounts(
  rows: readonly Pick<SummaryRow, 'verdict' | 'expectedFail'>[],
): Record<Standing, number> {
  const counts: Record<Standing, number> = { fail: 0, inconclusive: 0, 'expected fail': 0, pass: 0 }
  for (const row of rows) counts[standingOf(row)]++
  return counts
}

/** "3 rate assertions — 1 fail, 0 inconclusive, 2 pass", with "1 expected fail" when a `test.fails` test has one. */
export function summaryTally(rows: readonly SummaryRow[]): string {
  const counts = standingCounts(rows)
  const expected = counts['expected fail'] === 0 ? '' : `${counts['expected fail']} expected fail, `
  return `${plural(rows.length, 'rate assertion')} — ${counts.fail} fail, ${expected}${counts.inconclusive} inconclusive, ${counts.pass} pass`
}

/**
 * "23.0% [15.2%–32.5%] 95% Clopper–Pearson", "36.4% [14.3%–66.0%] 90% confidence sequence": each
 * row names its own level, since a sequential gate's rate carries its test's anytime-valid interval
 * (each end one-sided at the claim's level) where a fixed-sample gate's carries a 95% CI.
 */
export function rateText(rate: Estimate): string {
  if (rate.n === 0) return NO_ROLLOUT_COMPLETED
  return `${percent(rate.point)} [${percent(rate.low)}–${percent(rate.high)}] ${confidenceLevel(rate.confidence)} ${methodName(rate.method)}`
}

/** What a rate over no rollout reads as: an interval of [0%, 100%] says nothing and reads as a result. */
export const NO_ROLLOUT_COMPLETED = 'no rollout completed'

/**
 * The note under a summary with a sequential gate's rate: what its interval is, and that its point
 * was read where the test stopped. Null when no row has one.
 */
export function sequentialRateNote(rows: readonly SummaryRow[]): string | null {
  const scores = rows.some((row) => row.score !== undefined)
  const sequential = (row: SummaryRow) =>
    row.rate.method === 'confidence-sequence' || row.rate.method === 'rogan-gladen'
  if (!scores && !rows.some(sequential)) return null
  // A score gate's mean is read at its sequential stop too.
  const read = scores ? 'the rate (or mean score) beside it' : 'the rate beside it'
  return `confidence sequence: anytime-valid, so it holds at the rollout where the sequential test stopped; ${read} is read at that stop and leans toward the verdict`
}

/** The note under a summary with a judge-corrected rate (what the correction is); null when no row has one. */
export function judgeCorrectionNote(rows: readonly SummaryRow[]): string | null {
  return rows.some((row) => row.rate.method === 'rogan-gladen') ? JUDGE_CORRECTED_NOTE : null
}

const JUDGE_CORRECTED_NOTE =
  "judge-corrected: the true rate estimated from a calibrated judge's answers (Rogan–Gladen), its interval widened for the calibration's uncertainty (each judge the calibration's exact intervals allow, weighed by its exact evidence)"

/**
 * What the rate column shows: the rate ("23.0% [15.2%–32.5%] 95% Clopper–Pearson"), or for a score
 * gate its mean with its sequence ("mean 0.72 [0.61–0.8] 90% betting confidence sequence, ≥ 0.8").
 */
export function valueText(row: SummaryRow): string {
  const score = row.score
  if (score === undefined) {
    // An A/B comparison: the candidate's rate, and its difference from the baseline agent.
    return row.comparison === undefined
      ? rateText(row.rate)
      : `${rateText(row.rate)}; ${versusText(row.comparison)}`
  }
  const side = `${CLAIMS[score.claim].direction === 'atLeast' ? '≥' : '≤'} ${scoreNumber(score.threshold)}`
  const mean = score.mean
  if (mean === null) return `${NO_ROLLOUT_COMPLETED}, ${side}`
  return `mean ${scoreNumber(mean.point)} [${scoreNumber(mean.low)}–${scoreNumber(mean.high)}] ${confidenceLevel(mean.confidence)} betting confidence sequence, ${side}`
}

/** The rate column's header: "rate [interval]", or "rate or mean score [interval]" when a score gate is in the table. */
export function valueHeader(rows: readonly SummaryRow[]): string {
  return rows.some((row) => row.score !== undefined) ? 'rate or mean score [interval]' : 'rate [interval]'
}

/**
 * The reporter's end-of-run table: one line per rate assertion — test, verdict, rate with its
 * interval and method, rollouts, causal locus — failures first, then by file and name. When any
 * assertion made model calls, a cost column and the run's total cost line (as in the messages);
 * a run of synthetic agents keeps the table without them.
 */
export function formatSummaryTable(rows: readonly SummaryRow[], options: SummaryOptions = {}): string {
  const paint = options.paint ?? ((_verdict, text) => text)
  const lines = [`causal-replay: ${summaryTally(rows)}`]
  if (rows.length > 0) {
    const sorted = summaryOrder(rows)
    const withCost = rows.some((row) => (row.cost?.modelCalls ?? 0) > 0)
    // pass^k beside the rate, at its largest k, when any assertion reports it.
    const withPassK = rows.some((row) => (row.passK?.values.length ?? 0) > 0)
    const table = formatTable(
      [
        { header: 'test' },
        { header: 'verdict' },
        { header: valueHeader(rows) },
        ...(withPassK ? [{ header: 'pass^k (largest k)' }] : []),
        { header: 'rollouts', align: 'right' },
        ...(withCost ? [{ header: 'cost' }] : []),
        { header: 'locus' },
      ],
      sorted.map((row) => [
        cutMiddle(showName(`${row.file} > ${row.test}`), 70),
        paint(standingOf(row), standingOf(row)),
        valueText(row),
        ...(withPassK ? [largestPassKText(row.passK)] : []),
        rolloutsText(row),
        ...(withCost ? [costCell(row.cost)] : []),
        row.locus === null ? '—' : `${row.locus.index} ${showName(row.locus.name)}`,
      ]),
    )
    lines.push(...table.map((line) => `  ${line}`))
    const note = sequentialRateNote(rows)
    if (note !== null) lines.push(`  ${note}`)
    const judged = judgeCorrectionNote(rows)
    if (judged !== null) lines.push(`  ${judged}`)
    const total = formatCostLine(sumCosts(rows.map((row) => row.cost)))
    if (total !== null) lines.push(`  total ${total}`)
    const baselines = baselinesWrittenLine(rows)
    if (baselines !== null) lines.push(`  ${baselines}`)
  }
  if (options.index !== undefined) lines.push(`  report: ${options.index}`)
  return lines.join('\n')
}

/**
 * "2 rate baselines written, 1 updated": the stored baselines the run wrote, as Vitest counts
 * written snapshots (null when it wrote none). A new entry is written; one `-u` rewrote is updated.
 */
export function baselinesWrittenLine(rows: readonly SummaryRow[]): string | null {
  const written = rows.filter((row) => row.baselineWritten?.status === 'created').length
  const updated = rows.filter((row) => row.baselineWritten?.status === 'updated').length
  if (written === 0 && updated === 0) return null
  if (written === 0) return `${plural(updated, 'rate baseline')} updated`
  return `${plural(written, 'rate baseline')} written${updated === 0 ? '' : `, ${count(updated)} updated`}`
}

/**
 * "84", or "84 (13 errors)": with allowErrors a gate can pass on the rollouts that completed, and
 * the errors it left out of the rate must not be visible only in the artifact.
 */
export function rolloutsText(row: SummaryRow): string {
  const errors = row.errors ?? 0
  return errors === 0 ? count(row.rollouts) : `${count(row.rollouts)} (${plural(errors, 'error')})`
}
