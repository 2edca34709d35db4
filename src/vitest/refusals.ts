import { CausalReplayError } from '../errors.js'
import type { MatcherName } from './matcher-name.js'

// What to write instead of `.not.<matcher>`: a rate claim has three outcomes (pass, fail,
// inconclusive), so negating it would turn "not enough evidence" into a pass.
const INSTEAD: Record<MatcherName, string> = {
  toRarely: 'to claim the predicate is common, use toUsually(pred, { atLeast }) with the same predicate',
  toUsually: 'to claim the predicate is uncommon, use toRarely(pred, { atMost }) with the same predicate',
  toNever:
    'to claim it does happen, use toUsually(pred, { atLeast }) with the smallest rate you expect; to claim it is rare, toRarely(pred, { atMost })',
  toAlways:
    'to claim it sometimes fails, use toUsually((t) => !pred(t), { atLeast }) with the complementary predicate; to claim it is usual, toUsually(pred, { atLeast })',
  toMatchRateBaseline:
    "a baseline has no negation; to make higher rates the regression, pass { better: 'higher' }",
  toScoreAtLeast: 'to claim the mean score is low, use toScoreAtMost(scorer, threshold) with the same scorer',
  toScoreAtMost:
    'to claim the mean score is high, use toScoreAtLeast(scorer, threshold) with the same scorer',
  toBeNoWorseThan:
    'to claim the candidate is worse, swap the agents: expect(baseline).toBeNoWorseThan(candidate, pred, { margin }) claims the baseline is no worse than the candidate',
}

/** Throws the error of `.not.<matcher>`: it names the matcher to use instead. */
export function refuseNot(matcher: MatcherName): never {
  throw new CausalReplayError(
    `expect(agent).not.${matcher}() is not supported: a rate assertion is pass, fail or inconclusive, and negating it would make "not enough evidence" pass. Instead, ${INSTEAD[matcher]}.`,
  )
}
