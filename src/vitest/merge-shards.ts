import { clopperPearson } from '../stats/clopper-pearson.js'
import { FIXED_RUNS_MEAN_METHOD, fixedRunsMeanTest } from '../stats/fixed-runs-mean.js'
import { percent, plural, rateIntervalText } from '../text/numbers.js'
import { DATASET_SUMMARY_CASES, worstCaseRows, type DatasetCaseRow } from '../verdict/schema.js'
import type { RunReportEntry } from './run-report.js'
import type { ShardPart } from './shard-part.js'

/** A shard's entry of one assertion, as the reporter collected it (with its `shard` part). */
export type ShardEntry = RunReportEntry & { shard: ShardPart }

/** One assertion's verdict from every shard's tallies, and the line the reporter prints for it. */
export interface MergedShards {
  entry: RunReportEntry
  message: string
  /** True when the verdict should fail the run: a fail, or an inconclusive verdict whose claim says so. */
  failsRun: boolean
}

/** How many case ids or shards a message names before it counts the rest. */
const NAMED = 5

/**
 * The verdict on the mean over every case of a dataset claim split across shards, from the parts
 * the shards left (one per shard, any order): the fixed-sample test of `fixedRunsMeanTest` once every
 * case ran its K times, or an inconclusive verdict that says what is wrong: a shard missing, a shard
 * or a case counted twice, shards that ran different claims, a case short of its runs. A run that
 * ended in an error fails the claim, as it does unsharded.
 */
export function mergeShards(parts: readonly ShardEntry[]): MergedShards {
  // An empty shard (no case fell on it) ran nothing and names no predicate: take another's fields.
  const first = parts.find((part) => part.shard.table.length > 0) ?? parts[0]
  if (first === undefined) throw new RangeError('mergeShards: no parts')
  const claim = first.shard
  const alpha = 1 - claim.confidence
  const seen = new Map<string, ShardPart['table'][number]>()
  const twice = new Set<string>()
  const indices = new Map<number, number>()
  const disagreeing: string[] = []
  for (const { shard } of parts) {
    indices.set(shard.index, (indices.get(shard.index) ?? 0) + 1)
    const differs = CLAIM_FIELDS.filter((field) => shard[field] !== claim[field])
    if (differs.length > 0) disagreeing.push(`shard ${shard.index}/${shard.count} (${differs.join(', ')})`)
    for (const row of shard.table) {
      if (seen.has(row.id)) twice.add(row.id)
      else seen.set(row.id, row)
    }
  }
  const missingShards = range(claim.count).filter((index) => !indices.has(index))
  const repeatedShards = [...indices].filter(([, times]) => times > 1).map(([index]) => index)
  const rows = [...seen.values()]
  const short = rows.filter((row) => row.runs !== claim.runsPerCase && row.errors === 0).map((row) => row.id)
  const errors = rows.reduce((sum, row) => sum + row.errors, 0)
  const problems: string[] = []
  if (disagreeing.length > 0) problems.push(`shards ran different claims: ${disagreeing.join(', ')}`)
  if (missingShards.length > 0) {
    problems.push(
      `${listed(missingShards.map((index) => `shard ${index}/${claim.count}`))} missing from the merge (${plural(claim.cases - seen.size, 'case')} of ${claim.cases} not run)`,
    )
  } else if (seen.size !== claim.cases) {
    problems.push(`${claim.cases - seen.size} of ${claim.cases} cases not run by any shard`)
  }
  if (repeatedShards.length > 0) {
    problems.push(
      `${listed(repeatedShards.map((index) => `shard ${index}/${claim.count}`))} merged more than once`,
    )
  }
  if (twice.size > 0)
    problems.push(`${plural(twice.size, 'case')} counted twice: ${listed(quoted([...twice]))}`)
  if (short.length > 0 && errors === 0) {
    problems.push(
      `${plural(short.length, 'case')} short of ${claim.runsPerCase} runs: ${listed(quoted(short))}`,
    )
  }

  const predicateIsBad = claim.direction === 'atMost'
  const runs = rows.reduce((sum, row) => sum + row.runs, 0)
  const failures = rows.reduce((sum, row) => sum + row.failures, 0)
  // The predicate's count: the runs against a "rarely" claim are those the predicate held in.
  const successes = predicateIsBad ? failures : runs - errors - failures
  const table: DatasetCaseRow[] = rows.map((row) => ({
    ...row,
    interval:
      row.runs - row.errors === 0
        ? null
        : clopperPearson(row.failures, row.runs - row.errors, claim.confidence),
  }))
  const worst = worstCaseRows(table).slice(0, DATASET_SUMMARY_CASES)

  let verdict: RunReportEntry['verdict']
  let rate = clopperPearson(successes, runs - errors, 1 - 2 * alpha)
  let reason: string
  if (errors > 0) {
    verdict = 'fail'
    reason = `${plural(errors, 'run')} ended in an error`
  } else if (problems.length > 0) {
    verdict = 'inconclusive'
    reason = problems.join('; ')
  } else {
    const test = fixedRunsMeanTest({
      cases: rows.map((row) => ({
        runs: row.runs,
        successes: predicateIsBad ? row.failures : row.runs - row.failures,
      })),
      bound: claim.bound,
      alpha,
    })
    rate = test.interval
    const holds = predicateIsBad ? test.decision === 'below' : test.decision === 'above'
    const breaks = predicateIsBad ? test.decision === 'above' : test.decision === 'below'
    verdict = holds ? 'pass' : breaks ? 'fail' : 'inconclusive'
    reason = `mean over cases ${percent(rate.point)}, ${rateIntervalText(rate)} (${FIXED_RUNS_MEAN_METHOD})`
  }
  const { shard: _shard, ...shared } = first
  const entry: RunReportEntry = {
    ...shared,
    verdict,
    rate,
    rolloutsUsed: runs,
    errors,
    locus: null,
    replay: null,
    artifact: null,
    html: null,
    dataset: { name: claim.dataset, cases: claim.cases, worst, rest: claim.cases - worst.length },
    merged: {
      shards: claim.count,
      merged: [...indices.keys()].sort((a, b) => a - b),
      missing: missingShards,
      countedTwice: [...twice],
      runsPerCase: claim.runsPerCase,
      method: FIXED_RUNS_MEAN_METHOD,
      reason,
    },
  }
  const side = predicateIsBad ? '≤' : '≥'
  const message =
    `${first.file} > ${first.test}: ${verdict} — mean over ${claim.cases} cases of dataset "${claim.dataset}" ` +
    `${side} ${percent(claim.bound)}: ${reason}; ${first.predicate} in ${successes} of ${plural(runs, 'run')} ` +
    `(${claim.runsPerCase} per case, from ${indices.size} of ${plural(claim.count, 'shard')})` +
    (worst.length === 0
      ? ''
      : `; worst cases: ${worst.map((row) => `"${row.id}" ${row.failures}/${row.runs}`).join(', ')}`)
  const failsRun = verdict === 'fail' || (verdict === 'inconclusive' && claim.onInconclusive === 'fail')
  return { entry, message, failsRun }
}

/** The fields every shard's part of one claim must agree on. */
const CLAIM_FIELDS = ['count', 'runsPerCase', 'direction', 'bound', 'confidence', 'dataset', 'cases'] as const

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index + 1)
}

function quoted(ids: readonly string[]): string[] {
  return ids.map((id) => `"${id}"`)
}

/** "a, b, c and 4 more": the first few, then a count. */
function listed(items: readonly string[]): string {
  if (items.length <= NAMED) return items.join(', ')
  return `${items.slice(0, NAMED).join(', ')} and ${items.length - NAMED} more`
}
