import type { Diagnosis } from './diagnose.js'
import type { GateRun } from './gate.js'
import { ARTIFACT_SCHEMA, type Artifact } from './schema.js'

/** Assembles the artifact of one claim: verdict, the attributed failing run and its attributions (or why they failed). */
export function buildArtifact(
  test: { name: string; file: string },
  run: GateRun,
  diagnosis: Diagnosis,
): Artifact {
  return {
    schema: ARTIFACT_SCHEMA,
    test,
    verdict: run.verdict,
    failing: run.failing,
    contrastive: diagnosis.contrastive,
    shapley: diagnosis.shapley,
    attributionError: diagnosis.failure,
    contextAttribution: diagnosis.context,
    contextAttributionError: diagnosis.contextFailure,
  }
}
