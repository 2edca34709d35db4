// The attribution of a failing gate's rollout: everything `diagnose` runs once a claim has failed.
// It is a module of its own so that the attribution engines load when a claim fails, through
// `diagnose`'s dynamic import, and not with the package root that every test file imports.
import { CONTEXT_CODECS } from '../adapters/context-codecs.js'
import type { Scenario } from '../agent/types.js'
import { contextArms, contextAttributionResolved } from '../attribute/context/context-attribution.js'
import { completeContextOptions } from '../attribute/context/context-options.js'
import { contrastiveArms } from '../attribute/contrastive/contrastive.js'
import { ARM_SAMPLING_DEFAULTS } from '../attribute/arms/arm-options.js'
import { searchFor } from '../attribute/contrastive/contrastive-options.js'
import { replayedScenario, type ResolvedAttributionOptions } from '../attribute/options.js'
import { shapleyResolved } from '../attribute/shapley/shapley.js'
import { SHAPLEY_PLAN_DEFAULTS, shapleyPlan } from '../attribute/shapley/shapley-options.js'
import { contextParts, customParts, type ContextPartHandle } from '../attribute/context/context-parts.js'
import type { ContextAttributionResult } from '../attribute/context-schema.js'
import type { ContrastiveResult } from '../attribute/schema.js'
import type { Json } from '../json.js'
import { DEFAULTS } from '../options/defaults.js'
import { deriveSeed } from '../random/streams.js'
import type { Execution } from '../rollout/options.js'
import type { Trajectory } from '../trajectory/schema.js'
import {
  CONTEXT_DEADLINE_FAILURE,
  DEADLINE_FAILURE,
  failureOf,
  ReplayScoringError,
  type AttributionFailure,
  type Diagnosis,
  type Stops,
} from './diagnosis.js'
import type { GateRun } from './gate.js'
import type { ResolvedCommon, ResolvedContextAttribute } from './options.js'

/**
 * Attributes `failing`, the gate's first failing rollout: contrastive attribution (unless the
 * method is Shapley alone), then context attribution of its locus, then Shapley (when asked for),
 * under `execution`, the gate's context with its replays capped at the time left. Throws what the
 * attribution throws; `diagnose` turns that into the diagnosis.
 */
export async function attributeFailing(
  scenario: Scenario<unknown, unknown>,
  run: GateRun,
  failing: Trajectory,
  options: ResolvedCommon,
  { method, rollouts, context, runAhead }: Exclude<ResolvedCommon['attribute'], false>,
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
          runAhead,
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
          runAhead,
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
        contextResult = await contextAttributionResolved(
          failing,
          contextOptions,
          CONTEXT_CODECS,
          contrastiveRun?.arms[step],
        )
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
    context.parts === undefined
      ? contextParts(step.context, CONTEXT_CODECS)
      : customParts(step.context, context.parts)
  return parts !== undefined && parts.length >= 2 ? { step: step.index, parts } : null
}
