import type { MatcherName } from '../check/claims.js'
import { CausalReplayError } from '../errors.js'
import type { CurrentTest } from './test-context.js'

/** A watch on a matcher's test: whether it ended before the matcher settled, and the signal that stops the check. */
export interface MissingAwaitWatch {
  /** Aborted when the test's signal is, or when the test ended first. */
  readonly signal: AbortSignal
  /** The test ended before the matcher settled: nobody reads its verdict. */
  testEnded: boolean
  /** Set by the matcher once its check has settled, whatever the outcome. */
  settled: boolean
}

/**
 * A matcher that is not awaited keeps sampling after its test has ended, and Vitest never sees its
 * verdict (custom async matchers are not tracked the way `expect.poll` is). When the test ends
 * first, this fails it with a message that names the matcher, and stops the rollouts; when its
 * timeout ended it, this only stops the rollouts.
 */
export function watchForMissingAwait(task: CurrentTest | undefined, matcher: MatcherName): MissingAwaitWatch {
  const stop = new AbortController()
  const testSignal = task?.context.signal
  const watch = {
    signal: testSignal === undefined ? stop.signal : AbortSignal.any([testSignal, stop.signal]),
    testEnded: false,
    settled: false,
  }
  task?.context.onTestFinished(() => {
    if (watch.settled) return
    watch.testEnded = true
    stop.abort(new CausalReplayError('The test ended before the rate assertion finished.'))
    // Vitest aborts the test's signal when the test times out or the run is cancelled, and fails
    // the test saying so: the matcher may well have been awaited, and that error is the one to read.
    if (testSignal?.aborted === true) return
    throw new CausalReplayError(
      `expect(agent).${matcher}() was not awaited: the test ended while it was still running rollouts, so its verdict was lost. Rate matchers are async: write \`await expect(agent).${matcher}(…)\`.`,
    )
  })
  return watch
}
