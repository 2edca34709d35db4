import { CLAIMS } from '../verdict/claim-table.js'
import type { Explanation } from '../verdict/explain.js'
import { worstCaseRows, type DatasetCaseRow, type DatasetReport, type Verdict } from '../verdict/schema.js'
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
  if (verdict.gate === 'comparison') return [...lines, ...comparisonCaseLines(verdict, dataset, ran)]
  if (verdict.gate === 'baseline') lines.push(...baselineCaseLines(verdict))
  const perCase = dataset.per === 'case'
  const worstRow = dataset.worst === null ? undefined : dataset.table.find((row) => row.id === dataset.worst)
  // A per-case `never` / `always` names the cases that showed an occurrence (its decision line
  // states the first one).
  const violating = dataset.table.filter((row) => row.decision === 'violates').map((row) => row.id)
  if (perCase && verdict.gate === 'zero-tolerance' && violating.length > 0) {
    lines.push(
      `cases that violate the claim (${count(violating.length)} of ${count(dataset.cases)}): ${namedCases(violating)}`,
    )
  }
  if (verdict.replay !== null && verdict.stop !== 'error' && worstRow !== undefined) {
    lines.push(
      `attributed: rollout ${verdict.replay.rollout}, the first failing run of the worst case${perCase ? ' shown to violate the claim' : ''} "${showName(worstRow.id)}" (${count(worstRow.failures)} of ${plural(worstRow.runs - worstRow.errors, 'run')} failed)`,
    )
  }
  lines.push(...furtherAttributionLines(dataset))
  const failing = worstCaseRows(dataset.table)
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
      ...(perCase ? [{ header: 'decision' }] : []),
    ],
    shown.map((row) => [
      showName(row.id),
      count(row.runs),
      count(row.failures),
      count(row.errors),
      row.interval === null
        ? '—'
        : `${percent(row.interval.point)} [${percent(row.interval.low)}, ${percent(row.interval.high)}]`,
      ...(perCase ? [row.decision ?? 'undecided'] : []),
    ]),
  )
  lines.push(...table.map((line) => `  ${line}`))
  return lines
}

/**
 * A stored baseline's cases: which were shown worse than their own stored counts (Holm across the
 * cases), and which were added or removed since the baseline was stored.
 *
 *   cases worse than their baseline (2 of 50 compared; Holm …, one-sided at 95%): "t-07", "t-23"
 *   cases added since the baseline (no stored runs, not compared; vitest -u stores them): "t-51"
 */
function baselineCaseLines(verdict: Extract<Verdict, { gate: 'baseline' }>): string[] {
  const cases = verdict.baseline.cases
  if (cases === undefined) return []
  const how = `${cases.method}, one-sided at ${confidenceLevel(verdict.confidence)}`
  const lines = [
    cases.regressed.length > 0
      ? `cases worse than their baseline (${count(cases.regressed.length)} of ${count(cases.compared)} compared; ${how}): ${namedCases(cases.regressed)}`
      : `no case shown worse than its baseline (${count(cases.compared)} compared; ${how})`,
  ]
  if (cases.added.length > 0) {
    lines.push(
      `cases added since the baseline (no stored runs, not compared; vitest -u stores them): ${namedCases(cases.added)}`,
    )
  }
  if (cases.removed.length > 0) {
    lines.push(
      `cases removed since the baseline (stored, no longer in the dataset): ${namedCases(cases.removed)}`,
    )
  }
  return lines
}

/**
 * An A/B comparison's cases: the case attributed, and the cases that got worse (more pairs bad for
 * the candidate alone than for the baseline alone), worst first.
 *
 *   attributed: rollout 7, the first worse pair of case "t-07" (4 of 4 pairs worse, 0 better)
 *   cases worse for support-v2 (3 of 50; pairs per case, worst first):
 *     case  pairs  support-v2 failures  support-v1 failures  worse  better
 *     t-07  4      4                    0                    4      0
 */
function comparisonCaseLines(
  verdict: Extract<Verdict, { gate: 'comparison' }>,
  dataset: DatasetReport,
  ran: number,
): string[] {
  const lines: string[] = []
  const { baselineAgent } = verdict.comparison
  const attributed =
    dataset.worst === null ? undefined : dataset.table.find((row) => row.id === dataset.worst)
  if (verdict.replay !== null && verdict.stop !== 'error' && attributed?.pairs !== undefined) {
    lines.push(
      `attributed: rollout ${verdict.replay.rollout}, the first worse pair of case "${showName(attributed.id)}" (${count(attributed.pairs.worse)} of ${plural(attributed.runs, 'pair')} worse, ${count(attributed.pairs.better)} better)`,
    )
  }
  const net = (row: DatasetCaseRow) => (row.pairs === undefined ? 0 : row.pairs.worse - row.pairs.better)
  const worse = dataset.table
    .filter((row) => net(row) > 0)
    .sort((a, b) => net(b) - net(a) || (b.pairs?.worse ?? 0) - (a.pairs?.worse ?? 0))
  if (worse.length === 0) {
    if (ran > 0) lines.push(`no case got worse (${count(ran)} of ${plural(dataset.cases, 'case')} ran)`)
    return lines
  }
  const shown = worse.slice(0, WORST_CASES_SHOWN)
  const more = worse.length > shown.length ? `, ${count(worse.length)} worse` : ''
  lines.push(
    `cases worse for ${verdict.agent} (${count(shown.length)} of ${count(dataset.cases)}${more}; pairs per case, the most worse pairs net first): ${namedCases(worse.map((row) => row.id))}`,
  )
  const table = formatTable(
    [
      { header: 'case' },
      { header: 'pairs', align: 'right' },
      { header: `${verdict.agent} failures`, align: 'right' },
      { header: `${baselineAgent} failures`, align: 'right' },
      { header: 'worse', align: 'right' },
      { header: 'better', align: 'right' },
    ],
    shown.map((row) => [
      showName(row.id),
      count(row.runs),
      count(row.failures),
      count(row.pairs?.baselineFailures ?? 0),
      count(row.pairs?.worse ?? 0),
      count(row.pairs?.better ?? 0),
    ]),
  )
  lines.push(...table.map((line) => `  ${line}`))
  return lines
}

/**
 * A per-case failure's attributions beyond the verdict's own: each further case shown to violate
 * the claim with the locus found in its first failing run, and the cases left unattributed (the
 * budget or the test's time spent, or an attribution that threw).
 */
function furtherAttributionLines(dataset: DatasetReport): string[] {
  const all = dataset.attributions ?? []
  const further = all.slice(1)
  if (further.length === 0) return []
  const lines = further
    .filter((entry) => entry.attributed)
    .map(
      (entry) =>
        `also attributed: rollout ${entry.rollout} of case "${showName(entry.id)}": ${entry.locus === null ? 'no causal locus found' : `causal locus step ${entry.locus.index} ${showName(entry.locus.name)}`}`,
    )
  // The verdict's own case counts too: its attribution may have found the budget spent as well.
  const skipped = all.filter((entry) => !entry.attributed).map((entry) => entry.id)
  if (skipped.length > 0) {
    lines.push(
      `not attributed (the claim's budget or the test's time ran out, or the attribution failed): ${namedCases(skipped)}; replay one with its rollout from the table`,
    )
  }
  return lines
}

/** How many failing cases a line names before it counts the rest. */
const CASES_NAMED = 10

/**
 * The decision of a per-case claim in one sentence (the message's decision line, the page's
 * reason): which cases were shown to violate the claim, or how many to satisfy it, and why it
 * stopped.
 *
 *   decided after 300 runs: 3 of 50 cases violate ≤ 5%: "t-07", "t-19", "t-33" (Holm across …)
 */
export function perCaseDecisionText(
  explanation: Extract<Explanation, { reason: 'per-case' }>,
  verdict: Verdict,
): string {
  const used = plural(verdict.rolloutsUsed, 'run')
  const side = CLAIMS[verdict.claim].direction === 'atLeast' ? '≥' : '≤'
  // As the claim line prints a bound: "5%", not "5.0%".
  const bound = `${side} ${Number((explanation.bound * 100).toFixed(4))}%`
  const how = `(${confidenceLevel(explanation.level)} on each side, ${explanation.method})`
  const after =
    explanation.why === 'decided'
      ? `decided after ${used}`
      : explanation.why === 'max-rollouts'
        ? `undecided after ${used} (maxRollouts)`
        : explanation.why === 'budget'
          ? `the budget ran out after ${used}`
          : `undecided after ${used}, when the test's timeout was near`
  if (explanation.violating.length > 0) {
    return `${after}: ${count(explanation.violating.length)} of ${plural(explanation.cases, 'case')} violate ${bound}: ${namedCases(explanation.violating)} ${how}`
  }
  if (explanation.satisfying === explanation.cases) {
    return `${after}: every one of ${plural(explanation.cases, 'case')} is ${bound} ${how}`
  }
  return `${after}: ${count(explanation.satisfying)} of ${plural(explanation.cases, 'case')} shown ${bound}, none shown to violate it ${how}; every case must run about as often as a claim about one input needs: raise maxRollouts, or accept the risk with onInconclusive: 'pass'`
}

/** Case ids, quoted: the first {@link CASES_NAMED}, then how many more. */
export function namedCases(ids: readonly string[]): string {
  const named = ids.slice(0, CASES_NAMED).map((id) => `"${showName(id)}"`)
  return ids.length > CASES_NAMED
    ? `${named.join(', ')} and ${count(ids.length - CASES_NAMED)} more`
    : named.join(', ')
}
