import type { Scenario } from '../agent/types.js'
import { createExecution } from '../rollout/options.js'
import { DEADLINE_DIAGNOSIS, DEADLINE_FAILURE, failureOf, NO_DIAGNOSIS, type Diagnosis } from './diagnosis.js'
import type { ResolvedCommon } from './options.js'
import type { GateRun } from './gate.js'
import { rolloutTimeout } from './sampling.js'

/**
 * Explains a failed (or inconclusive) gate: attribution of its first failing rollout by index,
 * scored by the gate's own predicate, spending from the gate's budget and stopped by its signal.
 * Runs only when there is a completed failing run to explain; an error outcome is shown as such,
 * not attributed. The attribution seed is derived from the gate's seed and the rollout, so the
 * whole message is reproducible. A spent budget truncates the attribution (it reports the work
 * done, and a locus only when it is already established).
 *
 * When contrastive attribution names a locus whose context has two or more parts, context
 * attribution takes that context apart (unless `attribute.context` is false). It runs under the
 * contrastive seed, so its intact arm is the contrastive arm at the locus, whose rollouts it takes
 * over rather than running again; it spends from the same budget, by default at most what it could
 * need to finish: the rollouts per arm times its arms (the intact context, each part, and the probes
 * that narrow the longest part to a sentence), or the contrastive attribution's spend when that is
 * more. Sequential arms stop long before their cap, so it spends far less (see
 * `bench/context-attribution.ts`). Its failure is reported on its own (`contextFailure`) and keeps
 * the contrastive result.
 *
 * An attribution that throws (a predicate that fails only on some replay) does not take the
 * verdict with it: the gate already decided, so the failure is returned as data, next to no
 * attribution. Only the test's own abort propagates. Near the test's deadline the attribution is
 * stopped the same way (replays capped at the time left, then aborted), so that the test reports
 * the gate's verdict instead of timing out.
 */
export async function diagnose(
  scenario: Scenario<unknown, unknown>,
  run: GateRun,
  options: ResolvedCommon,
): Promise<Diagnosis> {
  const failing = run.failing
  if (
    options.attribute === false ||
    run.verdict.kind === 'pass' ||
    failing === null ||
    failing.error !== undefined
  ) {
    return NO_DIAGNOSIS
  }
  const { execution } = options
  if (execution.budget.remainingRollouts <= 0) return NO_DIAGNOSIS
  const timeoutMs = rolloutTimeout(execution)
  if (timeoutMs === null) return DEADLINE_DIAGNOSIS
  const { signal } = execution
  const deadline =
    execution.deadline === undefined
      ? undefined
      : AbortSignal.timeout(Math.max(1, execution.deadline.at - Date.now()))
  const stop =
    deadline === undefined ? signal : signal === undefined ? deadline : AbortSignal.any([signal, deadline])
  const stopped = { signal, deadline }
  try {
    // Loaded here, when a claim has failed: the engines are much of the library, and a test file
    // whose claims pass should not pay for importing them.
    const { attributeFailing } = await import('./attribute-failing.js')
    // The attribution's execution context: the gate's, its replays capped at the time left and
    // stopped by the test's signal or its deadline.
    return await attributeFailing(
      scenario,
      run,
      failing,
      options,
      options.attribute,
      createExecution({ ...execution, timeoutMs, signal: stop }),
      stopped,
    )
  } catch (error) {
    const failure = failureOf(error, stopped)
    return failure === DEADLINE_FAILURE ? DEADLINE_DIAGNOSIS : { ...NO_DIAGNOSIS, failure }
  }
}
