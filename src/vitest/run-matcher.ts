import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import type { MatcherState } from 'vitest'
import { toScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { InvalidOptionError } from '../errors.js'
import { confidenceLevel, methodName, percent } from '../text/numbers.js'
import { formatVerdictMessage } from '../text/verdict-message.js'
import type { Predicate } from '../trajectory/queries.js'
import { buildArtifact, slugify, writeArtifact } from '../verdict/artifact.js'
import { baselinePath } from '../verdict/baseline-file.js'
import { runBaselineGate, type UpdateState } from '../verdict/baseline-gate.js'
import { diagnose } from '../verdict/diagnose.js'
import { predicateLabel } from '../verdict/label.js'
import {
  resolveBaseline,
  resolveSequentialGate,
  resolveZeroTolerance,
  type BaselineOptions,
  type MatcherDefaults,
  type RarelyOptions,
  type ResolvedBaseline,
  type ResolvedSequentialGate,
  type ResolvedZeroTolerance,
  type UsuallyOptions,
  type ZeroToleranceOptions,
} from '../verdict/options.js'
import type { MatcherName } from '../verdict/schema.js'
import { chooseSeed } from '../verdict/seed.js'
import { runSequentialGate, type GateRun, type GateSubject } from '../verdict/sequential-gate.js'
import { runZeroToleranceGate } from '../verdict/zero-tolerance-gate.js'
import { displayPath } from './display-path.js'
import { META_KEY, type CausalReplayMetaEntry } from './meta.js'
import { providedSettings } from './provided.js'
import { refuseNot } from './refusals.js'

/** What a matcher returns to `expect.extend`: the message is built only when Vitest shows it. */
export interface MatcherOutcome {
  pass: boolean
  message: () => string
}

/** The options object of each matcher. */
export interface MatcherOptionsMap {
  toRarely: RarelyOptions
  toUsually: UsuallyOptions
  toNever: ZeroToleranceOptions
  toAlways: ZeroToleranceOptions
  toMatchRateBaseline: BaselineOptions
}

type CurrentTest = NonNullable<MatcherState['task']>

// Assertions per test, to give each its own artifact (and each unnamed baseline its own key).
const assertionCounts = new WeakMap<object, Map<string, number>>()

/**
 * The body of every rate matcher (the files in `matchers/` only bind a name): checks the call,
 * resolves options (call > plugin > built-in defaults) and the seed, runs the gate, explains a
 * failure with attribution, writes the artifact and report, leaves a summary in `task.meta` and an
 * annotation for the reporters, and returns the verdict with its lazily formatted message.
 */
export async function runMatcher<M extends MatcherName>(
  state: MatcherState,
  matcher: M,
  received: unknown,
  predicate: unknown,
  options: MatcherOptionsMap[M] | undefined,
): Promise<MatcherOutcome> {
  if (state.isNot) refuseNot(matcher)
  const scenario = toScenario(received as Scenario<unknown, unknown>, `expect(received).${matcher}()`)
  if (typeof predicate !== 'function') {
    throw new InvalidOptionError(
      `${matcher}: the first argument must be a predicate, (trajectory) => boolean, such as calledTool('issue_refund'); got ${describe(predicate)}.`,
    )
  }
  const task = state.task
  const test = currentTest(state, task)
  const settings = providedSettings(test.root)
  const call = options ?? {}
  if (typeof call !== 'object' || call === null) {
    throw new InvalidOptionError(`${matcher}: the options must be an object, got ${describe(call)}.`)
  }
  const chosen = chooseSeed((call as { seed?: number }).seed, { file: test.file, name: test.name })
  const resolved = resolveOptions(matcher, call, settings, chosen.seed)
  const signal = task?.context.signal
  const subject: GateSubject = {
    matcher,
    agent: scenario.agent.name,
    predicate: predicate as Predicate,
    label: resolved.label ?? predicateLabel(predicate),
    seedSource: chosen.source,
  }
  const index = nextAssertion(task, 'all')

  let run: GateRun
  switch (resolved.kind) {
    case 'sequential':
      run = await runSequentialGate(scenario, subject, resolved, signal)
      break
    case 'zero-tolerance':
      run = await runZeroToleranceGate(scenario, subject, resolved, signal)
      break
    case 'baseline': {
      const key = resolved.name ?? `${test.name} ${nextAssertion(task, 'baseline')}`
      const displayFile = join(dirname(test.file), '__baselines__', `${basename(test.file)}.rates.json`)
      const target = {
        file: baselinePath(test.path),
        displayFile: displayFile.replaceAll('\\', '/'),
        key,
        updateState: updateState(state),
      }
      run = await runBaselineGate(scenario, subject, resolved, target, signal)
      break
    }
  }

  const diagnosis = await diagnose(scenario, run, resolved, signal)
  const artifact = buildArtifact({ name: test.name, file: test.file }, run, diagnosis)
  const slug = `${slugify(test.name) || 'test'}${index === 1 ? '' : `-${index}`}`
  const written = await writeArtifact(settings.reportDir, slug, artifact)
  const shown = displayPath(join(settings.reportDir, written.html ?? written.json))
  const verdict = artifact.verdict
  const locusStep = diagnosis.contrastive?.steps.find((step) => step.index === diagnosis.contrastive?.locus)

  if (task !== undefined) {
    const entry: CausalReplayMetaEntry = {
      matcher,
      agent: verdict.agent,
      predicate: verdict.predicate,
      verdict: verdict.kind,
      rate: verdict.observed,
      decisionInterval: verdict.decisionInterval,
      rolloutsUsed: verdict.rolloutsUsed,
      errors: verdict.errors.count,
      locus: locusStep === undefined ? null : { index: locusStep.index, name: locusStep.name },
      seed: verdict.seed,
      replay: verdict.replay,
      artifact: written.json,
      html: written.html,
      reportDir: settings.reportDir,
      attempt: attemptOf(task),
    }
    const meta = task.meta as { [META_KEY]?: CausalReplayMetaEntry[] }
    // A retry (or repeat) reuses the task: entries of earlier attempts are not this run's result.
    meta[META_KEY] = [...(meta[META_KEY] ?? []).filter((earlier) => earlier.attempt === entry.attempt), entry]
    if (verdict.kind !== 'pass')
      await annotate(task, entry, join(settings.reportDir, written.html ?? written.json))
  }

  const pass =
    verdict.kind === 'pass' ||
    (verdict.kind === 'inconclusive' && resolved.kind === 'sequential' && resolved.onInconclusive === 'pass')
  const note =
    written.htmlError === null
      ? ''
      : `\n  (the HTML report could not be rendered: ${written.htmlError.message})`
  return { pass, message: () => formatVerdictMessage(artifact, { report: shown }) + note }
}

/** The matcher's options with every default filled in (call > plugin > built-in). */
function resolveOptions(
  matcher: MatcherName,
  call: object,
  defaults: MatcherDefaults,
  seed: number,
): ResolvedSequentialGate | ResolvedZeroTolerance | ResolvedBaseline {
  switch (matcher) {
    case 'toRarely':
    case 'toUsually':
      return resolveSequentialGate(matcher, call as RarelyOptions & UsuallyOptions, defaults, seed)
    case 'toNever':
    case 'toAlways':
      return resolveZeroTolerance(matcher, call as ZeroToleranceOptions, defaults, seed)
    case 'toMatchRateBaseline':
      return resolveBaseline(call as BaselineOptions, defaults, seed)
  }
}

/** The running test: its full name, its file relative to the project root, the root itself. */
function currentTest(
  state: MatcherState,
  task: CurrentTest | undefined,
): { name: string; file: string; path: string; root: string } {
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

/** Numbers the assertions of one attempt of a test, per kind, from 1 (a retry starts again at 1). */
function nextAssertion(task: CurrentTest | undefined, kind: string): number {
  if (task === undefined) return 1
  let counts = assertionCounts.get(task)
  if (counts === undefined) assertionCounts.set(task, (counts = new Map()))
  const key = `${attemptOf(task)}:${kind}`
  const next = (counts.get(key) ?? 0) + 1
  counts.set(key, next)
  return next
}

/** Which run of a test this is: its retry and repeat counts. */
function attemptOf(task: CurrentTest): string {
  return `${task.result?.retryCount ?? 0}/${task.result?.repeatCount ?? 0}`
}

/** Vitest's snapshot update state: `-u` → 'all'; CI → 'none'; otherwise 'new'. */
function updateState(state: MatcherState): UpdateState {
  const snapshotState = state.snapshotState as { snapshotUpdateState?: unknown } | undefined
  const value = snapshotState?.snapshotUpdateState
  return value === 'all' || value === 'none' || value === 'new' ? value : 'new'
}

/** A test annotation carrying the report, for reporters that show them (the default one, the HTML UI). */
async function annotate(task: CurrentTest, entry: CausalReplayMetaEntry, file: string): Promise<void> {
  const locus = entry.locus === null ? '' : `; causal locus: step ${entry.locus.index} (${entry.locus.name})`
  const { rate } = entry
  const observed =
    `${entry.predicate} in ${rate.successes}/${rate.n} rollouts, ${percent(rate.point)} ` +
    `[${percent(rate.low)}–${percent(rate.high)}] (${confidenceLevel(rate.confidence)} ${methodName(rate.method)})`
  await task.context.annotate(`${entry.verdict}: ${observed}${locus}`, 'causal-replay', {
    path: file,
    contentType: file.endsWith('.html') ? 'text/html' : 'application/json',
  })
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object'
  return `${typeof value} ${JSON.stringify(value)}`
}
