import { z } from 'zod'
import { ContextAttributionResultSchema } from '../attribute/context-schema.js'
import { ContrastiveResultSchema, ReplayHandleSchema, ShapleyResultSchema } from '../attribute/schema.js'
import { EstimateSchema, IntervalSchema } from '../stats/estimate.js'
import { RolloutErrorSchema, TrajectorySchema } from '../trajectory/schema.js'
import { CLAIM_KINDS, CLAIMS, claimKindsOf } from './claim-table.js'

/**
 * What a claim says: about the predicate's rate, `rarely` (at most a bound), `usually` (at least a
 * bound), `never` (in no rollout), `always` (in every rollout), `baseline` (no worse than the stored
 * rate), `noWorseThan` (no worse than a baseline agent's rate by more than a margin); about a
 * scorer's mean, `scoreAtLeast` / `scoreAtMost` (at least / at most a threshold). The kinds of the
 * claims table (`src/verdict/claim-table.ts`), whose matchers (`toRarely`, …) make these claims.
 */
export const ClaimKindSchema = z.enum(CLAIM_KINDS)
/** A kind of claim, as a verdict file spells it: the same union as the claims table's keys, written out. */
export type ClaimKind = z.infer<typeof ClaimKindSchema>

/** A stored rate baseline a run wrote: where, under which key, and whether it was new (`created`) or rewritten (`updated`). */
export const BaselineWriteSchema = z.object({
  /** The baseline file, relative to the project root. */
  file: z.string(),
  /** The entry's key in the file. */
  key: z.string(),
  status: z.enum(['created', 'updated']),
})
export type BaselineWrite = z.infer<typeof BaselineWriteSchema>

/** How a baseline verdict relates to its stored rate. */
export const BaselineComparisonSchema = z.object({
  /** The baseline file, relative to the project root. */
  file: z.string(),
  /** The entry's key in the file. */
  key: z.string(),
  /**
   * `compared`: checked against the stored rate; `created`: no entry, one was written; `updated`:
   * `-u` rewrote it; `missing`: no entry and none may be written (CI); `mismatch`: the entry was
   * recorded for another agent or predicate, so it is not this claim's baseline.
   */
  status: z.enum(['compared', 'created', 'updated', 'missing', 'mismatch']),
  /** Whom the stored entry was recorded for (null when there was none). */
  storedFor: z.object({ agent: z.string(), predicate: z.string() }).nullable(),
  /** The stored rate (null when there was none). */
  stored: EstimateSchema.nullable(),
  /** The seed the stored rate was measured with. */
  storedSeed: z.number().int().nullable(),
  /**
   * new − stored, two-sided at 2·confidence − 1, so each end is the one-sided bound the gate tests at
   * its confidence (null when nothing was compared): Tango's paired interval with a continuity
   * correction of one pair when the new run was paired with the stored one (`pairs`), else the
   * continuity-corrected Newcombe interval of two independent samples.
   */
  difference: IntervalSchema.nullable(),
  /**
   * Rollout by rollout, when the new run was paired with the stored one (the stored seed, and the
   * entry has its outcomes): `worse` pairs where only the new run was worse, `better` where only it
   * was better, `same` alike; errors left out. Null when compared as independent samples or not
   * compared; absent in artifacts of earlier versions.
   */
  pairs: z
    .object({
      worse: z.number().int().nonnegative(),
      better: z.number().int().nonnegative(),
      same: z.number().int().nonnegative(),
    })
    .nullable()
    .optional(),
  /**
   * Where the new rate stands (null when nothing was compared): `reproduced` (the stored run, rerun
   * with its seed), `within` (no worse than the tolerance, shown), `undecided` (a regression beyond
   * the tolerance not ruled out) or `regressed` (a regression beyond the tolerance, shown). The
   * first two pass.
   */
  finding: z.enum(['reproduced', 'within', 'undecided', 'regressed']).nullable(),
  /** How much worse than the stored rate the new one may be. */
  tolerance: z.number().min(0).max(1),
  /** Which direction is better: `lower` for a bad-outcome predicate, `higher` for a success predicate. */
  better: z.enum(['lower', 'higher']),
  /**
   * Over a dataset whose stored entry kept its cases: each case against its own stored counts, Holm
   * across the `compared` cases at the gate's confidence. `regressed` are the cases shown worse by
   * more than the tolerance (smallest adjusted p-value first); `added` the dataset's cases with no
   * stored counts (not compared), `removed` the stored cases the dataset no longer has. Absent for
   * one input and for entries stored without cases.
   */
  cases: z
    .object({
      compared: z.number().int().nonnegative(),
      regressed: z.array(z.string()),
      added: z.array(z.string()),
      removed: z.array(z.string()),
      method: z.string(),
    })
    .optional(),
})
export type BaselineComparison = z.infer<typeof BaselineComparisonSchema>

/**
 * What the model calls of a claim cost, over its gate and its attribution: every step that names a
 * `model` (the adapters' model calls) and called it live or was answered by a cassette. Depends on
 * concurrency as `rolloutsRun` does: rollouts past the deciding one were paid for too.
 */
export const ModelCostSchema = z.object({
  /** Model calls, live and from the cassette. */
  modelCalls: z.number().int().nonnegative(),
  /** Of those, the ones a cassette answered (nothing spent). */
  cassetteHits: z.number().int().nonnegative(),
  /**
   * Of the hits, those answered by a call made earlier in the same run (a key repeated within the
   * run), not read from the cassette file; absent when none.
   */
  reusedHits: z.number().int().positive().optional(),
  /** Input tokens of the live calls (cached input included), as the providers reported them. */
  inputTokens: z.number().nonnegative(),
  /** Output tokens of the live calls. */
  outputTokens: z.number().nonnegative(),
  /** USD of the priced live calls; null when no live call was priced (no `prices` table, or none made). */
  usd: z.number().nonnegative().nullable(),
  /** Live calls without a price, whose cost is not in `usd`. */
  unpricedCalls: z.number().int().nonnegative(),
  /** USD the cassette hits would have cost; null when no hit was priced. */
  savedUsd: z.number().nonnegative().nullable(),
  /**
   * Rollouts cancelled in flight once the claim had decided, absent when none was: how many, the
   * model calls they had made (counted in `modelCalls` too), and the live calls cut off mid-call.
   */
  aborted: z
    .object({
      rollouts: z.number().int().positive(),
      modelCalls: z.number().int().nonnegative(),
      cutCalls: z.number().int().nonnegative(),
    })
    .optional(),
})
export type ModelCost = z.infer<typeof ModelCostSchema>

/**
 * pass^k: the chance that k runs in a row all succeed (τ-bench's reliability metric), for each k
 * of the `passK` option up to the completed rollouts; the interval is the observed rate's, raised
 * to the k-th power, at the same level.
 */
export const PassKReportSchema = z.object({
  confidence: z.number().gt(0).lt(1),
  method: z.string(),
  values: z.array(
    z.object({ k: z.number().int().positive(), point: z.number(), low: z.number(), high: z.number() }),
  ),
})
export type PassKReport = z.infer<typeof PassKReportSchema>

/** One case of a dataset claim: its runs, how many went against the claim, errors, and its exact interval. */
export const DatasetCaseRowSchema = z.object({
  /** The case's id. */
  id: z.string(),
  /** Runs of the case the gate scored (errors included). */
  runs: z.number().int().nonnegative(),
  /** Completed runs that went against the claim (the predicate held for `rarely`, failed for `usually`). */
  failures: z.number().int().nonnegative(),
  /** Runs that ended in an error. */
  errors: z.number().int().nonnegative(),
  /**
   * The case's own rate of failures over its completed runs: the two-sided Clopper–Pearson
   * interval at the claim's confidence. Describes the case; the claim is decided on the mean over
   * cases. Null when no run of the case completed.
   */
  interval: EstimateSchema.nullable(),
  /**
   * Set on a per-case claim (`per: 'case'`): `satisfies` / `violates` when the case was shown to
   * satisfy or violate the claim (Holm across the cases, each side at 1 − confidence), else
   * `undecided`.
   */
  decision: z.enum(['satisfies', 'violates', 'undecided']).optional(),
  /**
   * Set on an A/B comparison over a dataset: the baseline agent's failures on the case's runs (the
   * same rollout indices, so the same case), and the case's pairs bad for the candidate only
   * (`worse`) and for the baseline only (`better`).
   */
  /**
   * Set on a stored baseline over a dataset: the case's stored runs and failures, null for a case
   * added since the baseline was stored.
   */
  stored: z
    .object({ runs: z.number().int().nonnegative(), failures: z.number().int().nonnegative() })
    .nullable()
    .optional(),
  pairs: z
    .object({
      baselineFailures: z.number().int().nonnegative(),
      worse: z.number().int().nonnegative(),
      better: z.number().int().nonnegative(),
    })
    .optional(),
})
export type DatasetCaseRow = z.infer<typeof DatasetCaseRowSchema>

/**
 * What a claim over a dataset (`agent.over(dataset)`) ran: the dataset, its rounds, and a row per
 * case. The verdict's rate is the mean over cases.
 */
export const DatasetReportSchema = z.object({
  /** The dataset's name. */
  name: z.string(),
  /** Its number of cases: running every case once takes this many runs. */
  cases: z.number().int().positive(),
  /** Complete rounds: every case ran once in each. */
  rounds: z.number().int().nonnegative(),
  /** The case with the highest share of failures, whose first failing run is attributed; null when none failed. */
  worst: z.string().nullable(),
  /** One row per case, in the dataset's order. */
  table: z.array(DatasetCaseRowSchema),
  /**
   * What the claim was about: `case` when every case had to satisfy it on its own (`per: 'case'`);
   * absent for the mean over cases.
   */
  per: z.literal('case').optional(),
  /**
   * A failing per-case claim's attributions, one per case shown to violate it, in the order they
   * were attributed (worst first): the case, its first failing run, and whether an attribution ran
   * to a result (`attributed: false`: the claim's budget or the test's time ran out first, or the
   * attribution threw). The first is the verdict's own attribution.
   */
  attributions: z
    .array(
      z.object({
        id: z.string(),
        rollout: z.number().int().nonnegative(),
        attributed: z.boolean(),
        /** The causal locus found, when contrastive attribution named one. */
        locus: z.object({ index: z.number().int().nonnegative(), name: z.string() }).nullable(),
      }),
    )
    .optional(),
})
export type DatasetReport = z.infer<typeof DatasetReportSchema>

// The fields every verdict has, whatever its gate.
const verdictFields = {
  /** `pass`: the claim holds at the stated confidence; `fail`: it does not; `inconclusive`: the rollouts (or the budget, or the test's time) ran out first. */
  kind: z.enum(['pass', 'fail', 'inconclusive']),
  agent: z.string(),
  /** How the predicate reads in a sentence: "refund wrongly", "call issue_refund". */
  predicate: z.string(),
  confidence: z.number().gt(0).lt(1),
  /** The rate of the predicate over completed rollouts, with its interval and method. */
  observed: EstimateSchema,
  /** Rollouts that ended in an error: counted, shown, never scored. */
  errors: z.object({
    count: z.number().int().nonnegative(),
    examples: z.array(z.object({ rollout: z.number().int().nonnegative(), error: RolloutErrorSchema })),
  }),
  /** Rollouts scored, in index order (errors included). */
  rolloutsUsed: z.number().int().nonnegative(),
  /**
   * Rollouts that ran, scored or not (and were paid for). The pool keeps `concurrency` rollouts
   * in flight, and those past the deciding one are not scored, so that the verdict does not depend on
   * concurrency; this count is the one field that does (it is cost accounting, not a result), and
   * the terminal message leaves it out to stay byte-identical at any concurrency.
   */
  rolloutsRun: z.number().int().nonnegative(),
  seed: z.number().int(),
  /** Where the seed came from: the `seed` option, `CAUSAL_REPLAY_SEED`, or derived from the test's (or check's) name. */
  seedSource: z.enum(['option', 'env', 'test']),
  /** Whether error outcomes were allowed (left out of the rate) or failed the gate. */
  allowErrors: z.boolean(),
  /** The failing rollout attributed (the first bad one by index, or the first error), when there is one. */
  replay: ReplayHandleSchema.nullable(),
  /**
   * Set when the test's own timeout cut the gate short (rollouts got less than `timeoutMs`, or no
   * further rollout could start): the test's timeout, and the rollout timeout the first shortened
   * rollout got (the time left in the test then; `timeoutMs` when none was shortened). Absent or
   * null otherwise.
   */
  testTimeout: z
    .object({ testTimeoutMs: z.number().positive(), rolloutTimeoutMs: z.number().nonnegative() })
    .nullable()
    .optional(),
  /** What the model calls of the gate and its attribution cost. Absent in artifacts written before it was counted. */
  cost: ModelCostSchema.optional(),
  /** pass^k of the run; absent with `passK: []` and in artifacts written before it was reported. */
  passK: PassKReportSchema.optional(),
  /** Set when the claim was about a dataset's cases (`agent.over(dataset)`): the dataset and its per-case table. */
  dataset: DatasetReportSchema.optional(),
}

/** A judge's accuracy on one class of its calibration: `correct` of `of`, and its exact interval. */
export const JudgeAccuracyRecordSchema = z.object({
  correct: z.number().int().nonnegative(),
  of: z.number().int().positive(),
  /** The two-sided Clopper–Pearson interval at 1 − α/4: the box's side (each end leaves out α/8). */
  low: z.number().min(0).max(1),
  high: z.number().min(0).max(1),
})

/**
 * How a rate gate corrected the rate of a calibrated judge: the rate the judge said yes at (its
 * confidence sequence at α/2 per side), the calibration's counts with the exact intervals that make
 * the box of judges the test weighs, and the apparent rates beyond which enough rollouts decide.
 * The verdict's `observed` is the corrected rate.
 */
export const JudgeCorrectionSchema = z.object({
  method: z.string(),
  /** The judge's own answers: how often it said yes, with the confidence sequence two-sided at 1 − α (what a plausible judge asks of the run). */
  apparent: EstimateSchema,
  sensitivity: JudgeAccuracyRecordSchema,
  specificity: JudgeAccuracyRecordSchema,
  /**
   * The shares of α a wrong decision's bound is made of, per side: the run's evidence alone, and
   * what the sensitivity and the specificity counts add (each the box's tail and its weight in the
   * calibration's e-value).
   */
  alphaShares: z.object({ apparent: z.number(), sensitivity: z.number(), specificity: z.number() }),
  /**
   * The apparent rates equivalent to the bound: below `below` (the box's corner for "at most")
   * enough rollouts decide the true rate below the bound, above `above` above it; between them no
   * number of rollouts does. Null when neither can (the box reaches a sensitivity and a specificity
   * of 0).
   */
  apparentBounds: z.object({ below: z.number(), above: z.number() }).nullable(),
})
export type JudgeCorrection = z.infer<typeof JudgeCorrectionSchema>

/**
 * Why a gate that samples until its test answers stopped: `decided` (the test answered),
 * `max-rollouts` / `budget` (spent before it answered), `deadline` (the test's timeout was near),
 * `error` (an error outcome failed the gate). The rate, score and comparison gates share it.
 */
export const SequentialStopSchema = z.enum(['decided', 'max-rollouts', 'budget', 'deadline', 'error'])
export type SequentialStop = z.infer<typeof SequentialStopSchema>

/**
 * The verdict of `rarely` / `usually`: an anytime-valid sequential test of the rate against
 * `bound`, stopped at its first answer or at `maxRollouts`.
 */
export const SequentialVerdictSchema = z.object({
  gate: z.literal('sequential'),
  claim: z.enum(claimKindsOf('sequential')),
  ...verdictFields,
  /** The claim's bound: the rate is at most (`rarely`) or at least (`usually`) this. */
  bound: z.number().gt(0).lt(1),
  maxRollouts: z.number().int().positive(),
  /**
   * The test's two-sided confidence sequence (each end one-sided at `confidence`) and the method's
   * name; null when no rollout completed.
   */
  decision: z.object({ interval: IntervalSchema, method: z.string() }).nullable(),
  /** For an inconclusive verdict: about how many rollouts in all would decide it, if the observed rate held. */
  rolloutsToDecide: z.number().int().positive().nullable(),
  /** What an inconclusive verdict does to the test. */
  onInconclusive: z.enum(['fail', 'pass']),
  /** Why sampling stopped. */
  stop: SequentialStopSchema,
  /** Set when the predicate is a calibrated judge: the rate, its interval and the decision are judge-corrected. */
  judgeCorrection: JudgeCorrectionSchema.optional(),
})
export type SequentialVerdict = z.infer<typeof SequentialVerdictSchema>

/**
 * The verdict of `never` / `always`: `rollouts` rollouts, stopped at the first occurrence (of the
 * predicate for `never`, of its failure for `always`).
 */
export const ZeroToleranceVerdictSchema = z.object({
  gate: z.literal('zero-tolerance'),
  claim: z.enum(claimKindsOf('zero-tolerance')),
  ...verdictFields,
  /** The rollouts the claim asked for. */
  rollouts: z.number().int().positive(),
  /**
   * What zero occurrences prove: the exact one-sided Clopper–Pearson bound on the rate (the upper
   * end for `never`, the lower for `always`). Null when an occurrence or an error decided.
   */
  oneSidedBound: IntervalSchema.nullable(),
  /**
   * Why sampling stopped: `occurrence` (the claim was refuted), `completed` (every rollout ran),
   * `budget` (spent first), `deadline` (the test's timeout was near), `error` (an error outcome
   * failed the gate).
   */
  stop: z.enum(['occurrence', 'completed', 'budget', 'deadline', 'error']),
})
export type ZeroToleranceVerdict = z.infer<typeof ZeroToleranceVerdictSchema>

/** The verdict of a baseline claim: a fixed sample compared with the stored rate. */
export const BaselineVerdictSchema = z.object({
  gate: z.literal('baseline'),
  claim: z.literal('baseline'),
  ...verdictFields,
  /** The rollouts of the fixed sample. */
  rollouts: z.number().int().positive(),
  baseline: BaselineComparisonSchema,
  /** Why sampling stopped: `completed` (the sample ran in full), `budget`, `deadline` (the test's timeout was near), `error`. */
  stop: z.enum(['completed', 'budget', 'deadline', 'error']),
})
export type BaselineVerdict = z.infer<typeof BaselineVerdictSchema>

/** How an A/B comparison's candidate stands against its baseline agent, pair by pair. */
export const AgentComparisonSchema = z.object({
  /** The baseline agent's name. */
  baselineAgent: z.string(),
  /** The baseline agent's rate of the predicate over the same rollout indices, with its confidence sequence. */
  baselineObserved: EstimateSchema,
  /** The baseline agent's error outcomes. */
  baselineErrors: z.number().int().nonnegative(),
  /**
   * The paired counts of bad outcomes, rollout by rollout (both completed): `worse` bad for the
   * candidate only, `better` bad for the baseline only, `same` alike.
   */
  pairs: z.object({
    worse: z.number().int().nonnegative(),
    better: z.number().int().nonnegative(),
    same: z.number().int().nonnegative(),
  }),
  /**
   * The predicate's rate, candidate − baseline: the paired betting confidence sequence, two-sided
   * at 2·confidence − 1 so that each end is the one-sided bound tested at the claim's confidence.
   * The worse end is `high` when lower is better, `low` when higher is. Null when no pair completed.
   */
  difference: IntervalSchema.nullable(),
  /** Pairs in which both agents made the same steps in the same order (common random numbers held). */
  sharedSteps: z.number().int().nonnegative(),
  /** How much worse the candidate may be. */
  margin: z.number().min(0).lt(1),
  /** Which direction is better: `lower` for a bad-outcome predicate, `higher` for a success predicate. */
  better: z.enum(['lower', 'higher']),
  /**
   * The test that decided, when it is not the paired betting e-process of pairs drawn independently:
   * over a dataset, the round-permutation test of the mean difference over cases.
   */
  method: z.string().optional(),
})
export type AgentComparison = z.infer<typeof AgentComparisonSchema>

/**
 * What the summaries show of a comparison beside the candidate's rate: the baseline agent, the
 * difference with its interval, and the margin.
 */
export const ComparisonSummarySchema = AgentComparisonSchema.pick({
  baselineAgent: true,
  difference: true,
  margin: true,
  better: true,
})
export type ComparisonSummary = z.infer<typeof ComparisonSummarySchema>

/**
 * The verdict of `noWorseThan`: both agents run on the same seed, rollout r of each drawing from
 * the streams (seed, r, j), paired by rollout index and tested sequentially.
 */
export const ComparisonVerdictSchema = z.object({
  gate: z.literal('comparison'),
  claim: z.literal('noWorseThan'),
  ...verdictFields,
  maxRollouts: z.number().int().positive(),
  comparison: AgentComparisonSchema,
  /** Why sampling stopped. */
  stop: SequentialStopSchema,
})
export type ComparisonVerdict = z.infer<typeof ComparisonVerdictSchema>

/**
 * How a score gate stands, in the user's units (the scorer's `range`; the statistics run on scores
 * rescaled to [0, 1]).
 */
export const ScoreStandingSchema = z.object({
  /** The claim's threshold: the mean score is at least (`scoreAtLeast`) or at most (`scoreAtMost`) this. */
  threshold: z.number(),
  /** The scorer's declared range `[min, max]` ([0, 1] unless given). */
  range: z.tuple([z.number(), z.number()]),
  /**
   * The mean score of the completed rollouts, with the betting test's two-sided confidence sequence
   * (each end one-sided at `confidence`), intersected over every look; null when no rollout completed.
   */
  mean: IntervalSchema.nullable(),
  /** The name of the sequential test that decided (or did not). */
  method: z.string(),
  /** The lowest and highest score seen (null when no rollout completed). */
  lowest: z.number().nullable(),
  highest: z.number().nullable(),
  /**
   * The rollout attribution explains: a lowest-scoring one (`scoreAtLeast`; a highest-scoring one
   * for `scoreAtMost`) whose score is on the wrong side of the threshold; null when there is none.
   */
  attributed: z.object({ rollout: z.number().int().nonnegative(), score: z.number() }).nullable(),
})
export type ScoreStanding = z.infer<typeof ScoreStandingSchema>

/**
 * The verdict of `scoreAtLeast` / `scoreAtMost`: an anytime-valid sequential test of a bounded
 * mean score (betting) against a threshold, stopped at its first answer or at `maxRollouts`.
 * `observed` is the share of completed rollouts that scored on the claim's side of the threshold
 * (Clopper–Pearson), shown beside the mean.
 */
export const ScoreVerdictSchema = z.object({
  gate: z.literal('score'),
  claim: z.enum(claimKindsOf('score')),
  ...verdictFields,
  score: ScoreStandingSchema,
  maxRollouts: z.number().int().positive(),
  /** What an inconclusive verdict does to the test. */
  onInconclusive: z.enum(['fail', 'pass']),
  /** Why sampling stopped. */
  stop: SequentialStopSchema,
})
export type ScoreVerdict = z.infer<typeof ScoreVerdictSchema>

/**
 * A score gate's mean in a run's summary (the terminal table, the job summary, the index page),
 * where a rate gate shows its rate.
 */
export const ScoreSummarySchema = z.object({
  claim: z.enum(claimKindsOf('score')),
  threshold: z.number(),
  /** The mean score and its betting confidence sequence; null when no rollout completed. */
  mean: IntervalSchema.nullable(),
})
export type ScoreSummary = z.infer<typeof ScoreSummarySchema>

/** The summary of a score verdict; undefined for a rate verdict. */
export function scoreSummary(verdict: Verdict): ScoreSummary | undefined {
  if (verdict.gate !== 'score') return undefined
  return { claim: verdict.claim, threshold: verdict.score.threshold, mean: verdict.score.mean }
}

/** How many cases a dataset summary keeps: the worst, as the message lists them. */
export const DATASET_SUMMARY_CASES = 5

/**
 * A dataset verdict's cases in brief, for the reporter's job summary: the worst few (the highest
 * share of failures, then more failures, then more errors; only cases that failed or errored) and
 * how many cases it leaves out. The artifact and the HTML report hold every case.
 */
export const DatasetSummarySchema = z.object({
  name: z.string(),
  cases: z.number().int().positive(),
  /** `case` for a per-case claim, whose rows carry their decisions; absent for the mean over cases. */
  per: z.literal('case').optional(),
  worst: z.array(DatasetCaseRowSchema),
  /** The cases not in `worst`. */
  rest: z.number().int().nonnegative(),
})
export type DatasetSummary = z.infer<typeof DatasetSummarySchema>

/** The summary of a dataset verdict; undefined for a claim about one input. */
export function datasetSummary(verdict: Verdict): DatasetSummary | undefined {
  const { dataset } = verdict
  if (dataset === undefined) return undefined
  const worst = worstCaseRows(dataset.table).slice(0, DATASET_SUMMARY_CASES)
  return {
    name: dataset.name,
    cases: dataset.cases,
    ...(dataset.per === undefined ? {} : { per: dataset.per }),
    worst,
    rest: dataset.cases - worst.length,
  }
}

/**
 * The cases that failed or errored, worst first: the highest share of failures among completed
 * runs, then more failures, then more errors (an errored case ranks after the failing ones).
 */
export function worstCaseRows(table: readonly DatasetCaseRow[]): DatasetCaseRow[] {
  const share = (row: DatasetCaseRow) => {
    const completed = row.runs - row.errors
    return completed === 0 ? 0 : row.failures / completed
  }
  return table
    .filter((row) => row.failures > 0 || row.errors > 0)
    .sort((a, b) => share(b) - share(a) || b.failures - a.failures || b.errors - a.errors)
}

/**
 * A rate claim's result, as data (fast-check's RunDetails is the model): a union on `gate`, each
 * case with only the fields that mean something for it. The terminal message, the reporter line
 * and the HTML page are renderings of it.
 */
export const VerdictSchema = z.discriminatedUnion('gate', [
  SequentialVerdictSchema,
  ZeroToleranceVerdictSchema,
  BaselineVerdictSchema,
  ComparisonVerdictSchema,
  ScoreVerdictSchema,
])
export type Verdict = z.infer<typeof VerdictSchema>

/**
 * Which side of the claim is the good one: the predicate's rate (or the mean score) must stay at
 * most (`rarely`, `never`, a baseline where lower is better) or at least (`usually`, `always`,
 * higher is better). The claim's row says, unless its `better` option does.
 */
export function claimDirection(verdict: Verdict): 'atMost' | 'atLeast' {
  switch (verdict.gate) {
    case 'baseline':
      return verdict.baseline.better === 'lower' ? 'atMost' : 'atLeast'
    case 'comparison':
      return verdict.comparison.better === 'lower' ? 'atMost' : 'atLeast'
    default:
      return CLAIMS[verdict.claim].direction
  }
}

/** The version tag of artifact files. */
export const ARTIFACT_SCHEMA = 'vitest-causal-replay/artifact@2'

/** Why an attribution stopped without a result: its error, and the replay rollout being scored, when known. */
export const AttributionErrorSchema = z.object({
  message: z.string(),
  rollout: z.number().int().nonnegative().nullable(),
})

/** Everything about one rate claim, as written to the report directory (one JSON file per assertion). */
export const ArtifactSchema = z.object({
  schema: z.literal(ARTIFACT_SCHEMA),
  /** The test (or named check) that made the claim, and its file relative to the project root. */
  test: z.object({ name: z.string(), file: z.string() }),
  verdict: VerdictSchema,
  /** The attributed failing trajectory. */
  failing: TrajectorySchema.nullable(),
  contrastive: ContrastiveResultSchema.nullable(),
  shapley: ShapleyResultSchema.nullable(),
  /**
   * Why the attribution stopped without a result (the verdict stands): its error, and the replay
   * rollout being scored, when known. Absent or null when the attribution ran or was not asked for.
   */
  attributionError: AttributionErrorSchema.nullable().optional(),
  /**
   * Which part of the locus step's context it decided on (context attribution, run after the
   * contrastive attribution names a locus whose context has two or more parts). Absent in artifacts
   * of earlier versions; null when it did not run.
   */
  contextAttribution: ContextAttributionResultSchema.nullable().optional(),
  /**
   * Why the context attribution stopped without a result (the contrastive attribution and the
   * verdict stand). Absent or null when it ran or was not run.
   */
  contextAttributionError: AttributionErrorSchema.nullable().optional(),
  /**
   * True when a model judge was asked about the failing run: its verdict carries the judge's noise,
   * so a replay that holds every step need not reproduce it. Absent otherwise, and in artifacts of
   * earlier versions.
   */
  failingJudged: z.boolean().optional(),
})
export type Artifact = z.infer<typeof ArtifactSchema>
