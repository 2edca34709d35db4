import type { Scenario } from '../agent/types.js'
import { contrastive, shapley } from '../attribute/index.js'
import type { ContrastiveResult, ShapleyResult } from '../attribute/schema.js'
import { RolloutAbortedError } from '../errors.js'
import { deriveSeed } from '../random/streams.js'
import type { Trajectory } from '../trajectory/schema.js'
import type { ResolvedCommon } from './options.js'
import type { GateRun } from './gate.js'
import { rolloutTimeout, thrownMessage } from './sampling.js'

/** Why an attribution stopped without a result: its error, and the replay rollout it failed on. */
export interface AttributionFailure {
  message: string
  /** The replay rollout being scored when it failed, or null when it failed elsewhere. */
  rollout: number | null
}

/** The attribution of a failing rollout (either part null when not run), or why it failed. */
export interface Diagnosis {
  contrastive: ContrastiveResult | null
  shapley: ShapleyResult | null
  /** Set when the attribution threw; the gate's verdict stands without it. */
  failure: AttributionFailure | null
}

/** No attribution. */
export const NO_DIAGNOSIS: Diagnosis = { contrastive: null, shapley: null, failure: null }

/**
 * Explains a failed (or inconclusive) gate: attribution of its first failing rollout by index,
 * scored by the gate's own predicate, spending from the gate's budget and stopped by its signal.
 * Runs only when there is a completed failing run to explain; an error outcome is shown as such,
 * not attributed. The attribution seed is derived from the gate's seed and the rollout, so the
 * whole message is reproducible. A spent budget truncates the attribution (it reports the work
 * done, and a locus only when it is already established).
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
  signal: AbortSignal | undefined,
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
  if (options.budget.remainingRollouts <= 0) return NO_DIAGNOSIS
  const timeoutMs = rolloutTimeout(options)
  if (timeoutMs === null) return DEADLINE_DIAGNOSIS
  const deadline =
    options.deadline === undefined
      ? undefined
      : AbortSignal.timeout(Math.max(1, options.deadline.at - Date.now()))
  const stop =
    deadline === undefined ? signal : signal === undefined ? deadline : AbortSignal.any([signal, deadline])
  try {
    return await attribute(scenario, run, failing, { ...options, timeoutMs }, options.attribute, stop)
  } catch (error) {
    if (signal?.aborted === true) throw error
    if (deadline?.aborted === true) return DEADLINE_DIAGNOSIS
    if (error instanceof RolloutAbortedError) throw error
    if (error instanceof ReplayScoringError) {
      return { ...NO_DIAGNOSIS, failure: { message: thrownMessage(error.cause), rollout: error.rollout } }
    }
    return { ...NO_DIAGNOSIS, failure: { message: thrownMessage(error), rollout: null } }
  }
}

/** An attribution the test's deadline stopped: the gate's verdict is reported without it. */
const DEADLINE_DIAGNOSIS: Diagnosis = {
  ...NO_DIAGNOSIS,
  failure: {
    message: "stopped: the test's timeout was near (raise it, or pass attribute: false)",
    rollout: null,
  },
}

/**
 * Carries a scoring error out of an attribution with the replay rollout it happened on. The
 * wrapping happens here, around the gate's scorer, rather than inside `contrastive` and `shapley`:
 * they are public, and their callers get their predicate's own error back unchanged.
 */
class ReplayScoringError extends Error {
  constructor(
    readonly rollout: number,
    override readonly cause: unknown,
  ) {
    super(`replay rollout ${rollout}: ${thrownMessage(cause)}`)
  }
}

async function attribute(
  scenario: Scenario<unknown, unknown>,
  run: GateRun,
  failing: Trajectory,
  options: ResolvedCommon,
  { method, rollouts }: Exclude<ResolvedCommon['attribute'], false>,
  signal: AbortSignal | undefined,
): Promise<Diagnosis> {
  const seed = deriveSeed(options.seed, `attribution/${failing.rollout}`)
  const isBad = async (trajectory: Trajectory): Promise<boolean> => {
    try {
      return await run.isBad(trajectory)
    } catch (error) {
      throw new ReplayScoringError(trajectory.rollout, error)
    }
  }
  const shared = {
    isBad,
    confidence: options.confidence,
    seed,
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    maxSteps: options.maxSteps,
    budget: options.budget,
    signal,
  }
  const contrastiveResult =
    method === 'shapley'
      ? null
      : await contrastive(scenario, failing, { ...shared, rollouts, crn: true, sequential: true })
  // Shapley keeps its own sample sizes (exact enumeration sizes each coalition to bound every
  // value's half-width by ±0.05); `budget` caps it, and a spent budget truncates it cleanly.
  const shapleyResult =
    method === 'contrastive' ? null : await shapley(scenario, failing, { ...shared, method: 'auto' })
  return { contrastive: contrastiveResult, shapley: shapleyResult, failure: null }
}
