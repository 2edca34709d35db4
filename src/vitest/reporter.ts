import { existsSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import chalk from 'chalk'
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node'
import { z } from 'zod'
import { formatMarkdownSummary } from '../text/markdown-summary.js'
import { formatSummaryTable, type Standing, type SummaryRow } from '../text/summary-table.js'
import { writeFileAtomically } from '../files/atomic-write.js'
import { writeJsonFile } from '../files/json-file.js'
import { BooleanField, NonEmptyPathField } from '../options/fields.js'
import { parseOptions, type StrictOptions } from '../options/parse-options.js'
import { displayPath } from '../files/display-path.js'
import { appendJobSummary, STEP_SUMMARY_ENV } from './github-summary.js'
import { SHARD_ENV } from './dataset-shard.js'
import { mergeShards, type MergedShards, type ShardEntry } from './merge-shards.js'
import { readMetaEntries } from './meta.js'
import { resolveReportDir } from './provided.js'
import { RUN_REPORT_SCHEMA, RunReportSchema, type RunReportEntry } from './run-report.js'

const reporterFields = {
  /**
   * Default: `CAUSAL_REPLAY_REPORT_DIR`, else `.causal-replay`, relative to the project root. Where
   * `report.json` and `index.html` are written (the plugin passes its own `reportDir`).
   */
  reportDir: NonEmptyPathField.optional(),
  /** Default false. True prints no table (files are still written). */
  silent: BooleanField.optional(),
}
const ReporterOptionsSchema: StrictOptions<typeof reporterFields> = z.strictObject(reporterFields)

/** Options of the reporter. */
export type CausalReplayReporterOptions = z.input<typeof ReporterOptionsSchema>

const PAINT: Record<Standing, (text: string) => string> = {
  fail: (text) => chalk.red(text),
  inconclusive: (text) => chalk.yellow(text),
  // Vitest counts the test as passed.
  'expected fail': (text) => chalk.green(text),
  pass: (text) => chalk.green(text),
}

/**
 * `vitest-causal-replay/reporter`: at the end of a run, a table of every rate assertion (test,
 * verdict, rate with its interval, rollouts, cost when there were model calls, causal locus), and
 * `report.json` plus `index.html` in the report directory; on GitHub Actions (`GITHUB_STEP_SUMMARY`
 * set), the same table in Markdown, appended to the job summary. It reads each test's `task.meta`, which survives blob files, so after
 * `vitest --merge-reports` the summary covers every shard (annotations are not re-emitted there,
 * meta is). In a `--shard` run that writes blobs it stays quiet: the merge writes the summary. A
 * dataset claim whose cases were split across machines (`CAUSAL_REPLAY_SHARD`) is decided here, once,
 * from every shard's tallies (see `mergeShards`), and a failing or inconclusive one fails the run. In
 * watch mode the table shows the tests of each rerun; the files keep the latest result of every test.
 */
export default class CausalReplayReporter implements Reporter {
  private vitest: Vitest | undefined
  private reportDir = ''
  // Every test seen with rate assertions, by test id: in watch mode a rerun of some files
  // updates their rows and keeps the others, so the index always covers the whole suite.
  private readonly entries = new Map<string, RunReportEntry[]>()
  // The tests of the current run: the table printed at its end.
  private readonly thisRun = new Set<string>()
  // Entries of dataset claims run on one shard of their cases, by the reported test they came
  // from: after --merge-reports the same test arrives once per blob, as a different TestCase, and
  // is merged from all of them (the same TestCase seen twice is one part, not a case counted twice).
  private readonly shardEntries = new Map<TestCase, ShardEntry[]>()

  private readonly options: z.output<typeof ReporterOptionsSchema>

  constructor(options: CausalReplayReporterOptions = {}) {
    this.options = parseOptions('vitest-causal-replay/reporter', ReporterOptionsSchema, options)
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    this.reportDir = resolveReportDir(this.options.reportDir, vitest.config.root)
  }

  onTestRunStart(): void {
    this.thisRun.clear()
    this.shardEntries.clear()
  }

  onTestCaseResult(testCase: TestCase): void {
    this.collect(testCase)
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    // Also walk the modules: a merge or a reporter added late may not have seen every result event.
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) this.collect(testCase)
    }
    if (this.isBlobShard()) return
    const merged = this.mergeShardEntries()
    const entries = [...this.entries.values()].flatMap((list) => withMerged(list, merged))
    const printed = [...this.thisRun].flatMap((id) => withMerged(this.entries.get(id) ?? [], merged))
    if (printed.length === 0) return
    // A claim decided only here fails the run itself: each shard's test passed with its part.
    if ([...merged.values()].some((each) => each.failsRun)) process.exitCode = 1

    // The files are a by-product of the verdicts: a directory that cannot be written is a warning,
    // never a failed run.
    const reportFile = join(this.reportDir, 'report.json')
    try {
      await writeJsonFile(reportFile, RunReportSchema, { schema: RUN_REPORT_SCHEMA, entries }, 'report')
    } catch (error) {
      this.warn(`causal-replay: could not write ${reportFile}: ${messageOf(error)}`)
    }
    const indexFile = join(this.reportDir, 'index.html')
    let index: string | null = displayPath(indexFile, process.cwd())
    try {
      // Loaded on use: a broken page renderer costs the index page, not the summary.
      const { renderIndexHtml } = await import('../html/index-page.js')
      await writeFileAtomically(indexFile, renderIndexHtml(entries))
    } catch (error) {
      index = null
      this.warn(`causal-replay: could not write ${indexFile}: ${messageOf(error)}`)
    }
    // The job summary is a file, not terminal output: written even when the table is silent.
    try {
      await appendJobSummary(() =>
        formatMarkdownSummary(
          printed.map((entry) => ({
            ...summaryRow(entry),
            report: this.reportPath(entry.html ?? entry.artifact),
          })),
        ),
      )
    } catch (error) {
      this.warn(`causal-replay: could not write the job summary (${STEP_SUMMARY_ENV}): ${messageOf(error)}`)
    }
    if (this.options.silent === true) return
    const rows: SummaryRow[] = printed.map(summaryRow)
    const table = formatSummaryTable(rows, {
      ...(index === null ? {} : { index }),
      paint: (standing, text) => PAINT[standing](text),
    })
    this.log(`\n${table}\n`)
    for (const each of merged.values()) this.log(`causal-replay: shards merged: ${each.message}`)
  }

  /** The merged verdict of every dataset claim split across shards, by its entry's file and test. */
  private mergeShardEntries(): Map<string, MergedShards> {
    const byClaim = new Map<string, ShardEntry[]>()
    for (const parts of this.shardEntries.values()) {
      for (const part of parts) {
        const key = claimKey(part)
        byClaim.set(key, [...(byClaim.get(key) ?? []), part])
      }
    }
    return new Map([...byClaim].map(([key, parts]) => [key, mergeShards(parts)]))
  }

  /** A path relative to the report directory, as a user would type it (from the working directory); null stays null. */
  private reportPath(path: string | null): string | null {
    return path === null ? null : displayPath(join(this.reportDir, path), process.cwd())
  }

  private collect(testCase: TestCase): void {
    const state = testCase.result().state
    // A skipped or filtered-out test keeps what an earlier run reported.
    if (state !== 'passed' && state !== 'failed') return
    const metaEntries = readMetaEntries(testCase.meta())
    if (metaEntries.length === 0) {
      // The test ran without reaching a rate assertion: it has no verdict any more.
      this.entries.delete(testCase.id)
      return
    }
    this.thisRun.add(testCase.id)
    const file = testCase.module.relativeModuleId.replaceAll('\\', '/')
    const reported: RunReportEntry[] = metaEntries.map(
      ({ reportDir, attempt: _attempt, ...entry }, index) => ({
        ...entry,
        test: metaEntries.length === 1 ? testCase.fullName : `${testCase.fullName} [${index + 1}]`,
        file,
        artifact: entry.artifact === null ? null : this.relocate(reportDir, entry.artifact),
        html: entry.html === null ? null : this.relocate(reportDir, entry.html),
        // Vitest counts a `test.fails` test that failed as passed, and so do the summaries.
        ...(testCase.options.fails === true ? { expectedFail: true } : {}),
      }),
    )
    this.entries.set(testCase.id, reported)
    const parts = reported.filter(isShardEntry)
    if (parts.length > 0) this.shardEntries.set(testCase, parts)
    else this.shardEntries.delete(testCase)
  }

  /**
   * A path relative to the worker's report directory, made relative to this reporter's. They are
   * the same directory unless configured apart; after a merge from other machines the worker's
   * absolute path may not exist here, and the relative path is kept as the shards wrote it.
   */
  private relocate(reportDir: string, path: string): string {
    if (resolve(reportDir) === this.reportDir || !existsSync(reportDir)) return path
    return relative(this.reportDir, join(reportDir, path)).replaceAll('\\', '/')
  }

  /**
   * A shard that writes a blob report (Vitest's `--shard`, or the cases of dataset claims split by
   * `CAUSAL_REPLAY_SHARD`): `--merge-reports` will produce the summary of all shards.
   */
  private isBlobShard(): boolean {
    const config = this.vitest?.config
    if (config === undefined) return false
    if (config.shard === undefined && !process.env[SHARD_ENV]?.trim()) return false
    return config.reporters.some((reporter) => (Array.isArray(reporter) ? reporter[0] : reporter) === 'blob')
  }

  private log(text: string): void {
    if (this.vitest !== undefined) this.vitest.logger.log(text)
    else console.log(text)
  }

  private warn(text: string): void {
    if (this.vitest !== undefined) this.vitest.logger.warn(text)
    else console.warn(text)
  }
}

/** A report entry as a summary row (the terminal table's and the job summary's). */
function summaryRow(entry: RunReportEntry): SummaryRow {
  return { ...entry, rollouts: entry.rolloutsUsed }
}

/** The key of one assertion across shards: its file and its test's name (numbered when a test has several). */
function claimKey(entry: RunReportEntry): string {
  return `${entry.file}\u0000${entry.test}`
}

function isShardEntry(entry: RunReportEntry): entry is ShardEntry {
  return entry.shard !== undefined
}

/** A test's entries with each shard's part replaced by its claim's merged verdict. */
function withMerged(
  list: readonly RunReportEntry[],
  merged: ReadonlyMap<string, MergedShards>,
): RunReportEntry[] {
  return list.map((entry) => (isShardEntry(entry) ? (merged.get(claimKey(entry))?.entry ?? entry) : entry))
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
