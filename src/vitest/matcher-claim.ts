import {
  CLAIM_OF_MATCHER,
  claimFromArguments,
  claimOf,
  type Claim,
  type MatcherName,
} from '../check/claims.js'
import { DEFAULTS } from '../options/defaults.js'
import { parseOptions } from '../options/parse-options.js'
import { baselinePath } from '../verdict/baseline-file.js'
import { ARGUMENT_COUNT, CLAIMS } from '../verdict/claim-table.js'
import { BaselineOptionsSchema, type BaselineOptions } from '../verdict/options.js'
import { nextAssertion } from './assertion-number.js'
import { splitConfidence } from './retry-confidence.js'
import type { TestContext } from './test-context.js'

/** The claim a matcher's arguments make in its test, and the note its message ends with. */
export interface MatcherClaim {
  claim: Claim
  /** Why the verdict is at a higher confidence than asked (a retried test), or null. */
  retryNote: string | null
}

/**
 * The claim of `matcher` from `args` (what its row of the claims table takes, then the options),
 * with the confidence split over a retried test's attempts. Every matcher makes its claim here: the
 * claim's builder, or the matcher's own way where the test supplies part of the claim.
 */
export function matcherClaim(
  matcher: MatcherName,
  args: readonly unknown[],
  context: TestContext,
): MatcherClaim {
  const kind = CLAIM_OF_MATCHER[matcher]
  const row = CLAIMS[kind]
  const count = ARGUMENT_COUNT[row.takes]
  // Options that are not an object are reported by the claim's schema, as `options`.
  const given = args[count] ?? {}
  // The confidence is split over a retried test's attempts.
  const split = splitConfidence(
    given as object,
    context.settings.confidence ?? DEFAULTS.confidence,
    context.attempts,
  )
  const claim =
    row.gate === 'baseline'
      ? baselineClaim(args[0], split.options, context)
      : claimFromArguments(kind, args.slice(0, count), split.options, matcher)
  return { claim, retryNote: split.note }
}

/** The claim of `toMatchRateBaseline`: its baseline lives beside the test file, keyed by the test's name. */
function baselineClaim(predicate: unknown, options: object, context: TestContext): Claim {
  const { task, test } = context
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
      update: context.update,
    },
    matcher,
  )
}
