import type { DatasetSummary, PassKReport } from '../verdict/schema.js'
import { costCell, formatCostLine, sumCosts } from './cost.js'
import { confidenceLevel, count, percent, plural } from './numbers.js'
import { passKValueText } from './pass-k.js'
import { showControls } from './visible.js'
import {
  valueHeader,
  valueText,
  rolloutsText,
  judgeCorrectionNote,
  sequentialRateNote,
  summaryOrder,
  summaryTally,
  standingOf,
  baselinesWrittenLine,
  type Standing,
  type SummaryRow,
} from './summary-table.js'

/** One rate assertion in the CI job summary: the terminal summary's row and its HTML report. */
export interface MarkdownSummaryRow extends SummaryRow {
  /** Default: none. The HTML report (else the artifact JSON), as a path from the project root; null when none was written. */
  report?: string | null
}

const STANDING_MARKS: Record<Standing, string> = {
  fail: '❌ fail',
  inconclusive: '⚠️ inconclusive',
  'expected fail': '✅ expected fail',
  pass: '✅ pass',
}

/**
 * The reporter's GitHub Actions job summary (Markdown): a heading with the tally, then one table
 * row per rate assertion — test, verdict, rate with its interval and method, rollouts, cost,
 * causal locus, report — failures first, and the run's total cost when there were model calls.
 * Every cell is escaped: a test name is text, never Markdown or HTML.
 */
export function formatMarkdownSummary(rows: readonly MarkdownSummaryRow[]): string {
  const lines = [`### causal-replay: ${summaryTally(rows)}`]
  if (rows.length > 0) {
    lines.push(
      '',
      `| test | verdict | ${valueHeader(rows)} | pass^k (largest k) | rollouts | cost | causal locus | report |`,
      '| --- | --- | --- | --- | ---: | --- | --- | --- |',
    )
    for (const row of summaryOrder(rows)) {
      const cells = [
        cell(`${row.file} > ${row.test}`),
        STANDING_MARKS[standingOf(row)],
        cell(valueText(row)),
        passKCell(row.passK),
        cell(rolloutsText(row)),
        cell(costCell(row.cost)),
        row.locus === null ? '—' : cell(`${row.locus.index} ${row.locus.name}`),
        row.report == null ? '—' : code(row.report),
      ]
      lines.push(`| ${cells.join(' | ')} |`)
    }
    for (const row of summaryOrder(rows)) {
      if (row.merged !== undefined) lines.push('', mergedLine(`${row.file} > ${row.test}`, row.merged))
      if (row.dataset !== undefined) lines.push('', ...datasetLines(`${row.file} > ${row.test}`, row.dataset))
    }
    const note = sequentialRateNote(rows)
    if (note !== null) lines.push('', cell(note))
    const judged = judgeCorrectionNote(rows)
    if (judged !== null) lines.push('', cell(judged))
    const total = formatCostLine(sumCosts(rows.map((row) => row.cost)))
    if (total !== null) lines.push('', `Total ${cell(total)}`)
    const baselines = baselinesWrittenLine(rows)
    if (baselines !== null) {
      // Named, for the reviewer of the commit that will carry them.
      lines.push('', `${baselines}:`, '')
      for (const row of rows) {
        const write = row.baselineWritten
        if (write !== undefined)
          lines.push(
            `- ${code(write.file)} › ${code(write.key)} (${write.status === 'created' ? 'new' : 'updated'})`,
          )
      }
    }
  }
  // A blank line after it: whatever the next step appends starts a block of its own.
  return `${lines.join('\n')}\n\n`
}

/** How a dataset claim split across shards was decided: the shards merged and the verdict's reason. */
function mergedLine(test: string, merged: NonNullable<SummaryRow['merged']>): string {
  return `**${cell(test)}**: merged from ${merged.merged.length} of ${plural(merged.shards, 'shard')}: ${cell(merged.reason)}`
}

/**
 * A dataset assertion's worst cases under the main table (runs, failures, the case's own interval,
 * and its decision on a per-case claim), then how many cases are left out: enough to see which
 * cases are flaky and which always fail without opening the report, which holds every case.
 */
function datasetLines(test: string, dataset: DatasetSummary): string[] {
  const heading = `**${cell(test)}**: dataset ${cell(`"${dataset.name}"`)} (${plural(dataset.cases, 'case')})`
  if (dataset.worst.length === 0) return [`${heading}: no case failed.`]
  const perCase = dataset.per === 'case'
  const level = dataset.worst[0]?.interval?.confidence
  const lines = [
    `${heading}, worst cases:`,
    '',
    `| case | runs | failures | errors | rate${level === undefined ? '' : ` [${confidenceLevel(level)} CI]`} |${perCase ? ' decision |' : ''}`,
    `| --- | ---: | ---: | ---: | --- |${perCase ? ' --- |' : ''}`,
  ]
  for (const row of dataset.worst) {
    const rate =
      row.interval === null
        ? '—'
        : `${percent(row.interval.point)} [${percent(row.interval.low)}, ${percent(row.interval.high)}]`
    const cells = [cell(row.id), count(row.runs), count(row.failures), count(row.errors), rate]
    if (perCase) cells.push(row.decision ?? 'undecided')
    lines.push(`| ${cells.join(' | ')} |`)
  }
  if (dataset.rest > 0)
    lines.push('', `and ${plural(dataset.rest, 'more case')} (every case is in the report)`)
  return lines
}

/** The largest k's pass^k with its interval and level, or a dash when the verdict has none. */
function passKCell(report: PassKReport | undefined): string {
  const largest = report?.values.at(-1)
  if (report === undefined || largest === undefined) return '—'
  return cell(`${passKValueText(largest)} ${confidenceLevel(report.confidence)}`)
}

/**
 * Text in a table cell: HTML and Markdown characters escaped, one line, pipes kept inside the cell,
 * control characters shown as escapes (a bidi control would reorder the row).
 */
function cell(text: string): string {
  return showControls(text.replace(/[\r\n]+/g, ' '))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#~])/g, '\\$1')
}

/** A path as code: backticks inside it would end the span, so a path holding one is escaped text instead. */
function code(path: string): string {
  const line = path.replace(/[\r\n]+/g, ' ')
  return line.includes('`') || line.includes('|') ? cell(line) : `\`${line}\``
}
