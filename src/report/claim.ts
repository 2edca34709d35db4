import type { Verdict } from '../verdict/schema.js'
import { confidenceLabel, percentInterval, roundPercent } from './numbers.js'

const MATCHER_VERBS: Record<Verdict['matcher'], string> = {
  toRarely: 'rarely',
  toUsually: 'usually',
  toNever: 'never',
  toAlways: 'always',
  toMatchRateBaseline: 'keep its baseline rate of',
}

/** "≤ 5%" or "≥ 95%": the bound of the claim. */
export function boundLabel(verdict: Verdict): string {
  return `${verdict.bound.direction === 'atMost' ? '≤' : '≥'} ${roundPercent(verdict.bound.value)}`
}

/** The claim a test made, as the matcher message words it: "expected support to rarely refund wrongly: ≤ 5% at 95% confidence". */
export function claimSentence(verdict: Verdict): string {
  return `expected ${verdict.agent} to ${MATCHER_VERBS[verdict.matcher]} ${verdict.predicate}: ${boundLabel(verdict)} at ${confidenceLabel(verdict.confidence)} confidence`
}

/**
 * What "bad" means in the attribution: the predicate itself for a claim that it is rare
 * (`atMost`), its negation for a claim that it is usual (`atLeast`). P(bad) is the rate of this.
 */
export function badOutcomeLabel(verdict: Verdict): string {
  return verdict.bound.direction === 'atMost' ? verdict.predicate : `not ${verdict.predicate}`
}

/** Why the verdict is what it is, in one sentence that names the deciding interval and its method. */
export function verdictReason(verdict: Verdict): string {
  const interval = verdict.decisionInterval ?? verdict.observed
  const which =
    verdict.decisionInterval === null
      ? `the ${percentInterval(interval)}`
      : `the anytime-valid ${percentInterval(interval)} (valid under optional stopping)`
  const bound = roundPercent(verdict.bound.value)
  const above = verdict.bound.direction === 'atMost'
  switch (verdict.kind) {
    case 'pass':
      return `Pass: ${which} lies ${above ? 'below' : 'above'} the bound of ${bound}.`
    case 'fail':
      return `Fail: ${which} lies ${above ? 'above' : 'below'} the bound of ${bound}.`
    case 'inconclusive': {
      const more =
        verdict.rolloutsToDecide === null
          ? ''
          : ` About ${verdict.rolloutsToDecide} rollouts in all would decide it if the observed rate held.`
      return `Inconclusive: after ${verdict.rolloutsUsed} of at most ${verdict.maxRollouts} rollouts, ${which} still straddles the bound of ${bound}.${more}`
    }
  }
}
