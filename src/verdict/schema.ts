import { z } from 'zod'
import { ContrastiveResultSchema, ReplayHandleSchema, ShapleyResultSchema } from '../attribute/schema.js'
import { EstimateSchema, IntervalSchema } from '../stats/estimate.js'
import { RolloutErrorSchema, TrajectorySchema } from '../trajectory/schema.js'

/** The matchers that produce verdicts. */
export const MatcherNameSchema = z.enum([
  'toRarely',
  'toUsually',
  'toNever',
  'toAlways',
  'toMatchRateBaseline',
])
export type MatcherName = z.infer<typeof MatcherNameSchema>

/** How a `toMatchRateBaseline` verdict relates to its stored baseline. */
export const BaselineComparisonSchema = z.object({
  /** The baseline file, relative to the project root. */
  file: z.string(),
  /** The entry's key in the file. */
  key: z.string(),
  /** `compared`: checked against the stored rate; `created`: no entry, one was written; `updated`: `-u` rewrote it; `missing`: no entry and none may be written (CI). */
  status: z.enum(['compared', 'created', 'updated', 'missing']),
  /** The stored rate (null when there was none). */
  stored: EstimateSchema.nullable(),
  /** The seed the stored rate was measured with. */
  storedSeed: z.number().int().nullable(),
  /** new − stored, with its Newcombe interval (null when nothing was compared). */
  difference: IntervalSchema.nullable(),
  tolerance: z.number().min(0).max(1),
  better: z.enum(['lower', 'higher']),
})
export type BaselineComparison = z.infer<typeof BaselineComparisonSchema>

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
  /**
   * Rollouts that ran, scored or not (and were paid for). Rollouts run in batches of `concurrency`
   * and those past the deciding one are not scored, so that the verdict does not depend on
   * concurrency; this count is the one field that does (it is cost accounting, not a result), and
   * the terminal message leaves it out to stay byte-identical at any concurrency.
   */
  rolloutsRun: z.number().int().nonnegative().optional(),
  maxRollouts: z.number().int().positive(),
  /** For an inconclusive verdict: about how many rollouts in all would decide it, if the observed rate held. */
  rolloutsToDecide: z.number().int().positive().nullable(),
  seed: z.number().int(),
  /** The failing rollout attributed (the first bad one by index), when there is one. */
  replay: ReplayHandleSchema.nullable(),
  /**
   * Why sampling stopped: `decided` (the sequential test answered), `max-rollouts` / `budget` (spent
   * before it answered), `error` (an error outcome failed the gate), `occurrence` (toNever/toAlways
   * saw the outcome), `completed` (a fixed sample ran in full).
   */
  stop: z.enum(['decided', 'max-rollouts', 'budget', 'error', 'occurrence', 'completed']).optional(),
  /** The name of the sequential decision method ("log-odds mixture e-process"), when one decided. */
  decisionMethod: z.string().nullable().optional(),
  /** Where the seed came from: the `seed` option, `CAUSAL_REPLAY_SEED`, or derived from the test's name. */
  seedSource: z.enum(['option', 'env', 'test']).optional(),
  /** Whether error outcomes were allowed (left out of the rate) or failed the gate. */
  allowErrors: z.boolean().optional(),
  /** What an inconclusive verdict does to the test. */
  onInconclusive: z.enum(['fail', 'pass']).optional(),
  /** `toMatchRateBaseline` only: the stored rate it was compared with. */
  baseline: BaselineComparisonSchema.optional(),
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
