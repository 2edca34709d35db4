import type { MatcherState } from 'vitest'
import { toScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { runCheck, type CheckResult } from '../check/check.js'
import type { MatcherName } from '../check/claims.js'
import { matcherClaim } from './matcher-claim.js'
import { rememberDatasetReport } from './dataset-reports.js'
import { watchForMissingAwait } from './missing-await.js'
import { recordEmptyShard, recordResult } from './record-result.js'
import { isEmptyShard, shardFromEnvironment, shardOutcome, shardPartOf, shardRun } from './dataset-shard.js'
import { refuseNot } from './refusals.js'
import { checkContext, testCassette, testContext } from './test-context.js'

/** What a matcher returns to `expect.extend`: the message is built only when Vitest shows it. */
export interface MatcherOutcome {
  pass: boolean
  message: () => string
}

/**
 * The body of every rate matcher (`matcherFunctions` only binds a name): glue between Vitest and
 * `check`'s pipeline. It refuses `.not`, reads the test's context once, makes the matcher's claim
 * from `args`, runs it with the plugin's defaults, the test's seed, signal and cassette, then
 * records the result on the task for the reporters.
 */
export async function runMatcher(
  state: MatcherState,
  matcher: MatcherName,
  received: unknown,
  args: unknown[],
): Promise<MatcherOutcome> {
  if (state.isNot) refuseNot(matcher)
  const scenario = toScenario(received as Scenario<unknown, unknown>, `expect(received).${matcher}()`)
  const context = testContext(state)
  const made = matcherClaim(matcher, args, context)
  const shard = shardFromEnvironment(context.env)
  // Under a shard a dataset claim runs its shard's cases, K times each, and the merge decides.
  const sharded =
    shard === null ? null : shardRun(matcher, scenario, args, made.claim, shard, context.settings)
  const { claim, retryNote } = sharded === null ? made : matcherClaim(matcher, sharded.args, context)
  if (sharded !== null && isEmptyShard(sharded)) {
    if (context.task !== undefined)
      recordEmptyShard(context.task, matcher, sharded, context.settings.reportDir)
    return { pass: true, message: () => '' }
  }
  const cassette = await testCassette(context)

  const watch = watchForMissingAwait(context.task, matcher)
  let result: CheckResult
  try {
    result = await runCheck(
      (sharded?.scenario ?? scenario) as Scenario<unknown, unknown>,
      claim,
      checkContext(context, matcher, cassette, watch.signal),
    )
  } catch (error) {
    // The test ended without awaiting this matcher: its hook already failed the test, saying so.
    if (watch.testEnded) return UNAWAITED
    throw error
  } finally {
    watch.settled = true
  }
  if (watch.testEnded) return UNAWAITED
  const { task, settings, cwd } = context
  const shardPart = sharded === null ? undefined : shardPartOf(sharded, result)
  if (task !== undefined)
    await recordResult(task, matcher, result, { reportDir: settings.reportDir, cwd, shard: shardPart })
  if (task !== undefined && result.verdict.dataset !== undefined)
    rememberDatasetReport(task, result.verdict.dataset)
  if (sharded !== null) return shardOutcome(sharded, result)
  return {
    pass: result.passed,
    message: () => (retryNote === null ? result.message : `${result.message}\n\n${retryNote}`),
  }
}

/**
 * What an un-awaited matcher returns once its test has ended: a pass, so that the promise nobody
 * awaits does not reject unhandled; the test itself was failed by `watchForMissingAwait`.
 */
const UNAWAITED: MatcherOutcome = { pass: true, message: () => '' }
