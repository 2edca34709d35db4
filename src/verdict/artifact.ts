import type { ModelSpend } from '../rollout/budget.js'
import { wasJudged } from '../rollout/evaluation.js'
import type { Diagnosis } from './diagnosis.js'
import type { GateRun } from './gate.js'
import { ARTIFACT_SCHEMA, type Artifact, type ModelCost } from './schema.js'

/**
 * Assembles the artifact of one claim: verdict (with what its model calls cost, over the gate and
 * the attributions), the attributed failing run and its attributions (or why they failed).
 */
export function buildArtifact(
  test: { name: string; file: string },
  run: GateRun,
  diagnosis: Diagnosis,
  cost: ModelCost,
): Artifact {
  return {
    schema: ARTIFACT_SCHEMA,
    test,
    verdict: { ...run.verdict, cost },
    failing: run.failing,
    contrastive: diagnosis.contrastive,
    shapley: diagnosis.shapley,
    attributionError: diagnosis.failure,
    contextAttribution: diagnosis.context,
    contextAttributionError: diagnosis.contextFailure,
    ...(run.failing !== null && wasJudged(run.failing) ? { failingJudged: true } : {}),
  }
}

/** A verdict's cost from what its account spent: USD null where nothing was priced. */
export function modelCost(spend: ModelSpend): ModelCost {
  const liveCalls = spend.modelCalls - spend.cassetteHits
  return {
    modelCalls: spend.modelCalls,
    cassetteHits: spend.cassetteHits,
    ...(spend.reusedHits === 0 ? {} : { reusedHits: spend.reusedHits }),
    inputTokens: spend.inputTokens,
    outputTokens: spend.outputTokens,
    usd: liveCalls > spend.unpricedCalls ? spend.usd : null,
    unpricedCalls: spend.unpricedCalls,
    savedUsd: spend.cassetteHits > spend.unpricedHits ? spend.savedUsd : null,
    ...(spend.abortedRollouts === 0
      ? {}
      : {
          aborted: {
            rollouts: spend.abortedRollouts,
            modelCalls: spend.abortedModelCalls,
            cutCalls: spend.cutModelCalls,
          },
        }),
  }
}
