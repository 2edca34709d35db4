import { CLAIM_OF_MATCHER, type MatcherName } from '../check/claims.js'
import { CLAIMS } from '../verdict/claim-table.js'
import { CausalReplayError } from '../errors.js'

/** Throws the error of `.not.<matcher>`: it names the matcher to use instead (`insteadOfNot`). */
export function refuseNot(matcher: MatcherName): never {
  throw new CausalReplayError(
    `expect(agent).not.${matcher}() is not supported: a rate assertion is pass, fail or inconclusive, and negating it would make "not enough evidence" pass. Instead, ${CLAIMS[CLAIM_OF_MATCHER[matcher]].insteadOfNot}.`,
  )
}
