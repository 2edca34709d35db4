import type { Explanation } from '../verdict/explain.js'
import type { AgentComparison, ComparisonSummary, ComparisonVerdict } from '../verdict/schema.js'
import { confidenceLevel, count, percent, plural, rateIntervalText, signedPercent } from './numbers.js'

/** How a comparison's difference interval names its method. */
const PAIRED_METHOD = 'paired betting confidence sequence, anytime-valid'

/** The margin signed in the worse direction: "+5.0%" when lower is better, "-5.0%" when higher is. */
export function marginText(comparison: AgentComparison): string {
  return `${comparison.better === 'lower' ? '+' : '-'}${percent(comparison.margin)}`
}

/**
 * "vs old-prompt −20.0% [−31.2%, −8.4%] 90% confidence sequence, margin +5.0%": a comparison in a
 * summary cell, the difference of the predicate's rate (candidate − baseline) with its interval.
 */
export function versusText(summary: ComparisonSummary): string {
  const margin = `margin ${summary.better === 'lower' ? '+' : '-'}${percent(summary.margin)}`
  const difference = summary.difference
  if (difference === null) return `vs ${summary.baselineAgent}: no completed pair, ${margin}`
  return `vs ${summary.baselineAgent} ${signedPercent(difference.point)} [${signedPercent(difference.low)}, ${signedPercent(difference.high)}] ${confidenceLevel(difference.confidence)} paired confidence sequence, ${margin}`
}

/** "expected support-v2 to call issue_refund no more often than support-v1 (margin +5.0%) at 95% confidence". */
export function comparisonClaim(verdict: ComparisonVerdict): string {
  const { comparison } = verdict
  const more = comparison.better === 'lower' ? 'more' : 'less'
  return `expected ${verdict.agent} to ${verdict.predicate} no ${more} often than ${comparison.baselineAgent} (margin ${marginText(comparison)}) at ${confidenceLevel(verdict.confidence)} confidence`
}

/**
 * Whether the pairs shared random numbers, said plainly: pairing by rollout index is valid either
 * way, but only pairs with the same steps drew the same streams.
 */
export function pairingText(comparison: AgentComparison): string {
  const { worse, better, same } = comparison.pairs
  const total = worse + better + same
  const shared = comparison.sharedSteps
  if (total === 0) return 'no completed pair'
  if (shared === total)
    return `paired by rollout under common random numbers: both agents made the same steps in ${count(shared)} of ${plural(total, 'pair')}`
  if (shared === 0)
    return `paired by rollout index: the agents made different steps in all ${plural(total, 'pair')}, so the pairs are independent draws; the paired test stays valid`
  return `paired by rollout index: both agents made the same steps (common random numbers) in ${count(shared)} of ${plural(total, 'pair')}; the others are independent draws, and the paired test stays valid`
}

/** The lines a comparison adds to the message: the baseline's rate, the pairing, the pairs, where the difference stands. */
export function comparisonLines(verdict: ComparisonVerdict, explanation: Explanation): string[] {
  const { comparison } = verdict
  const reference = comparison.baselineObserved
  const rate =
    reference.n === 0 ? 'no completed rollout' : `${percent(reference.point)}, ${rateIntervalText(reference)}`
  const lines = [
    `baseline ${comparison.baselineAgent}: ${count(reference.successes)}/${plural(reference.n, 'rollout')} (${rate}), same seed`,
  ]
  if (comparison.baselineErrors > 0) {
    lines.push(
      verdict.allowErrors
        ? `baseline ${comparison.baselineAgent}: ${plural(comparison.baselineErrors, 'rollout')} ended in an error, its pair left out (allowErrors)`
        : `baseline ${comparison.baselineAgent}: ${plural(comparison.baselineErrors, 'rollout')} ended in an error, which fails the comparison (allowErrors is false)`,
    )
  }
  const { worse, better, same } = comparison.pairs
  lines.push(pairingText(comparison))
  if (worse + better + same > 0) {
    lines.push(
      `pairs: ${count(worse)} bad for ${verdict.agent} only, ${count(better)} bad for ${comparison.baselineAgent} only, ${count(same)} alike`,
    )
  }
  if (explanation.reason === 'comparison') lines.push(standingText(verdict, explanation))
  // Over a dataset the run attributed is the first worse pair of the case with the most: its own line says so.
  if (verdict.replay !== null && verdict.stop !== 'error' && worse > 0 && verdict.dataset === undefined) {
    lines.push(
      `rollout ${verdict.replay.rollout} is the first where ${verdict.agent} was bad and ${comparison.baselineAgent} was not: attributed on ${verdict.agent}`,
    )
  }
  return lines
}

function standingText(
  verdict: ComparisonVerdict,
  explanation: Extract<Explanation, { reason: 'comparison' }>,
): string {
  const { difference, comparison, level } = explanation
  const worseIsHigher = comparison.better === 'lower'
  const worseEnd = worseIsHigher ? difference.high : difference.low
  const betterEnd = worseIsHigher ? difference.low : difference.high
  const worseSide = worseIsHigher ? 'upper' : 'lower'
  const betterSide = worseIsHigher ? 'lower' : 'upper'
  const margin = marginText(comparison)
  const rates = `difference ${signedPercent(difference.point)} (${verdict.agent} − ${comparison.baselineAgent})`
  const used = plural(verdict.rolloutsUsed, 'pair')
  const level_ = confidenceLevel(level)
  const method = comparison.method ?? PAIRED_METHOD
  switch (explanation.finding) {
    case 'no-worse':
      return `decided after ${used}: ${rates}, ${level_} ${worseSide} bound ${signedPercent(worseEnd)} within the margin ${margin} (${method}) → no worse`
    case 'worse':
      return `decided after ${used}: ${rates}, ${level_} ${betterSide} bound ${signedPercent(betterEnd)} beyond the margin ${margin} (${method}) → worse`
    case 'undecided': {
      const why =
        explanation.why === 'budget'
          ? `the budget ran out after ${used}`
          : explanation.why === 'deadline'
            ? `undecided after ${used}, when the test's timeout was near`
            : `undecided after ${used} (maxRollouts ${count(verdict.maxRollouts)})`
      return `${why}: ${rates}, ${level_} bounds ${signedPercent(difference.low)} to ${signedPercent(difference.high)} straddle the margin ${margin} (${method}); raise maxRollouts, or a margin the change may use`
    }
  }
}
