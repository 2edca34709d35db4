import { join, relative, resolve } from 'node:path'
import type { CheckResult } from '../check/check.js'
import type { MatcherName } from '../check/claims.js'
import { datasetSummary, scoreSummary } from '../verdict/schema.js'
import { annotate } from './annotation.js'
import { attemptOf } from './assertion-number.js'
import { META_KEY, type CausalReplayMetaEntry } from './meta.js'
import type { CurrentTest } from './test-context.js'
import type { ShardRun } from './dataset-shard.js'
import type { ShardPart } from './shard-part.js'
import { clopperPearson } from '../stats/clopper-pearson.js'

/**
 * Leaves the summary in `task.meta` for the reporter and, for a failure, an annotation with the
 * report. `reportDir` is where the check wrote its files, `cwd` where the result's paths are shown from.
 */
export async function recordResult(
  task: CurrentTest,
  matcher: MatcherName,
  result: CheckResult,
  { reportDir, cwd, shard }: { reportDir: string; cwd: string; shard?: ShardPart | undefined },
): Promise<void> {
  const { verdict } = result
  const locus = result.attribution?.steps.find((step) => step.index === result.attribution?.locus)
  // The entry's paths are relative to the report directory (the reporter may read another one);
  // the result shows them from the working directory the check was given.
  const fromReportDir = (shown: string | null | undefined) =>
    shown == null ? null : relative(reportDir, resolve(cwd, shown)).replaceAll('\\', '/')
  const entry: CausalReplayMetaEntry = {
    matcher,
    agent: verdict.agent,
    predicate: verdict.predicate,
    verdict: verdict.kind,
    rate: verdict.observed,
    rolloutsUsed: verdict.rolloutsUsed,
    errors: verdict.errors.count,
    locus: locus === undefined ? null : { index: locus.index, name: locus.name },
    seed: verdict.seed,
    replay: verdict.replay,
    artifact: fromReportDir(result.report?.json),
    html: fromReportDir(result.report?.html),
    reportDir,
    attempt: attemptOf(task),
    ...(verdict.passK === undefined ? {} : { passK: verdict.passK }),
    ...(verdict.gate === 'comparison'
      ? {
          comparison: {
            baselineAgent: verdict.comparison.baselineAgent,
            difference: verdict.comparison.difference,
            margin: verdict.comparison.margin,
            better: verdict.comparison.better,
          },
        }
      : {}),
  }
  if (verdict.cost !== undefined) entry.cost = verdict.cost
  if (verdict.gate === 'baseline') {
    const { file, key, status } = verdict.baseline
    // What the reporter counts at the end of the run, as Vitest counts written snapshots.
    if (status === 'created' || status === 'updated') entry.baselineWritten = { file, key, status }
  }
  const score = scoreSummary(verdict)
  if (score !== undefined) entry.score = score
  const dataset = datasetSummary(verdict)
  if (dataset !== undefined) entry.dataset = dataset
  if (shard !== undefined) {
    // One shard's runs decide nothing about the mean over every case: the merge does.
    entry.verdict = 'inconclusive'
    entry.shard = shard
  }
  keepEntry(task, entry)
  if (verdict.kind === 'pass' || shard !== undefined) return
  const written = entry.html ?? entry.artifact
  await annotate(task, entry, written === null ? null : join(reportDir, written))
}

/** Adds `entry` to the test's meta; a retry (or repeat) reuses the task, so entries of earlier attempts go. */
function keepEntry(task: CurrentTest, entry: CausalReplayMetaEntry): void {
  const meta = task.meta as { [META_KEY]?: CausalReplayMetaEntry[] }
  meta[META_KEY] = [...(meta[META_KEY] ?? []).filter((earlier) => earlier.attempt === entry.attempt), entry]
}

/**
 * The meta entry of a dataset claim on a shard that none of the dataset's cases fall on: nothing
 * ran, but the merge must see that this shard took part.
 */
export function recordEmptyShard(
  task: CurrentTest,
  matcher: MatcherName,
  run: ShardRun,
  reportDir: string,
): void {
  const { agent } = run.scenario
  keepEntry(task, {
    matcher,
    agent: agent.name,
    predicate: '',
    verdict: 'inconclusive',
    rate: clopperPearson(0, 0),
    rolloutsUsed: 0,
    errors: 0,
    locus: null,
    seed: 0,
    replay: null,
    artifact: null,
    html: null,
    reportDir,
    attempt: attemptOf(task),
    shard: { ...run.part, table: [] },
  })
}
