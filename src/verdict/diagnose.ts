import type { Scenario } from '../agent/types.js'
import { contextArms, contextAttributionResolved } from '../attribute/context/context-attribution.js'
import { completeContextOptions } from '../attribute/context/context-options.js'
import { contrastiveArms } from '../attribute/contrastive/contrastive.js'
import { ARM_SAMPLING_DEFAULTS, searchFor } from '../attribute/contrastive/contrastive-options.js'
import { replayedScenario, type ResolvedAttributionOptions } from '../attribute/options.js'
import { shapleyResolved } from '../attribute/shapley/shapley.js'
import { SHAPLEY_PLAN_DEFAULTS, shapleyPlan } from '../attribute/shapley/shapley-options.js'
import { contextParts, customParts, type ContextPartHandle } from '../attribute/context/context-parts.js'
import type { ContextAttributionResult } from '../attribute/context-schema.js'
import type { ContrastiveResult, ShapleyResult } from '../attribute/schema.js'
import { RolloutAbortedError } from '../errors.js'
import type { Json } from '../json.js'
import { DEFAULTS } from '../options/defaults.js'
import { deriveSeed } from '../random/streams.js'
import type { Trajectory } from '../trajectory/schema.js'
import type { Artifact } from './schema.js'
import type { Execution } from '../rollout/options.js'
import type { ResolvedCommon, ResolvedContextAttribute } from './options.js'
import type { GateRun } from './gate.js'
import { rolloutTimeout, thrownMessage } from './sampling.js'

/** Why an attribution stopped without a result: its error, and the replay rollout it failed on (or null). */
type AttributionFailure = NonNullable<Artifact['attributionError']>

/** The attribution of a failing rollout (each part null when not run), or why it failed. */
export interface Diagnosis {
  contrastive: ContrastiveResult | null
  shapley: ShapleyResult | null
  /** Which part of the locus step's context it decided on; null when not run (no locus, one part, turned off). */
  context: ContextAttributionResult | null
  /** Set when the attribution threw; the gate's verdict stands without it. */
  failure: AttributionFailure | null
  /** Set when the context attribution alone threw; the contrastive result and the verdict stand. */
  contextFailure: AttributionFailure | null
}

/** No attribution. */
export const NO_DIAGNOSIS: Diagnosis = {
  contrastive: null,
  shapley: null,
  context: null,
  failure: null,
  contextFailure: null,
}

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
    // The attribution's execution context: the gate's, its replays capped at the time left and
    // stopped by the test's signal or its deadline.
    return await attribute(
      scenario,
      run,
      failing,
      options,
      options.attribute,
      { ...execution, timeoutMs, signal: stop },
      stopped,
    )
  } catch (error) {
    const failure = failureOf(error, stopped)
    return failure === DEADLINE_FAILURE ? DEADLINE_DIAGNOSIS : { ...NO_DIAGNOSIS, failure }
  }
}

/** The signals whose abort ends a diagnosis: the test's own (propagated) and its deadline (reported). */
interface Stops {
  signal: AbortSignal | undefined
  deadline: AbortSignal | undefined
}

/**
 * What an attribution's error becomes in the diagnosis: the test's own abort is rethrown, the
 * deadline is {@link DEADLINE_FAILURE}, a scoring error names its replay rollout.
 */
function failureOf(error: unknown, { signal, deadline }: Stops): AttributionFailure {
  if (signal?.aborted === true) throw error
  if (deadline?.aborted === true) return DEADLINE_FAILURE
  if (error instanceof RolloutAbortedError) throw error
  if (error instanceof ReplayScoringError) {
    return { message: thrownMessage(error.cause), rollout: error.rollout }
  }
  return { message: thrownMessage(error), rollout: null }
}

/** Why an attribution the test's deadline stopped has no result. */
const DEADLINE_FAILURE: AttributionFailure = {
  message: "stopped: the test's timeout was near (raise it, or pass attribute: false)",
  rollout: null,
}

/** Why a context attribution the test's deadline stopped has no result. */
const CONTEXT_DEADLINE_FAILURE: AttributionFailure = {
  message: "stopped: the test's timeout was near (raise it, or pass attribute: { context: false })",
  rollout: null,
}

/** An attribution the test's deadline stopped: the gate's verdict is reported without it. */
const DEADLINE_DIAGNOSIS: Diagnosis = { ...NO_DIAGNOSIS, failure: DEADLINE_FAILURE }

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
  { method, rollouts, context }: Exclude<ResolvedCommon['attribute'], false>,
  execution: Execution,
  stops: Stops,
): Promise<Diagnosis> {
  const seed = deriveSeed(options.seed, `attribution/${failing.rollout}`)
  const isBad = async (trajectory: Trajectory): Promise<boolean> => {
    try {
      return await run.isBad(trajectory)
    } catch (error) {
      throw new ReplayScoringError(trajectory.rollout, error)
    }
  }
  // The attributions' options, resolved here from the gate's: the matchers' settings, and every
  // other option at its default, with no second parse.
  const shared: ResolvedAttributionOptions = {
    ...execution,
    scenario: replayedScenario('contrastive', scenario, failing),
    isBad,
    confidence: options.confidence,
    seed,
    tools: DEFAULTS.tools,
  }
  const contrastiveRun =
    method === 'shapley'
      ? null
      : await contrastiveArms(failing, {
          ...shared,
          ...ARM_SAMPLING_DEFAULTS,
          rollouts,
          search: searchFor(failing.steps.length, DEFAULTS.search),
        })
  const contrastiveResult = contrastiveRun?.result ?? null
  let contextResult: ContextAttributionResult | null = null
  let contextFailure: AttributionFailure | null = null
  if (contrastiveResult !== null && context !== false) {
    try {
      const locus = locusToTakeApart(contrastiveResult, failing, context)
      if (locus !== null) {
        const { step, parts } = locus
        const { maxRollouts, ...ablation } = context
        // The contrastive seed: the intact arm is then the contrastive arm at the locus, whose
        // rollouts it takes over instead of running them again (same plan, seed and streams).
        const contextOptions = completeContextOptions('contextAttribution', failing, {
          ...shared,
          ...ARM_SAMPLING_DEFAULTS,
          ...ablation,
          step,
          rollouts,
          // By default what a complete run could need, so that a prompt of a few messages is
          // narrowed to its sentence: a cap from the contrastive spend stopped a 4-message prompt
          // at its parts. Charged to the gate's budget too, whose limits still hold.
          budget: execution.budget.account({
            maxRollouts:
              maxRollouts ??
              Math.max(
                contrastiveResult.rolloutsUsed,
                rollouts * contextArms(failing.steps[step]?.context as Json, parts, context.refine),
              ),
          }),
        })
        contextResult = await contextAttributionResolved(failing, contextOptions, contrastiveRun?.arms[step])
      }
    } catch (error) {
      // The contrastive result is already established: a context attribution that fails (or runs
      // into the deadline) is reported next to it instead of taking it along.
      const failure = failureOf(error, stops)
      contextFailure = failure === DEADLINE_FAILURE ? CONTEXT_DEADLINE_FAILURE : failure
    }
  }
  // Shapley keeps its own sample sizes (exact enumeration sizes each coalition to bound every
  // value's half-width by ±0.05); `budget` caps it, and a spent budget truncates it cleanly.
  const shapleyResult =
    method === 'contrastive'
      ? null
      : await shapleyResolved(failing, {
          ...shared,
          ...shapleyPlan('shapley', failing.steps.length, SHAPLEY_PLAN_DEFAULTS, shared.confidence),
        })
  return {
    contrastive: contrastiveResult,
    shapley: shapleyResult,
    context: contextResult,
    failure: null,
    contextFailure,
  }
}

/**
 * The locus step, when its context can be taken apart: it recorded a context of two parts or more
 * (as the engine lists them, or as the user's `parts` does). With one part there is nothing to
 * compare: removing it is what resampling the step already tested.
 */
function locusToTakeApart(
  result: ContrastiveResult,
  failing: Trajectory,
  context: ResolvedContextAttribute,
): { step: number; parts: ContextPartHandle[] } | null {
  if (result.locus === null) return null
  const step = failing.steps[result.locus]
  if (step?.context === undefined) return null
  const parts =
    context.parts === undefined ? contextParts(step.context) : customParts(step.context, context.parts)
  return parts !== undefined && parts.length >= 2 ? { step: step.index, parts } : null
}
