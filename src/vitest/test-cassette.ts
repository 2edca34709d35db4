import { afterAll, type RunnerTask } from 'vitest'
import type { Cassette } from '../cassette/cassette.js'
import { resolveCassetteMode, writeForUpdateState, type CassetteMode } from '../cassette/mode.js'
import { cassettePath } from '../cassette/path.js'
import { CassetteTooLargeError } from '../cassette/too-large-error.js'
import { formatStaleCassetteLine, formatStaleCassetteMarkdown } from '../cassette/stale-warning.js'
import { displayPath } from '../files/display-path.js'
import type { Environment } from '../options/environment.js'
import type { UpdateState } from '../verdict/baseline-file.js'
import { appendJobSummary, STEP_SUMMARY_ENV } from './github-summary.js'

// One cassette per test file in this worker: every matcher of the file shares it, and it is saved
// once, when the file ends. Promises, so concurrent tests of one file open it once.
const open = new Map<string, Promise<Cassette | null>>()

/**
 * The cassette of the test file at `testPath` (opened on first use), or null in mode `off`. The
 * mode is `CAUSAL_REPLAY_CACHE` in `env`, else the plugin's `cache`, else `auto`; what it writes
 * follows Vitest's update state (see `writeForUpdateState`); `redact`: the plugin's `cacheRedact` keys.
 */
export function testFileCassette(
  testPath: string,
  configured: CassetteMode | undefined,
  update: UpdateState,
  env: Environment,
  redact?: readonly string[],
): Promise<Cassette | null> {
  const file = cassettePath(testPath)
  let cassette = open.get(file)
  if (cassette === undefined) {
    const mode = resolveCassetteMode(configured, 'auto', 'causalReplay', env)
    // The cassette's code loads with the first cassette, not with the setup file every test file runs.
    cassette = import('../cassette/cassette.js').then(({ openCassetteIn }) =>
      openCassetteIn(env, file, {
        mode,
        write: writeForUpdateState(update),
        ...(redact === undefined ? {} : { redact }),
      }),
    )
    // A bad file fails every matcher that uses it, each with the same message; it is read once.
    open.set(file, cassette)
  }
  return cassette
}

/**
 * Saves the cassette of a finished test file (from the matchers' `afterAll`). A `vitest -u` run
 * prunes entries it did not use only when every test of the file ran: a run filtered by name, or
 * with a skipped test, keeps the entries of the tests it did not run. A file that cannot be
 * written is a warning, never a failed test: the verdicts stand.
 */
export async function saveTestFileCassette(testPath: string, file: RunnerTask | undefined): Promise<void> {
  const path = cassettePath(testPath)
  const opened = open.get(path)
  if (opened === undefined) return
  open.delete(path)
  let cassette: Cassette | null
  try {
    cassette = await opened
  } catch {
    // Opening failed: the matchers already reported it.
    return
  }
  if (cassette === null) return
  await warnIfStale(cassette)
  try {
    await cassette.save({ prune: file === undefined ? false : everyTestRan(file) })
  } catch (error) {
    // The other entries were written: the message names the calls left out.
    if (error instanceof CassetteTooLargeError) {
      process.stderr.write(`vitest-causal-replay: ${error.message}\n`)
      return
    }
    process.stderr.write(
      `vitest-causal-replay: the cassette ${displayPath(path, process.cwd())} could not be written (${error instanceof Error ? error.message : String(error)}); the verdicts stand, the calls will be made again next run.\n`,
    )
  }
}

/**
 * A cassette whose misses were called live and will not be written (CI) is stale: one line on
 * stderr per file, and the same in the GitHub job summary, so CI does not pay for it in silence.
 */
async function warnIfStale(cassette: Cassette): Promise<void> {
  const stale = cassette.staleness()
  if (stale === null) return
  process.stderr.write(`${formatStaleCassetteLine(stale, process.cwd())}\n`)
  try {
    await appendJobSummary(() => formatStaleCassetteMarkdown(stale, process.cwd()))
  } catch (error) {
    process.stderr.write(
      `vitest-causal-replay: could not write the job summary (${STEP_SUMMARY_ENV}): ${error instanceof Error ? error.message : String(error)}\n`,
    )
  }
}

/** False when a test or suite under `task` was skipped, filtered out or left as todo. */
function everyTestRan(task: RunnerTask): boolean {
  if (task.mode === 'skip' || task.mode === 'todo') return false
  return !('tasks' in task) || task.tasks.every(everyTestRan)
}

/**
 * Registers, in the matchers' setup file, the hook that saves each test file's cassette when the
 * file ends (after its own `afterAll` hooks, which run first as hooks run in reverse order).
 */
export function saveCassetteAfterEachFile(): void {
  // No timeout: a save takes as long as its file is large (seconds for hundreds of MB), and a hook
  // timeout would fail the file and lose every call it recorded. Nothing in it waits unboundedly:
  // the lock is retried for about 25 s, then the save fails with a warning.
  // Vitest reads the first parameter's pattern to find the fixtures a hook uses: none here.
  // eslint-disable-next-line no-empty-pattern
  afterAll(async ({}, suite) => {
    await saveTestFileCassette(suite.file.filepath, suite.file)
  }, Number.POSITIVE_INFINITY)
}
