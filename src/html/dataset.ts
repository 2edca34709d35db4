import { confidenceLevel, count, methodName, percent } from '../text/numbers.js'
import type { Artifact, DatasetCaseRow, DatasetReport } from '../verdict/schema.js'
import { markup, type Markup } from './markup.js'

/** The columns of the per-case table: what each sorts by. */
const COLUMNS: readonly { key: string; header: string; numeric: boolean }[] = [
  { key: 'case', header: 'Case', numeric: false },
  { key: 'runs', header: 'Runs', numeric: true },
  { key: 'failures', header: 'Failures', numeric: true },
  { key: 'errors', header: 'Errors', numeric: true },
  { key: 'rate', header: 'Failure rate', numeric: true },
]

/**
 * A dataset claim's cases: every one, with its runs, failures, errors and exact interval, worst
 * first; clicking a column's header sorts by it (the page script, `data-sort-table`). Null for a
 * claim about one input.
 */
export function renderDatasetCases(artifact: Artifact): Markup | null {
  const { verdict } = artifact
  const dataset = verdict.dataset
  if (dataset === undefined) return null
  const level = confidenceLevel(verdict.confidence)
  const perCase = dataset.per === 'case'
  // A per-case failure attributes each case shown to violate the claim: the column says what each found.
  const attributions = new Map((dataset.attributions ?? []).map((entry) => [entry.id, entry]))
  const columns = [
    ...COLUMNS,
    ...(perCase ? [DECISION_COLUMN] : []),
    ...(attributions.size > 0 ? [ATTRIBUTION_COLUMN] : []),
  ]
  const rows = [...dataset.table].sort(
    (a, b) => rate(b) - rate(a) || b.failures - a.failures || b.errors - a.errors,
  )
  const ran = dataset.table.filter((row) => row.runs > 0).length
  return markup`<section id="dataset">
<h2>Cases of dataset ${dataset.name}</h2>
<p class="section-lead">${perCase ? `The claim is about every one of the dataset's ${count(dataset.cases)} cases on its own: a case's decision is Holm's across the cases, each side at ${confidenceLevel(verdict.confidence)}.` : `The claim is about the mean rate over the dataset's ${count(dataset.cases)} cases.`} ${count(verdict.rolloutsUsed)} runs reached ${count(ran)} of them (running every case once takes ${count(dataset.cases)}; ${count(dataset.rounds)} complete round${dataset.rounds === 1 ? '' : 's'}). Each case's failure rate is over its completed runs, with its ${level} ${methodName('clopper-pearson')} interval: ${perCase ? 'it describes the case; the decision column is what the claim concluded about it.' : 'it describes the case, and the claim is decided on the mean.'} Click a column to sort.</p>
<table class="index dataset-cases" data-sort-table>
<thead><tr>${columns.map(
    (column) =>
      markup`<th scope="col" aria-sort="${column.key === 'rate' ? 'descending' : 'none'}"><button type="button" data-sort-key="${column.key}" data-sort-numeric="${column.numeric ? 'true' : 'false'}">${column.header}</button></th>`,
  )}</tr></thead>
<tbody>
${rows.map((row) => caseRow(row, row.id === dataset.worst, perCase, attributions))}
</tbody>
</table>
</section>`
}

/** A per-case claim's column: what the claim concluded about each case (sorted as text). */
const DECISION_COLUMN = { key: 'decision', header: 'Decision', numeric: false }

/** A failing per-case claim's column: the run each violating case's attribution replayed, and its locus. */
const ATTRIBUTION_COLUMN = { key: 'attribution', header: 'Attribution', numeric: false }

type CaseAttribution = NonNullable<DatasetReport['attributions']>[number]

function caseRow(
  row: DatasetCaseRow,
  worst: boolean,
  perCase: boolean,
  attributions: ReadonlyMap<string, CaseAttribution>,
): Markup {
  const interval = row.interval
  return markup`<tr data-case="${row.id}"${worst ? markup` data-worst="true"` : null}>
<td data-sort-value="${row.id}"><code>${row.id}</code>${worst ? ' (attributed)' : null}</td>
<td class="rate" data-sort-value="${row.runs}">${count(row.runs)}</td>
<td class="rate" data-sort-value="${row.failures}">${count(row.failures)}</td>
<td class="rate" data-sort-value="${row.errors}">${count(row.errors)}</td>
<td class="rate" data-sort-value="${interval === null ? -1 : interval.point}">${interval === null ? '—' : `${percent(interval.point)} [${percent(interval.low)}, ${percent(interval.high)}]`}</td>${
    perCase
      ? markup`
<td data-sort-value="${row.decision ?? 'undecided'}" data-decision="${row.decision ?? 'undecided'}">${row.decision ?? 'undecided'}</td>`
      : null
  }${attributions.size > 0 ? attributionCell(attributions.get(row.id)) : null}
</tr>`
}

/**
 * What a case's attribution found: the causal locus in the run it replayed, none found, or why it
 * did not run (the claim's budget or the test's time ran out first, or it failed). Empty for a case
 * not shown to violate the claim.
 */
function attributionCell(entry: CaseAttribution | undefined): Markup {
  const text =
    entry === undefined
      ? ''
      : !entry.attributed
        ? `not attributed (rollout ${entry.rollout}: the budget or the time ran out, or the attribution failed)`
        : entry.locus === null
          ? `rollout ${entry.rollout}: no causal locus found`
          : `rollout ${entry.rollout}: step ${entry.locus.index} "${entry.locus.name}"`
  return markup`
<td data-sort-value="${text}" data-attributed="${entry === undefined ? 'none' : String(entry.attributed)}">${text === '' ? '—' : text}</td>`
}

/** A case's share of failures, -1 for a case with no completed run (sorted last). */
function rate(row: DatasetCaseRow): number {
  return row.interval === null ? -1 : row.interval.point
}
