import type { Artifact, Verdict } from '../verdict/schema.js'
import { percentInterval, signedInterval } from './numbers.js'
import { confidenceLevel, methodName, percent } from '../text/numbers.js'

/**
 * What "bad" means in the attribution: the predicate itself for a claim that it is rare
 * (`atMost`), its negation for a claim that it is usual (`atLeast`). P(bad) is the rate of this.
 */
export function badOutcomeLabel(verdict: Verdict): string {
  return verdict.bound.direction === 'atMost' ? verdict.predicate : `not ${verdict.predicate}`
}

/** Why the verdict is what it is, in one or two sentences that name the deciding interval and its method. */
export function verdictReason(verdict: Verdict): string {
  const kind = `${verdict.kind[0]?.toUpperCase()}${verdict.kind.slice(1)}`
  if (verdict.stop === 'error') {
    const where = verdict.replay === null ? 'A rollout' : `Rollout ${verdict.replay.rollout}`
    return `${kind}: ${where} ended in an error, and an error outcome fails the gate (allowErrors is false).`
  }
  switch (verdict.matcher) {
    case 'toRarely':
    case 'toUsually':
      return sequentialReason(verdict, kind)
    case 'toNever':
    case 'toAlways':
      return zeroToleranceReason(verdict, kind)
    case 'toMatchRateBaseline':
      return baselineReason(verdict, kind)
  }
}

function sequentialReason(verdict: Verdict, kind: string): string {
  const interval = verdict.decisionInterval
  if (interval === null) return `${kind}: no rollout completed, so nothing was decided.`
  const bound = confidenceLevel(verdict.bound.value)
  const test = `the anytime-valid ${verdict.decisionMethod ?? 'sequential test'}`
  const level = oneSidedLevel(interval.confidence)
  const used = `${verdict.rolloutsUsed} rollout${verdict.rolloutsUsed === 1 ? '' : 's'}`
  if (verdict.kind === 'inconclusive') {
    const why = verdict.stop === 'budget' ? `the budget ran out after ${used}` : `after ${used} (maxRollouts)`
    const more =
      verdict.rolloutsToDecide === null
        ? ''
        : ` About ${verdict.rolloutsToDecide} rollouts in all would decide it if the observed rate held.`
    return `${kind}: ${why}, ${test} bounds the rate at ${percent(interval.low)}–${percent(interval.high)} (${level} confidence bounds, one-sided each), which straddle the bound of ${bound}.${more}`
  }
  // The decisive end is the one that cleared the bound: the upper one for a pass of "at most".
  const upper = (verdict.bound.direction === 'atMost') === (verdict.kind === 'pass')
  const end = upper ? interval.high : interval.low
  return `${kind}: after ${used}, ${test} puts the ${level} ${upper ? 'upper' : 'lower'} confidence bound at ${percent(end)}, ${upper ? 'below' : 'above'} the bound of ${bound}; stopping early keeps the error rate.`
}

/**
 * The one-sided level of each end of a two-sided interval: a 90% confidence sequence bounds the
 * rate from each side at 95%, which is the level the claim is made at.
 */
export function oneSidedLevel(twoSidedConfidence: number): string {
  return confidenceLevel((1 + twoSidedConfidence) / 2)
}

/** Why a failing or inconclusive test has no attribution (or a pass needs none), for the headline and the chart. */
export function unattributedReason(artifact: Artifact): string {
  const { verdict, failing } = artifact
  if (verdict.kind === 'pass') return 'The test passed, so no run was attributed.'
  if (failing === null) return 'There was no failing rollout to attribute.'
  if (failing.error !== undefined)
    return 'The failing run ended in an error: error outcomes are shown, not attributed.'
  return 'Attribution was not run for this test (attribute: false, or the budget was spent).'
}

function zeroToleranceReason(verdict: Verdict, kind: string): string {
  const never = verdict.bound.direction === 'atMost'
  if (verdict.stop === 'occurrence') {
    const where = verdict.replay === null ? '' : ` in rollout ${verdict.replay.rollout}`
    return never
      ? `${kind}: it happened${where}; one occurrence refutes "never".`
      : `${kind}: it did not hold${where}; one exception refutes "always".`
  }
  const interval = verdict.decisionInterval
  const n = verdict.observed.n
  if (interval === null)
    return `${kind}: ${verdict.rolloutsUsed} rollouts ran and nothing could be concluded.`
  const proof = never
    ? `zero in ${n}: the rate is at most ${percent(interval.high)}`
    : `all of ${n}: the rate is at least ${percent(interval.low)}`
  const budget = verdict.stop === 'budget' ? 'the budget ran out; ' : ''
  return `${kind}: ${budget}${proof} (${confidenceLevel(interval.confidence)} one-sided ${methodName(interval.method)} bound).`
}

function baselineReason(verdict: Verdict, kind: string): string {
  const comparison = verdict.baseline
  if (comparison === undefined) return `${kind}: observed ${percentInterval(verdict.observed)}.`
  switch (comparison.status) {
    case 'compared': {
      const difference = comparison.difference
      if (difference === null) return `${kind}: compared with the stored rate in ${comparison.file}.`
      const tolerance = `${comparison.better === 'lower' ? '+' : '-'}${percent(comparison.tolerance)}`
      const relation = verdict.kind === 'fail' ? 'lies beyond' : 'does not lie beyond'
      return `${kind}: new − stored = ${signedInterval(difference)} (${confidenceLevel(difference.confidence)} ${methodName(difference.method)}), which ${relation} the ${tolerance} tolerance.`
    }
    case 'created':
      return `${kind}: no stored rate yet; this one was recorded in ${comparison.file}.`
    case 'updated':
      return `${kind}: the stored rate in ${comparison.file} was rewritten (update mode).`
    case 'missing':
      return `${kind}: ${comparison.file} has no entry "${comparison.key}" and this run may not write one (as in CI); record it with vitest -u.`
  }
}
