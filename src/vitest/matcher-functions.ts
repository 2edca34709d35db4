// The rate matchers as the setup file registers them: one function per claim, named by the claims
// table, whose body (`runMatcher`, and the pipeline under it) is loaded when a rate matcher is first
// called. Every test file of a project runs the setup file, most of them without a rate assertion,
// so registering the matchers costs little more than the claims table.
import type { Matcher, MatcherState } from 'vitest'
import type { MatcherName } from '../check/claims.js'
import { CLAIMS } from '../verdict/claim-table.js'
import { captureCallSite, pointAtCallSite } from '../options/call-site.js'

/**
 * Every rate matcher, by name, for `expect.extend`: each runs `runMatcher` with the arguments its
 * claim takes (`CLAIMS`), and points an option error at the user's line.
 */
export function matcherFunctions(): Record<MatcherName, Matcher> {
  const entries = Object.values(CLAIMS).map(({ matcher }) => {
    async function rateMatcher(this: MatcherState, received: unknown, ...args: unknown[]) {
      // Before any await: the test's line is on the stack, and an option error is pointed at it.
      const site = captureCallSite(rateMatcher)
      try {
        const { runMatcher } = await import('./run-matcher.js')
        return await runMatcher(this, matcher, received, args)
      } catch (error) {
        throw pointAtCallSite(error, site)
      }
    }
    return [matcher, rateMatcher]
  })
  return Object.fromEntries(entries) as Record<MatcherName, Matcher>
}
