import { isAbsolute, join, relative, resolve } from 'node:path'
import type { MatcherState } from 'vitest'
import { toScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { runCheck, type CheckResult } from '../check/check.js'
import {
  CLAIM_OF_MATCHER,
  claimFromArguments,
  claimOf,
  type Claim,
  type MatcherName,
} from '../check/claims.js'
import { CausalReplayError } from '../errors.js'
import { parseOptions } from '../options/parse-options.js'
import { confidenceLevel, methodName, percent, scoreNumber } from '../text/numbers.js'
import { SEQUENTIAL_POINT } from '../text/verdict-message.js'
import { DEFAULTS } from '../options/defaults.js'
import { NO_ROLLOUT_COMPLETED } from '../text/summary-table.js'
import { asciiText } from '../text/ascii.js'
import { showName } from '../text/visible.js'
import { baselinePath } from '../verdict/baseline-file.js'
import { scoreSummary, type ScoreSummary } from '../verdict/schema.js'
import type { UpdateState } from '../verdict/baseline-file.js'
import type { Deadline } from '../rollout/options.js'
import { BaselineOptionsSchema, type BaselineOptions } from '../verdict/options.js'
import { ARGUMENT_COUNT, CLAIMS } from '../verdict/claim-table.js'
import { attemptOf, nextAssertion } from './assertion-number.js'
import { META_KEY, type CausalReplayMetaEntry } from './meta.js'
import { parentGoneSignal } from './parent-process.js'
import { providedSettings } from './provided.js'
import { coordinatedRateLimit } from './rate-limit-client.js'
import { refuseNot } from './refusals.js'
import { testFileCassette } from './test-cassette.js'

/** What a matcher returns to `expect.extend`: the message is built only when Vitest shows it. */
export interface MatcherOutcome {
  pass: boolean
  message: () => string
}

type CurrentTest = NonNullable<MatcherState['task']>

/**
 * The body of every rate matcher (`matcherFunctions` only binds a name): glue between Vitest
 * and `check`'s pipeline. It refuses `.not`, makes the matcher's claim from `args` (what the claim
 * takes, then the options; a baseline claim gets its file beside the test, its key from the test's
 * name and Vitest's update state), runs it with the plugin's defaults, the test's seed and signal,
 * then leaves a summary in `task.meta` and an annotation for the reporters.
 */
export async function runMatcher(
  state: MatcherState,
  matcher: MatcherName,
  received: unknown,
  args: unknown[],
): Promise<MatcherOutcome> {
  if (state.isNot) refuseNot(matcher)
  const scenario = toScenario(received as Scenario<unknown, unknown>, `expect(received).${matcher}()`)
  const task = state.task
  const test = currentTest(state, task)
  const settings = providedSettings(test.root)
  const index = nextAssertion(task, test.name, 'all')
  const attempts = testAttempts(task)
  const kind = CLAIM_OF_MATCHER[matcher]
  const row = CLAIMS[kind]
  const count = ARGUMENT_COUNT[row.takes]
  // Options that are not an object are reported by the claim's schema, as `options`.
  const options = args[count] ?? {}
  // The confidence is split over a retried test's attempts.
  const split = splitConfidence(options as object, settings.confidence ?? DEFAULTS.confidence, attempts)
  const claim =
    row.gate === 'baseline'
      ? baselineClaim(args[0], split.options, state, test, task)
      : claimFromArguments(kind, args.slice(0, count), split.options, matcher)
  // The test file's cassette: model calls an earlier run made are replayed instead of made again.
  const cassette = await testFileCassette(test.path, settings.cache, updateState(state), settings.cacheRedact)

  const watch = watchForMissingAwait(task, matcher)
  // A worker whose main process was killed stops sampling rather than paying for rollouts nobody reads.
  const parentGone = parentGoneSignal()
  let result: CheckResult
  try {
    result = await runCheck(scenario as Scenario<unknown, unknown>, claim, {
      test: { name: test.name, file: test.file },
      defaults: settings,
      signal: parentGone === undefined ? watch.signal : AbortSignal.any([watch.signal, parentGone]),
      report: { dir: settings.reportDir, assertion: index },
      root: test.root,
      cwd: process.cwd(),
      env: process.env,
      caller: matcher,
      deadline: testDeadline(task),
      rateLimit:
        settings.rateLimitUrl === undefined ? undefined : coordinatedRateLimit(settings.rateLimitUrl),
      cassette,
    })
  } catch (error) {
    // The test ended without awaiting this matcher: its hook already failed the test, saying so.
    if (watch.testEnded) return UNAWAITED
    throw error
  } finally {
    watch.settled = true
  }
  if (watch.testEnded) return UNAWAITED
  if (task !== undefined) await recordResult(task, matcher, result, settings.reportDir)
  const retryNote = split.note
  return {
    pass: result.passed,
    message: () => (retryNote === null ? result.message : `${result.message}\n\n${retryNote}`),
  }
}

/** How many times Vitest may run this test before it fails it: 1 + its `retry` count. */
export function testAttempts(task: CurrentTest | undefined): number {
  const retry = task?.retry
  const count = typeof retry === 'number' ? retry : (retry?.count ?? 0)
  return Number.isInteger(count) && count > 0 ? count + 1 : 1
}

/**
 * The call's options with the confidence split over a retried test's attempts (Bonferroni): each
 * attempt runs at 1 − (1 − confidence) / attempts, so the chance that any attempt gives a wrong
 * verdict — and a retry turns one wrong pass into the test's pass — stays within 1 − confidence.
 * Why split rather than refuse: `retry` is often set for a whole project (flaky network, a slow
 * model), and a rate assertion among such tests should still run, at an honest level. Options
 * that are not an object, or a confidence that is not a number, are left for the claim's schema
 * to report.
 */
function splitConfidence(
  call: object,
  confidence: number,
  attempts: number,
): { options: object; note: string | null } {
  if (attempts === 1 || typeof call !== 'object' || call === null || Array.isArray(call)) {
    return { options: call, note: null }
  }
  const given = (call as { confidence?: unknown }).confidence
  if (given !== undefined && (typeof given !== 'number' || !(given > 0 && given < 1))) {
    return { options: call, note: null }
  }
  const family = given ?? confidence
  const perAttempt = 1 - (1 - family) / attempts
  const note = `retry: ${attempts - 1} lets this test run ${attempts} times, so each attempt's verdict is at ${confidenceLevel(perAttempt)} confidence (Bonferroni): a wrong verdict on any attempt stays within ${confidenceLevel(1 - family)}, as at ${confidenceLevel(family)} without retries`
  return { options: { ...call, confidence: perAttempt }, note }
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

/**
 * What an un-awaited matcher returns once its test has ended: a pass, so that the promise nobody
 * awaits does not reject unhandled; the test itself was failed by {@link watchForMissingAwait}.
 */
const UNAWAITED: MatcherOutcome = { pass: true, message: () => '' }

/**
 * A matcher that is not awaited keeps sampling after its test has ended, and Vitest never sees its
 * verdict (custom async matchers are not tracked the way `expect.poll` is). When the test ends
 * first, this fails it with a message that names the matcher, and stops the rollouts; when its
 * timeout ended it, this only stops the rollouts.
 */
function watchForMissingAwait(task: CurrentTest | undefined, matcher: MatcherName) {
  const stop = new AbortController()
  const testSignal = task?.context.signal
  const watch = {
    signal: testSignal === undefined ? stop.signal : AbortSignal.any([testSignal, stop.signal]),
    testEnded: false,
    settled: false,
  }
  task?.context.onTestFinished(() => {
    if (watch.settled) return
    watch.testEnded = true
    stop.abort(new CausalReplayError('The test ended before the rate assertion finished.'))
    // Vitest aborts the test's signal when the test times out or the run is cancelled, and fails
    // the test saying so: the matcher may well have been awaited, and that error is the one to read.
    if (testSignal?.aborted === true) return
    throw new CausalReplayError(
      `expect(agent).${matcher}() was not awaited: the test ended while it was still running rollouts, so its verdict was lost. Rate matchers are async: write \`await expect(agent).${matcher}(…)\`.`,
    )
  })
  return watch
}

/** The claim of `toMatchRateBaseline`: its baseline lives beside the test file, keyed by the test's name. */
function baselineClaim(
  predicate: unknown,
  options: object,
  state: MatcherState,
  test: RunningTest,
  task: CurrentTest | undefined,
): Claim {
  const matcher = CLAIMS.baseline.matcher
  // The matcher places and keys the baseline itself: check what the user passed before adding that.
  parseOptions(matcher, BaselineOptionsSchema, options)
  const { name, ...rest } = options as BaselineOptions
  return claimOf(
    'baseline',
    predicate,
    {
      ...rest,
      file: baselinePath(test.path),
      name: name ?? `${test.name} ${nextAssertion(task, test.name, 'baseline')}`,
      update: updateState(state),
    },
    matcher,
  )
}

/** Leaves the summary in `task.meta` for the reporter and, for a failure, an annotation with the report. */
async function recordResult(
  task: CurrentTest,
  matcher: MatcherName,
  result: CheckResult,
  reportDir: string,
): Promise<void> {
  const { verdict } = result
  const locus = result.attribution?.steps.find((step) => step.index === result.attribution?.locus)
  // The entry's paths are relative to the report directory (the reporter may read another one);
  // the result shows them from the working directory the check was given.
  const fromReportDir = (shown: string | null | undefined) =>
    shown == null ? null : relative(reportDir, resolve(process.cwd(), shown)).replaceAll('\\', '/')
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
  const meta = task.meta as { [META_KEY]?: CausalReplayMetaEntry[] }
  // A retry (or repeat) reuses the task: entries of earlier attempts are not this run's result.
  meta[META_KEY] = [...(meta[META_KEY] ?? []).filter((earlier) => earlier.attempt === entry.attempt), entry]
  if (verdict.kind === 'pass') return
  const written = entry.html ?? entry.artifact
  await annotate(task, entry, written === null ? null : join(reportDir, written))
}

/** The running test: its full name, its file relative to the project root, its path, the root itself. */
interface RunningTest {
  name: string
  file: string
  path: string
  root: string
}

function currentTest(state: MatcherState, task: CurrentTest | undefined): RunningTest {
  const name = state.currentTestName ?? task?.fullTestName ?? ''
  const path = task?.file.filepath ?? state.testPath ?? resolve('unknown.test')
  // Vitest names a file by its path relative to the project root, so the root is what is left.
  const file = task?.file.name ?? relative(process.cwd(), path)
  const root =
    task !== undefined && isAbsolute(path) && path.endsWith(file)
      ? path.slice(0, path.length - file.length).replace(/[\\/]$/, '') || '/'
      : process.cwd()
  return { name, file: file.replaceAll('\\', '/'), path, root }
}

/** Vitest's snapshot update state: `-u` → 'all'; CI → 'none'; otherwise 'new'. */
function updateState(state: MatcherState): UpdateState {
  const snapshotState = state.snapshotState as { snapshotUpdateState?: unknown } | undefined
  const value = snapshotState?.snapshotUpdateState
  return value === 'all' || value === 'none' || value === 'new' ? value : 'new'
}

/**
 * A test annotation carrying the report, for reporters that show them (the default one, the HTML
 * UI); without an attachment when no report was written.
 */
async function annotate(task: CurrentTest, entry: CausalReplayMetaEntry, file: string | null): Promise<void> {
  const { rate, score } = entry
  // A sequential gate's point is marked as read at its stop, in full where the line has room;
  // the interval's method ("confidence sequence") is always there.
  const sequential = rate.method === 'confidence-sequence' || rate.method === 'rogan-gladen'
  const markers = sequential ? [` ${SEQUENTIAL_POINT}`, ' at the stop', ''] : ['']
  // A judge-corrected rate is not the share of runs: the count is the judge's yes answers.
  const judged = rate.method === 'rogan-gladen' ? ' judged yes' : ''
  const numbers =
    score !== undefined
      ? scoreNumbers(score)
      : rate.n === 0
        ? [`: ${NO_ROLLOUT_COMPLETED}`]
        : markers.map(
            (marker) =>
              `${judged} in ${rate.successes}/${rate.n} rollouts, ${percent(rate.point)}${marker} ` +
              `[${percent(rate.low)}–${percent(rate.high)}] (${confidenceLevel(rate.confidence)} ${methodName(rate.method)})`,
          )
  // The label and the step's name as the verdict message shows them: on one line, no raw escape
  // sequence (reporters print the message as it is).
  const locus = entry.locus === null ? null : { index: entry.locus.index, name: showName(entry.locus.name) }
  const message = annotationMessage(
    entry.verdict,
    showName(entry.predicate),
    numbers,
    locus,
    entry.matcher === 'toMatchRateBaseline',
  )
  if (file === null) {
    await task.context.annotate(message, 'causal-replay')
    return
  }
  await task.context.annotate(message, 'causal-replay', {
    path: file,
    contentType: file.endsWith('.html') ? 'text/html' : 'application/json',
  })
}

/**
 * The annotation's numbers for a score gate, longest first as for a rate: ": mean 0.433 at the
 * sequential stop [0.204–0.695] (90% betting confidence sequence), claim ≥ 0.7", then with a
 * shorter marker, then none.
 */
function scoreNumbers(score: ScoreSummary): string[] {
  const side = `claim ${CLAIMS[score.claim].direction === 'atLeast' ? '≥' : '≤'} ${scoreNumber(score.threshold)}`
  const mean = score.mean
  if (mean === null) return [`: ${NO_ROLLOUT_COMPLETED}, ${side}`]
  return [` ${SEQUENTIAL_POINT}`, ' at the stop', ''].map(
    (marker) =>
      `: mean ${scoreNumber(mean.point)}${marker} [${scoreNumber(mean.low)}–${scoreNumber(mean.high)}] ` +
      `(${confidenceLevel(mean.confidence)} betting confidence sequence), ${side}`,
  )
}

// Vitest names the copy of an attachment after the annotation's message (which is ASCII: see
// `annotationMessage`), plus 46 bytes of hash and extension: a message of at
// most 180 UTF-8 bytes keeps that name below the 255-byte limit of common file systems, whatever
// labels, step and tool names it quotes; 120 characters keep it one line (the numbers alone take
// about 55, a baseline's locus label 40).
const ANNOTATION_CHARACTERS = 120
const ANNOTATION_BYTES = 180

function fitsAnnotation(text: string): boolean {
  return (
    Array.from(text).length <= ANNOTATION_CHARACTERS && Buffer.byteLength(text, 'utf8') <= ANNOTATION_BYTES
  )
}

/**
 * "fail: call transfer_funds in 2/2 rollouts, 100.0% [15.8%–100.0%] (95% Clopper–Pearson); causal
 * locus: step 2 (model#3)", within the annotation limits (`numbers` is " in 2/2 rollouts, …" or
 * ": no rollout completed", or such texts from the most said to the least). The numbers are never
 * cut (a cut interval reads as another number, in the message and in the attachment's file name): a
 * shorter text of them is taken first, then the predicate's label gives way, at its end, then the
 * step's name, then the locus.
 */
export function annotationMessage(
  verdict: string,
  label: string,
  numberTexts: string | readonly string[],
  step: { index: number; name: string } | null,
  /** A baseline gate's locus is one failing rollout's, not the cause of the change in rate. */
  baseline = false,
): string {
  // Vitest names the attachment's copy after this line: its typographic characters (an interval's
  // dash, a cut label's ellipsis, a score's ≥) and those of names would make a file name of them.
  const predicate = asciiText(label)
  const numbers = typeof numberTexts === 'string' ? asciiText(numberTexts) : numberTexts.map(asciiText)
  const locus = step === null ? null : { index: step.index, name: asciiText(step.name) }
  const locusLabel = baseline ? 'locus of one failing rollout' : 'causal locus'
  // What follows the numbers, from the most said to the least: the step's name goes, then the
  // label is shortened, then the locus goes.
  const tails =
    locus === null
      ? ['']
      : [
          `; ${locusLabel}: step ${locus.index} (${locus.name})`,
          `; ${locusLabel}: step ${locus.index}`,
          // A shorter label would drop what a baseline's locus must say: the locus goes instead.
          ...(baseline ? [] : [`; locus: step ${locus.index}`]),
          '',
        ]
  const texts = typeof numbers === 'string' ? [numbers] : numbers
  const characters = Array.from(predicate)
  for (const tail of tails) {
    for (let keep = characters.length; keep >= Math.min(8, characters.length); keep--) {
      const shown =
        keep === characters.length ? predicate : `${characters.slice(0, keep).join('').trimEnd()}...`
      for (const text of texts) {
        const candidate = `${verdict}: ${shown}${text}${tail}`
        if (fitsAnnotation(candidate)) return candidate
      }
    }
  }
  return shortenMiddle(`${verdict}: ${predicate}${texts.at(-1) ?? ''}${tails[0] as string}`)
}

/** `text`, or its start and end around an ellipsis, within the annotation limits (never splitting a character). */
function shortenMiddle(text: string): string {
  const characters = Array.from(text)
  const fits = (candidate: string) => Buffer.byteLength(candidate, 'utf8') <= ANNOTATION_BYTES
  if (characters.length <= ANNOTATION_CHARACTERS && fits(text)) return text
  for (let keep = Math.min(characters.length, ANNOTATION_CHARACTERS - 1); keep > 0; keep--) {
    const head = Math.ceil(keep / 2)
    const candidate = `${characters.slice(0, head).join('')}...${characters.slice(characters.length - (keep - head)).join('')}`
    if (fits(candidate)) return candidate
  }
  return '...'
}
