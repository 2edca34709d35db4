import { z } from 'zod'
import { ContrastiveResultSchema, ReplayHandleSchema, ShapleyResultSchema } from '../attribute/schema.js'
import { EstimateSchema, IntervalSchema } from '../stats/estimate.js'
import { RolloutErrorSchema, TrajectorySchema } from '../trajectory/schema.js'

/** The matchers that produce verdicts. */
export const MatcherNameSchema = z.enum(['toRarely', 'toUsually', 'toNever', 'toAlways', 'toMatchRateBaseline'])
export type MatcherName = z.infer<typeof MatcherNameSchema>

/**
 * A rate assertion's result, as data (fast-check's RunDetails is the model): the matcher message,
 * the reporter line and the HTML page are three renderings of it.
 */
export const VerdictSchema = z.object({
  /** `pass`: the interval clears the bound; `fail`: it clears the other side; `inconclusive`: budget spent, interval straddles it. */
  kind: z.enum(['pass', 'fail', 'inconclusive']),
  matcher: MatcherNameSchema,
  agent: z.string(),
  /** How the predicate reads in a sentence: "refund wrongly", "calledTool(issue_refund)". */
  predicate: z.string(),
  /** The claim: the rate is at most (`toRarely`, `toNever`) or at least (`toUsually`, `toAlways`) `value`. */
  bound: z.object({ direction: z.enum(['atMost', 'atLeast']), value: z.number().min(0).max(1) }),
  confidence: z.number().gt(0).lt(1),
  /** The rate of the predicate over completed rollouts, with its interval and method. */
  observed: EstimateSchema,
  /** The anytime-valid interval the decision was made with (sequential test), when one was used. */
  decisionInterval: IntervalSchema.nullable(),
  /** Rollouts that ended in an error: counted, shown, never scored. */
  errors: z.object({
    count: z.number().int().nonnegative(),
    examples: z.array(z.object({ rollout: z.number().int().nonnegative(), error: RolloutErrorSchema })),
  }),
  rolloutsUsed: z.number().int().nonnegative(),
  maxRollouts: z.number().int().positive(),
  /** For an inconclusive verdict: about how many rollouts in all would decide it, if the observed rate held. */
  rolloutsToDecide: z.number().int().positive().nullable(),
  seed: z.number().int(),
  /** The failing rollout attributed (the first bad one by index), when there is one. */
  replay: ReplayHandleSchema.nullable(),
})
export type Verdict = z.infer<typeof VerdictSchema>

/** The version tag of artifact files. */
export const ARTIFACT_SCHEMA = 'vitest-causal-replay/artifact@1'

/** Everything about one rate assertion, as written to the report directory (one JSON file per test). */
export const ArtifactSchema = z.object({
  schema: z.literal(ARTIFACT_SCHEMA),
  test: z.object({ name: z.string(), file: z.string() }),
  verdict: VerdictSchema,
  /** The attributed failing trajectory. */
  failing: TrajectorySchema.nullable(),
  contrastive: ContrastiveResultSchema.nullable(),
  shapley: ShapleyResultSchema.nullable(),
})
export type Artifact = z.infer<typeof ArtifactSchema>
