import type { ContextAttributionResult } from '../attribute/context-schema.js'
import type { ContrastiveResult, ShapleyResult } from '../attribute/schema.js'
import { RolloutAbortedError } from '../errors.js'
import type { Artifact } from './schema.js'
import { thrownMessage } from './sampling.js'

/** Why an attribution stopped without a result: its error, and the replay rollout it failed on (or null). */
export type AttributionFailure = NonNullable<Artifact['attributionError']>

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

/** The signals whose abort ends a diagnosis: the test's own (propagated) and its deadline (reported). */
export interface Stops {
  signal: AbortSignal | undefined
  deadline: AbortSignal | undefined
}

/**
 * What an attribution's error becomes in the diagnosis: the test's own abort is rethrown, the
 * deadline is {@link DEADLINE_FAILURE}, a scoring error names its replay rollout.
 */
export function failureOf(error: unknown, { signal, deadline }: Stops): AttributionFailure {
  if (signal?.aborted === true) throw error
  if (deadline?.aborted === true) return DEADLINE_FAILURE
  if (error instanceof RolloutAbortedError) throw error
  if (error instanceof ReplayScoringError) {
    return { message: thrownMessage(error.cause), rollout: error.rollout }
  }
  return { message: thrownMessage(error), rollout: null }
}

/** Why an attribution the test's deadline stopped has no result. */
export const DEADLINE_FAILURE: AttributionFailure = {
  message: "stopped: the test's timeout was near (raise it, or pass attribute: false)",
  rollout: null,
}

/** Why a context attribution the test's deadline stopped has no result. */
export const CONTEXT_DEADLINE_FAILURE: AttributionFailure = {
  message: "stopped: the test's timeout was near (raise it, or pass attribute: { context: false })",
  rollout: null,
}

/** An attribution the test's deadline stopped: the gate's verdict is reported without it. */
export const DEADLINE_DIAGNOSIS: Diagnosis = { ...NO_DIAGNOSIS, failure: DEADLINE_FAILURE }

/**
 * Carries a scoring error out of an attribution with the replay rollout it happened on. The
 * wrapping happens around the gate's scorer rather than inside `contrastive` and `shapley`: they
 * are public, and their callers get their predicate's own error back unchanged.
 */
export class ReplayScoringError extends Error {
  constructor(
    readonly rollout: number,
    override readonly cause: unknown,
  ) {
    super(`replay rollout ${rollout}: ${thrownMessage(cause)}`)
  }
}
