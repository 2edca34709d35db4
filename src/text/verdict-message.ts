import type { Artifact, Verdict } from '../verdict/schema.js'
import { formatContrastive, formatShapley } from './attribution.js'
import { cutMiddle } from './context.js'
import { confidenceLevel, count, methodName, percent, plural, signedPercent } from './numbers.js'

/** Options of {@link formatVerdictMessage}. */
export interface VerdictMessageOptions {
  /** Default: none. The report (or artifact) path to print on the last line. */
  report?: string
}

/**
 * The one formatter of a verdict: the text of a matcher failure, of `causal-replay show`, and of
 * anything else that prints a verdict in a terminal. Plain text, no colors: it also
 * lands in JSON reports and bug reports. Every rate comes with its interval and the method's name;
 * every failure with its replay handle.
 */
export function formatVerdictMessage(artifact: Artifact, options: VerdictMessageOptions = {}): string {
  const { verdict } = artifact
  const lines: string[] = [claim(verdict)]
  const body: string[] = [
    observedLine(verdict),
    ...decisionLines(verdict),
    ...baselineLines(verdict),
    ...errorLines(verdict),
  ]
  body.push(...replayLines(verdict))
  // For an "at least" claim the outcome attribution explains is the predicate failing.
  const bad = verdict.bound.direction === 'atLeast' ? `not ${verdict.predicate}` : null
  if (artifact.contrastive !== null)
    body.push(...formatContrastive(artifact.contrastive, artifact.failing, bad))
  if (artifact.shapley !== null) body.push(...formatShapley(artifact.shapley, artifact.failing))
  if (options.report !== undefined) body.push(`report: ${options.report}`)
  lines.push(...body.map((line) => `  ${line}`))
  return lines.join('\n')
}

/** The claim, as the test states it: "expected support to rarely call issue_refund: ≤ 5% at 95% confidence". */
export function claim(verdict: Verdict): string {
  const { agent, predicate, bound } = verdict
  const level = confidenceLevel(verdict.confidence)
  switch (verdict.matcher) {
    case 'toRarely':
      return `expected ${agent} to rarely ${predicate}: ≤ ${boundText(bound.value)} at ${level} confidence`
    case 'toUsually':
      return `expected ${agent} to usually ${predicate}: ≥ ${boundText(bound.value)} at ${level} confidence`
    case 'toNever':
      return `expected ${agent} to never ${predicate}: 0 in ${plural(verdict.maxRollouts, 'rollout')}`
    case 'toAlways':
      return `expected ${agent} to always ${predicate}: in all ${plural(verdict.maxRollouts, 'rollout')}`
    case 'toMatchRateBaseline': {
      const comparison = verdict.baseline
      const better = comparison?.better ?? (bound.direction === 'atMost' ? 'lower' : 'higher')
      const stored = comparison?.stored
      const reference =
        stored === null || stored === undefined
          ? ''
          : ` (${percent(stored.point)}, tolerance ${better === 'lower' ? '+' : '-'}${percent(comparison?.tolerance ?? 0)})`
      return `expected ${agent} to ${predicate} no ${better === 'lower' ? 'more' : 'less'} often than its baseline${reference} at ${level} confidence`
    }
  }
}

/** "observed 23/100 rollouts (23.0%, 95% Wilson CI 15.8%–32.2%)  → fail". */
function observedLine(verdict: Verdict): string {
  const { observed } = verdict
  const rate =
    observed.n === 0
      ? 'no completed rollout'
      : `${percent(observed.point)}, ${confidenceLevel(observed.confidence)} ${methodName(observed.method)} CI ${percent(observed.low)}–${percent(observed.high)}`
  const tail =
    verdict.kind === 'inconclusive' && verdict.onInconclusive === 'pass'
      ? " (passes: onInconclusive is 'pass')"
      : ''
  return `observed ${count(observed.successes)}/${plural(observed.n, 'rollout')} (${rate})  → ${verdict.kind}${tail}`
}

/** How the decision was made (or why it was not). */
function decisionLines(verdict: Verdict): string[] {
  switch (verdict.matcher) {
    case 'toRarely':
    case 'toUsually':
      return sequentialDecision(verdict)
    case 'toNever':
    case 'toAlways':
      return zeroToleranceDecision(verdict)
    case 'toMatchRateBaseline':
      return []
  }
}

function sequentialDecision(verdict: Verdict): string[] {
  const interval = verdict.decisionInterval
  const method = verdict.decisionMethod ?? 'sequential test'
  const how = `(${method}, anytime-valid)`
  const level = confidenceLevel(verdict.confidence)
  const bound = boundText(verdict.bound.value)
  const used = plural(verdict.rolloutsUsed, 'rollout')
  if (verdict.stop === 'error')
    return [`stopped after ${used}: an error outcome fails the gate (allowErrors is false)`]
  if (interval === null) return [`no completed rollout to decide on (${used} run)`]
  const atMost = verdict.bound.direction === 'atMost'
  if (verdict.kind === 'pass' || verdict.kind === 'fail') {
    // The decisive end: the one that cleared the bound.
    const upper = atMost === (verdict.kind === 'pass')
    const end = upper ? interval.high : interval.low
    const relation = upper ? (verdict.kind === 'pass' ? '≤' : '<') : verdict.kind === 'pass' ? '≥' : '>'
    return [
      `decided after ${used}: ${level} ${upper ? 'upper' : 'lower'} confidence bound ${percent(end)} ${relation} ${bound} ${how}`,
    ]
  }
  const why =
    verdict.stop === 'budget' ? `the budget ran out after ${used}` : `undecided after ${used} (maxRollouts)`
  const lines = [
    `${why}: ${level} confidence bounds ${percent(interval.low)}–${percent(interval.high)} straddle ${bound} ${how}`,
  ]
  if (verdict.rolloutsToDecide !== null) {
    const raise = verdict.stop === 'budget' ? 'raise the budget' : 'raise maxRollouts'
    lines.push(
      `about ${count(verdict.rolloutsToDecide)} rollouts in all would decide it if the rate stays near ${percent(verdict.observed.point)}: ` +
        `${raise}, or accept the risk with onInconclusive: 'pass'`,
    )
  } else if (verdict.observed.n > 0) {
    lines.push(
      `the observed rate ${percent(verdict.observed.point)} is too close to ${bound} for any practical number of rollouts to decide: move the bound or change the agent`,
    )
  }
  return lines
}

function zeroToleranceDecision(verdict: Verdict): string[] {
  const used = plural(verdict.rolloutsUsed, 'rollout')
  if (verdict.stop === 'error')
    return [`stopped after ${used}: an error outcome fails the gate (allowErrors is false)`]
  if (verdict.stop === 'occurrence') {
    const first = verdict.replay === null ? '' : `first in rollout ${verdict.replay.rollout}; `
    return [`${first}stopped at the first occurrence (${used} run)`]
  }
  const interval = verdict.decisionInterval
  if (interval === null) return []
  const level = confidenceLevel(interval.confidence)
  const budget = verdict.stop === 'budget' ? `the budget ran out after ${used}; ` : ''
  return verdict.bound.direction === 'atMost'
    ? [
        `${budget}zero in ${count(verdict.observed.n)}: the rate is at most ${percent(interval.high)} (${level} one-sided ${methodName(interval.method)} bound, exact)`,
      ]
    : [
        `${budget}all of ${count(verdict.observed.n)}: the rate is at least ${percent(interval.low)} (${level} one-sided ${methodName(interval.method)} bound, exact)`,
      ]
}

function baselineLines(verdict: Verdict): string[] {
  const comparison = verdict.baseline
  if (comparison === undefined) return []
  const stored = comparison.stored
  const storedText =
    stored === null
      ? ''
      : `${count(stored.successes)}/${plural(stored.n, 'rollout')} (${percent(stored.point)}, ${confidenceLevel(stored.confidence)} ${methodName(stored.method)} CI ${percent(stored.low)}–${percent(stored.high)})`
  switch (comparison.status) {
    case 'compared': {
      const lines = [`baseline: ${storedText}, seed ${comparison.storedSeed ?? '?'}, in ${comparison.file}`]
      const difference = comparison.difference
      if (difference !== null) {
        const tolerance = `${comparison.better === 'lower' ? '+' : '-'}${percent(comparison.tolerance)}`
        const regressed = verdict.kind === 'fail'
        lines.push(
          `difference ${signedPercent(difference.point)} (${confidenceLevel(difference.confidence)} ${methodName(difference.method)} CI ` +
            `${signedPercent(difference.low)} to ${signedPercent(difference.high)}) ` +
            (regressed
              ? `lies beyond the ${tolerance} tolerance → regression`
              : `does not lie beyond the ${tolerance} tolerance`),
        )
      }
      return lines
    }
    case 'created':
      return [`baseline: none yet for "${comparison.key}"; recorded this rate in ${comparison.file}`]
    case 'updated':
      return [
        `baseline: rewritten (update mode) in ${comparison.file}${stored === null ? '' : `; it was ${storedText}`}`,
      ]
    case 'missing':
      return [
        `baseline: no entry "${comparison.key}" in ${comparison.file}, and this run may not write one (snapshot update state 'none', as in CI)`,
        'record it locally with `vitest -u` (or `vitest run --update`) and commit the file',
      ]
  }
}

function errorLines(verdict: Verdict): string[] {
  const { errors } = verdict
  if (errors.count === 0) return []
  const lines =
    verdict.stop === 'error'
      ? [
          `${plural(errors.count, 'rollout')} ended in an error (pass allowErrors: true to leave errors out of the rate instead):`,
        ]
      : [
          `${plural(errors.count, 'rollout')} of ${count(verdict.rolloutsUsed)} ended in an error, left out of the rate (allowErrors):`,
        ]
  for (const example of errors.examples) {
    lines.push(
      cutMiddle(
        `  rollout ${example.rollout}: ${example.error.kind}, ${example.error.name}: ${example.error.message}`,
        110,
      ),
    )
  }
  if (errors.count > errors.examples.length)
    lines.push(`  … and ${count(errors.count - errors.examples.length)} more`)
  return lines
}

/** The replay handle of the failing run, or the seed when there is none; never omitted on failure. */
function replayLines(verdict: Verdict): string[] {
  const { replay, seed } = verdict
  if (replay !== null) {
    return [
      `replay: { seed: ${replay.seed}, rollout: ${replay.rollout} }  ← record(agent, { seed: ${replay.seed}, rollout: ${replay.rollout} }) returns this run`,
    ]
  }
  if (verdict.kind === 'pass') return []
  const source =
    verdict.seedSource === 'option'
      ? 'the seed option'
      : verdict.seedSource === 'env'
        ? 'CAUSAL_REPLAY_SEED'
        : 'derived from the test name'
  return [`seed: ${seed} (${source}); CAUSAL_REPLAY_SEED=${seed} or { seed: ${seed} } reruns it`]
}

/** A bound as the test wrote it: 0.05 → "5%", 0.025 → "2.5%". */
function boundText(value: number): string {
  return `${Number((value * 100).toFixed(4))}%`
}
