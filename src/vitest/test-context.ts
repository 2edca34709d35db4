import { isAbsolute, relative, resolve } from 'node:path'
import type { MatcherState } from 'vitest'
import type { Cassette } from '../cassette/cassette.js'
import type { CheckContext } from '../check/check.js'
import type { MatcherName } from '../check/claims.js'
import type { Environment } from '../options/environment.js'
import type { Deadline } from '../rollout/options.js'
import type { UpdateState } from '../verdict/baseline-file.js'
import { nextAssertion } from './assertion-number.js'
import { parentGoneSignal } from './parent-process.js'
import { providedSettings, type CausalReplayProvided } from './provided.js'
import { coordinatedRateLimit } from './rate-limit-client.js'
import { testFileCassette } from './test-cassette.js'

/** The Vitest task of the test a matcher runs in. */
export type CurrentTest = NonNullable<MatcherState['task']>

/** The running test: its full name, its file relative to the project root, its path, the root itself. */
export interface RunningTest {
  name: string
  file: string
  path: string
  root: string
}

/**
 * What a rate matcher knows of the test it runs in, read once when the matcher is called: the rest
 * of the matcher reads these rather than `process`, Vitest's state or the task's options.
 */
export interface TestContext {
  /** The task, absent when the matcher runs outside a test. */
  task: CurrentTest | undefined
  test: RunningTest
  /** The working directory: paths in messages are shown from it. */
  cwd: string
  env: Environment
  /** The plugin's settings (or the defaults without it). */
  settings: CausalReplayProvided
  /** This assertion's number among the test's (see `nextAssertion`): it names its report files. */
  assertion: number
  /** How many times Vitest may run the test (see {@link testAttempts}). */
  attempts: number
  /** When the check must be done for the test to report it (see {@link testDeadline}). */
  deadline: Deadline | undefined
  /** Vitest's snapshot update state, which baselines and the cassette follow. */
  update: UpdateState
}

/** The context of the test `state` describes; it takes the assertion's number. */
export function testContext(state: MatcherState): TestContext {
  const task = state.task
  const cwd = process.cwd()
  const env = process.env
  const test = runningTest(state, task, cwd)
  return {
    task,
    test,
    cwd,
    env,
    settings: providedSettings(test.root, env),
    assertion: nextAssertion(task, test.name, 'all'),
    attempts: testAttempts(task),
    deadline: testDeadline(task),
    update: updateState(state),
  }
}

/** The test file's cassette: model calls an earlier run made are replayed instead of made again. */
export function testCassette(context: TestContext): Promise<Cassette | null> {
  const { test, settings, update, env } = context
  return testFileCassette(test.path, settings.cache, update, env, settings.cacheRedact)
}

/**
 * Where the check of `matcher` runs: the test's context, its cassette, and a signal that stops it
 * with the test (`testSignal`) or once the worker's main process is gone.
 */
export function checkContext(
  context: TestContext,
  matcher: MatcherName,
  cassette: Cassette | null,
  testSignal: AbortSignal,
): CheckContext {
  const { test, settings } = context
  // A worker whose main process was killed stops sampling rather than paying for rollouts nobody reads.
  const parentGone = parentGoneSignal()
  return {
    test: { name: test.name, file: test.file },
    defaults: settings,
    signal: parentGone === undefined ? testSignal : AbortSignal.any([testSignal, parentGone]),
    report: { dir: settings.reportDir, assertion: context.assertion },
    root: test.root,
    cwd: context.cwd,
    env: context.env,
    caller: matcher,
    deadline: context.deadline,
    rateLimit: settings.rateLimitUrl === undefined ? undefined : coordinatedRateLimit(settings.rateLimitUrl),
    cassette,
  }
}

/** How many times Vitest may run this test before it fails it: 1 + its `retry` count. */
export function testAttempts(task: CurrentTest | undefined): number {
  const retry = task?.retry
  const count = typeof retry === 'number' ? retry : (retry?.count ?? 0)
  return Number.isInteger(count) && count > 0 ? count + 1 : 1
}

/**
 * When the gate must be done for its test to report it: the test's timeout from when it started,
 * less a margin to write the message and the files (10% of the timeout, from 200 ms to 2 s). Past
 * its timeout Vitest fails the test with "Test timed out" alone, and the verdict is lost. None when
 * the test has no timeout (0) or no start time.
 */
export function testDeadline(task: CurrentTest | undefined): Deadline | undefined {
  const timeout = task?.timeout
  const started = task?.result?.startTime
  if (timeout === undefined || timeout <= 0 || !Number.isFinite(timeout) || started === undefined)
    return undefined
  const margin = Math.min(Math.max(timeout * 0.1, 200), 2000)
  return { at: started + timeout - margin, testTimeoutMs: timeout }
}

function runningTest(state: MatcherState, task: CurrentTest | undefined, cwd: string): RunningTest {
  const name = state.currentTestName ?? task?.fullTestName ?? ''
  const path = task?.file.filepath ?? state.testPath ?? resolve(cwd, 'unknown.test')
  // Vitest names a file by its path relative to the project root, so the root is what is left.
  const file = task?.file.name ?? relative(cwd, path)
  const root =
    task !== undefined && isAbsolute(path) && path.endsWith(file)
      ? path.slice(0, path.length - file.length).replace(/[\\/]$/, '') || '/'
      : cwd
  return { name, file: file.replaceAll('\\', '/'), path, root }
}

/** Vitest's snapshot update state: `-u` → 'all'; CI → 'none'; otherwise 'new'. */
function updateState(state: MatcherState): UpdateState {
  const snapshotState = state.snapshotState as { snapshotUpdateState?: unknown } | undefined
  const value = snapshotState?.snapshotUpdateState
  return value === 'all' || value === 'none' || value === 'new' ? value : 'new'
}
