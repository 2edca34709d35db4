import { z } from 'zod'
import { EstimateSchema, IntervalSchema } from '../stats/estimate.js'
import { JsonSchema } from '../trajectory/schema.js'

/** Which run was attributed: `record(agent, { seed, rollout })` brings it back. */
export const ReplayHandleSchema = z.object({
  seed: z.number().int(),
  rollout: z.number().int().nonnegative(),
})
export type ReplayHandle = z.infer<typeof ReplayHandleSchema>

/**
 * The replays of one arm that ended in an error (the agent threw, timed out, looped, or a judge
 * could not say): never scored, so they are in no P(bad), effect or test. Present only when some
 * replay errored; an arm with errors and no significant effect is `undecided`, never "no effect".
 */
export const ReplayErrorsSchema = z.object({
  /** Replays that errored. */
  count: z.number().int().positive(),
  /** Replays the arm ran, errors included. */
  of: z.number().int().positive(),
  /** The error of the arm's first errored replay (lowest rollout index), as `Name: message`. */
  first: z.string(),
})
export type ReplayErrors = z.infer<typeof ReplayErrorsSchema>

/**
 * What an arm's replays say about its intervention: `rescues` (significantly lowers P(bad), after
 * the attribution's correction), `worsens` (its interval lies above 0), `none` (neither, and every
 * replay was scored), `undecided` (neither, and replays errored: pairs were lost, so the arm says
 * nothing about whether the intervention matters).
 */
export const ArmDirectionSchema = z.enum(['rescues', 'worsens', 'none', 'undecided'])
export type ArmDirection = z.infer<typeof ArmDirectionSchema>

/** One step of a contrastive attribution. */
export const ContrastiveStepSchema = z.object({
  index: z.number().int().nonnegative(),
  name: z.string(),
  /** The factual action of the step. */
  action: JsonSchema,
  /** False when the search skipped this step (binary search evaluates O(log n) steps). */
  evaluated: z.boolean(),
  /** P(bad | resample(k)), with its interval. */
  pBad: EstimateSchema,
  /**
   * P(bad | resample(k)) − P(bad | baseline): negative means resampling rescues. Fixed K: Tango's
   * paired interval with a continuity correction of ½ pair under CRN, else Newcombe's; sequential:
   * an anytime-valid confidence sequence on the paired differences (`method` says which). Two-sided
   * at 1 − 2α (`confidence` says so), so its upper end is the one-sided bound the rescue test uses;
   * results of earlier versions carry two-sided 1 − α intervals.
   */
  effect: IntervalSchema,
  /**
   * One-sided p-value of "resampling step k reduces P(bad)" (anytime-valid when sequential),
   * Holm-adjusted across all steps; a step the search did not evaluate counts with p = 1.
   */
  pValue: z.number().min(0).max(1),
  /**
   * `rescues`: significantly reduces P(bad) (Holm); `worsens`: the interval lies above 0 (reported,
   * never the locus); `undecided`: neither, and replays of this step's arm (or of the baseline at
   * its rollout indices) errored; else `none`.
   */
  direction: ArmDirectionSchema,
  /**
   * The marginal rescue of step k alone: P(bad | resample(k+1)) − P(bad | resample(k)), paired
   * under CRN; for the last step, P(bad | baseline) − P(bad | resample(k)). Null when not evaluated.
   */
  rescues: IntervalSchema.nullable(),
  /** Rollouts spent on this step's arm. */
  rolloutsUsed: z.number().int().nonnegative(),
  /** Absent when none did: the replays of this step's arm that errored. */
  errors: ReplayErrorsSchema.optional(),
})
export type ContrastiveStep = z.infer<typeof ContrastiveStepSchema>

/** The result of `contrastive`: plain data, read back by the reporter, the HTML report and the CLI. */
export const ContrastiveResultSchema = z.object({
  kind: z.literal('contrastive'),
  agent: z.string(),
  factual: ReplayHandleSchema,
  /** The replay seed of the attribution: the same seed (and options) reproduce this result exactly. */
  seed: z.number().int().optional(),
  steps: z.array(ContrastiveStepSchema),
  /** The latest step whose resampling significantly reduces P(bad); null when none does (abstain). */
  locus: z.number().int().nonnegative().nullable(),
  /** P(bad | hold(all)): the replay fidelity, how often replaying the factual run reproduces the failure. */
  baseline: EstimateSchema,
  /** Absent when none did: the replays of the baseline arm (every step held) that errored. */
  baselineErrors: ReplayErrorsSchema.optional(),
  /** Share of held steps whose name and context matched the recording, over every replay. */
  actionMatchRate: z.number().min(0).max(1),
  /** Rollouts spent in all, baseline included. */
  rolloutsUsed: z.number().int().nonnegative(),
  /** The maximum rollouts per arm (`rollouts` option); a binary search may extend a probe past it. */
  rolloutsPerStep: z.number().int().positive(),
  search: z.enum(['linear', 'binary']),
  crn: z.boolean(),
  sequential: z.boolean(),
  confidence: z.number().gt(0).lt(1),
  correction: z.literal('holm'),
  /** Interval methods: for P(bad) estimates, for effects, and the sequential stopping rule if any. */
  methods: z.object({
    proportion: z.string(),
    effect: z.string(),
    sequential: z.string().nullable(),
  }),
  /** True when the budget stopped the attribution early; the steps hold what was done. */
  truncated: z.boolean(),
})
export type ContrastiveResult = z.infer<typeof ContrastiveResultSchema>

/** One step's Shapley value: its share of v(N) − v(∅), with an interval. */
export const ShapleyStepSchema = z.object({
  index: z.number().int().nonnegative(),
  name: z.string(),
  action: JsonSchema,
  value: z.number(),
  low: z.number(),
  high: z.number(),
})
export type ShapleyStep = z.infer<typeof ShapleyStepSchema>

/** The result of `shapley`: plain data, read back by the reporter, the HTML report and the CLI. */
export const ShapleyResultSchema = z.object({
  kind: z.literal('shapley'),
  agent: z.string(),
  factual: ReplayHandleSchema,
  /** The replay seed of the attribution: the same seed (and options) reproduce this result exactly. */
  seed: z.number().int().optional(),
  steps: z.array(ShapleyStepSchema),
  /** v(N) − v(∅) = P(bad | hold(all)) − P(bad | hold(none)), with its interval: the Shapley values add up to it. */
  efficiencySum: IntervalSchema,
  method: z.enum(['exact', 'permutation']),
  /** Permutations sampled (permutation method; counting both members of an antithetic pair). */
  permutations: z.number().int().nonnegative(),
  samplesPerEval: z.number().int().positive(),
  antithetic: z.boolean(),
  confidence: z.number().gt(0).lt(1),
  /**
   * Coalition evaluations made: each `samplesPerEval` rollouts, or for an `adaptive` exact run up
   * to `samplesPerEval` rollouts, as the allocation gave it.
   */
  evaluations: z.number().int().nonnegative(),
  /**
   * How rollouts were spread over the coalitions of an exact run: `fixed` (`samplesPerEval` each)
   * or `adaptive` (a pilot, then Neyman allocation until every value is within ±0.05). Absent in
   * results of earlier versions and for the permutation method, where it is `fixed`.
   */
  allocation: z.enum(['fixed', 'adaptive']).optional(),
  rolloutsUsed: z.number().int().nonnegative(),
  /**
   * Absent when none did: the replays of every coalition that errored (never scored), the first by
   * coalition order, then rollout index.
   */
  errors: ReplayErrorsSchema.optional(),
  /** True when the budget stopped the run early; the values are from the work done. */
  truncated: z.boolean(),
  /**
   * The fewest rollouts that estimate the values at all (every coalition once, or two permutation
   * units). A budget with less left does not start the run. Absent in results of earlier versions.
   */
  minimumRollouts: z.number().int().positive().optional(),
  /** Share of held steps whose name and context matched the recording, over every replay. */
  actionMatchRate: z.number().min(0).max(1).optional(),
  /** Interval methods: of the Shapley values, and of the efficiency sum. */
  methods: z
    .object({
      value: z.string(),
      efficiencySum: z.string(),
    })
    .optional(),
})
export type ShapleyResult = z.infer<typeof ShapleyResultSchema>
