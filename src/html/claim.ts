import { badOutcomeText, baselineStandingText, boundText, storedForText } from '../text/verdict-message.js'
import { pairingText } from '../text/comparison-lines.js'
import { perCaseDecisionText } from '../text/dataset-lines.js'
import { confidenceLevel, methodName, percent, scoreNumber, signedPercent } from '../text/numbers.js'
import { explainVerdict, oneSidedConfidence, type Explanation } from '../verdict/explain.js'
import { CLAIMS } from '../verdict/claim-table.js'
import type { Artifact, Verdict } from '../verdict/schema.js'

/**
 * What "bad" means in the attribution: the predicate itself for a claim that it is rare
 * (`atMost`), its negation for a claim that it is usual (`atLeast`), a score on the wrong side of
 * the threshold for a score claim. P(bad) is the rate of this.
 */
export function badOutcomeLabel(verdict: Verdict): string {
  return badOutcomeText(verdict) ?? verdict.predicate
}

/** Why the verdict is what it is, in one or two sentences that name the deciding interval and its method. */
export function verdictReason(verdict: Verdict): string {
  const kind = `${verdict.kind[0]?.toUpperCase()}${verdict.kind.slice(1)}`
  return `${kind}: ${reasonText(explainVerdict(verdict), verdict)}`
}

function reasonText(explanation: Explanation, verdict: Verdict): string {
  return `${explanationText(explanation, verdict)}${cappedRolloutsText(verdict)}`
}

/** Why rollouts timed out sooner than `timeoutMs`, when one did: the test had less time left. */
function cappedRolloutsText(verdict: Verdict): string {
  const cap = verdict.testTimeout
  if (cap == null || cap.rolloutTimeoutMs <= 0) return ''
  if (!verdict.errors.examples.some((example) => example.error.kind === 'timeout')) return ''
  return ` Rollouts were capped at ${cap.rolloutTimeoutMs} ms, the time left in the test (its timeout is ${cap.testTimeoutMs} ms): raise ${RAISE_TEST_TIMEOUT}, or make the agent faster.`
}

function explanationText(explanation: Explanation, verdict: Verdict): string {
  const used = `${verdict.rolloutsUsed} rollout${verdict.rolloutsUsed === 1 ? '' : 's'}`
  switch (explanation.reason) {
    case 'error-outcome': {
      const where = explanation.rollout === null ? 'A rollout' : `Rollout ${explanation.rollout}`
      return `${where} ended in an error, and an error outcome fails the gate (allowErrors is false).`
    }
    case 'no-completed-rollout':
      return verdict.stop === 'deadline'
        ? `no rollout completed before ${testTimeoutText(verdict)} was near, so nothing was decided; raise ${RAISE_TEST_TIMEOUT}.`
        : 'no rollout completed, so nothing was decided.'
    case 'per-case':
      return `${perCaseDecisionText(explanation, verdict)}.`
    case 'decided': {
      const level = confidenceLevel(explanation.level)
      const side = explanation.end === 'upper' ? 'below' : 'above'
      return `after ${used}, the anytime-valid ${explanation.method} puts the ${level} ${explanation.end} confidence bound at ${percent(explanation.value)}, ${side} the bound of ${boundText(explanation.bound)}; stopping early keeps the error rate.`
    }
    case 'undecided': {
      const why = stoppedAfter(explanation.why, used, testTimeoutText(verdict))
      const more =
        explanation.rolloutsToDecide === null
          ? ''
          : ` About ${explanation.rolloutsToDecide} rollouts in all would decide it if the observed rate held.`
      return `${why}, the anytime-valid ${explanation.method} bounds the rate at ${percent(explanation.low)}–${percent(explanation.high)} (${confidenceLevel(explanation.level)} confidence bounds, one-sided each), which straddle the bound of ${boundText(explanation.bound)}.${more}`
    }
    case 'score-decided': {
      const level = confidenceLevel(explanation.level)
      const side = explanation.end === 'upper' ? 'below' : 'above'
      return `after ${used}, the anytime-valid ${explanation.method} puts the ${level} ${explanation.end} confidence bound on the mean score at ${scoreNumber(explanation.value)}, ${side} the threshold of ${scoreNumber(explanation.threshold)}; stopping early keeps the error rate.`
    }
    case 'score-undecided': {
      const why = stoppedAfter(explanation.why, used, testTimeoutText(verdict))
      return `${why}, the anytime-valid ${explanation.method} bounds the mean score at ${scoreNumber(explanation.low)}–${scoreNumber(explanation.high)} (${confidenceLevel(explanation.level)} confidence bounds, one-sided each), which straddle the threshold of ${scoreNumber(explanation.threshold)}.`
    }
    case 'occurrence': {
      const where = explanation.rollout === null ? '' : ` in rollout ${explanation.rollout}`
      const { direction, phrase } = CLAIMS[explanation.claim]
      return direction === 'atMost'
        ? `it happened${where}; one occurrence refutes "${phrase}".`
        : `it did not hold${where}; one exception refutes "${phrase}".`
    }
    case 'none-in-n': {
      const proof =
        CLAIMS[explanation.claim].direction === 'atMost'
          ? `zero in ${explanation.n}: the rate is at most ${percent(explanation.value)}`
          : `all of ${explanation.n}: the rate is at least ${percent(explanation.value)}`
      const budget =
        explanation.cutShort === 'budget'
          ? 'the budget ran out; '
          : explanation.cutShort === 'deadline'
            ? `${testTimeoutText(verdict)} was near (raise ${RAISE_TEST_TIMEOUT} for more); `
            : ''
      return `${budget}${proof} (${confidenceLevel(explanation.level)} one-sided ${methodName(explanation.method)} bound).`
    }
    case 'nothing-concluded':
      return `${verdict.rolloutsUsed} rollouts ran and nothing could be concluded.`
    case 'comparison': {
      const { difference, comparison } = explanation
      const level = confidenceLevel(explanation.level)
      const margin = `${comparison.better === 'lower' ? '+' : '-'}${percent(comparison.margin)}`
      const rates = `after ${used}, ${verdict.agent} − ${comparison.baselineAgent} = ${signedPercent(difference.point)} (${level} one-sided bounds ${signedPercent(difference.low)} to ${signedPercent(difference.high)}, paired betting confidence sequence, anytime-valid)`
      const standing =
        explanation.finding === 'no-worse'
          ? `within the margin of ${margin}`
          : explanation.finding === 'worse'
            ? `worse than the baseline beyond the margin of ${margin}`
            : `straddling the margin of ${margin}`
      return `${rates}: ${standing}. ${pairingText(comparison)}.`
    }
    case 'baseline': {
      const comparison = explanation.comparison
      switch (comparison.status) {
        case 'compared': {
          const standing = baselineStandingText(comparison)
          return standing === null ? `compared with the stored rate in ${comparison.file}.` : `${standing}.`
        }
        case 'created':
          return `no stored rate yet; this one was recorded in ${comparison.file}.`
        case 'updated':
          return `the stored rate in ${comparison.file} was rewritten (update mode).`
        case 'missing':
          return `${comparison.file} has no entry "${comparison.key}" and this run may not write one (as in CI); record it with vitest -u.`
        case 'mismatch':
          return `the entry "${comparison.key}" in ${comparison.file} was recorded for ${storedForText(comparison)}, not for this claim; give the assertion its own name, or rewrite the entry with vitest -u.`
      }
    }
  }
}

/** The option a gate stopped by its test's timeout needs raised. */
const RAISE_TEST_TIMEOUT = "the test's timeout (test(name, { timeout }) or testTimeout in the config)"

/** "the test's timeout (5000 ms)", or without the number when the verdict does not record it. */
function testTimeoutText(verdict: Verdict): string {
  const ms = verdict.testTimeout?.testTimeoutMs
  return ms === undefined ? "the test's timeout" : `the test's timeout (${ms} ms)`
}

/** {@link oneSidedConfidence} as the page shows a level: 0.9 → "95%". */
export function oneSidedLevel(twoSidedConfidence: number): string {
  return confidenceLevel(oneSidedConfidence(twoSidedConfidence))
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

/** What stopped an undecided sequential gate (a rate's or a score's), as its sentence opens. */
function stoppedAfter(
  why: 'budget' | 'deadline' | 'max-rollouts',
  used: string,
  testTimeout: string,
): string {
  if (why === 'budget') return `the budget ran out after ${used}`
  if (why === 'deadline')
    return `${testTimeout} was near after ${used} (raise ${RAISE_TEST_TIMEOUT} for more)`
  return `after ${used} (maxRollouts)`
}
