import type { DatasetReport, Verdict } from '../verdict/schema.js'
import { confidenceLevel, count, methodName, percent, plural } from './numbers.js'
import { formatTable } from './table.js'
import { showName } from './visible.js'

/** How many cases a message lists; the artifact and the HTML report hold every one. */
export const WORST_CASES_SHOWN = 5

/** `over dataset "tickets" (50 cases)`, as the claim line names a dataset claim's target. */
export function datasetTarget(dataset: DatasetReport): string {
  return `over dataset "${showName(dataset.name)}" (${plural(dataset.cases, 'case')})`
}

/**
 * What a dataset claim ran, after its decision: what it cost against running every case once,
 * the case attributed, and the worst cases with their exact intervals.
 *
 *   cost in runs: 45 runs over 38 of 50 cases; running every case once takes 50
 *   attributed: rollout 12, the first failing run of the worst case "t-07" (2 of 2 runs failed)
 *   worst cases (of 50; failures per case, 95% Clopper–Pearson):
 *     case  runs  failures  rate [95% CI]
 *     t-07  2     2         100.0% [15.8%, 100.0%]
 */
export function datasetLines(verdict: Verdict, dataset: DatasetReport): string[] {
  const ran = dataset.table.filter((row) => row.runs > 0).length
  const lines = [
    `cost in runs: ${plural(verdict.rolloutsUsed, 'run')} over ${count(ran)} of ${plural(dataset.cases, 'case')}; running every case once takes ${count(dataset.cases)}`,
  ]
  const worstRow = dataset.worst === null ? undefined : dataset.table.find((row) => row.id === dataset.worst)
  if (verdict.replay !== null && verdict.stop !== 'error' && worstRow !== undefined) {
    lines.push(
      `attributed: rollout ${verdict.replay.rollout}, the first failing run of the worst case "${showName(worstRow.id)}" (${count(worstRow.failures)} of ${plural(worstRow.runs - worstRow.errors, 'run')} failed)`,
    )
  }
  const failing = dataset.table
    .filter((row) => row.failures > 0 || row.errors > 0)
    .sort((a, b) => share(b) - share(a) || b.failures - a.failures || b.errors - a.errors)
  if (failing.length === 0) {
    if (ran > 0) lines.push(`no case failed (${count(ran)} of ${plural(dataset.cases, 'case')} ran)`)
    return lines
  }
  const shown = failing.slice(0, WORST_CASES_SHOWN)
  const level = confidenceLevel(verdict.confidence)
  const more = failing.length > shown.length ? `, ${count(failing.length)} failed` : ''
  lines.push(
    `worst cases (${count(shown.length)} of ${count(dataset.cases)}${more}; failures per case, ${level} ${methodName('clopper-pearson')}):`,
  )
  const table = formatTable(
    [
      { header: 'case' },
      { header: 'runs', align: 'right' },
      { header: 'failures', align: 'right' },
      { header: 'errors', align: 'right' },
      { header: `rate [${level} CI]` },
    ],
    shown.map((row) => [
      showName(row.id),
      count(row.runs),
      count(row.failures),
      count(row.errors),
      row.interval === null
        ? '—'
        : `${percent(row.interval.point)} [${percent(row.interval.low)}, ${percent(row.interval.high)}]`,
    ]),
  )
  lines.push(...table.map((line) => `  ${line}`))
  return lines
}

/** A case's share of failures among its completed runs (errors rank after it, by count). */
function share(row: DatasetReport['table'][number]): number {
  const completed = row.runs - row.errors
  return completed === 0 ? 0 : row.failures / completed
}
