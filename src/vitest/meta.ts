import { z } from 'zod'
import { ReplayHandleSchema } from '../attribute/schema.js'
import { EstimateSchema } from '../stats/estimate.js'
import {
  BaselineWriteSchema,
  ComparisonSummarySchema,
  DatasetSummarySchema,
  ModelCostSchema,
  PassKReportSchema,
  ScoreSummarySchema,
} from '../verdict/schema.js'
import { MatcherNameSchema } from '../check/claims.js'
import { ShardPartSchema } from './shard-part.js'

/**
 * What a rate assertion leaves in `task.meta.causalReplay` (one entry per assertion of a test):
 * the summary the reporter prints and indexes. It travels from the worker to the reporter and
 * through blob files into `--merge-reports`, so it is plain JSON and validated on the way in.
 */
export const CausalReplayMetaEntrySchema = z.object({
  matcher: MatcherNameSchema,
  agent: z.string(),
  predicate: z.string(),
  verdict: z.enum(['pass', 'fail', 'inconclusive']),
  /** The observed rate with its interval. */
  rate: EstimateSchema,
  /** Rollouts the gate ran, errors included. */
  rolloutsUsed: z.number().int().nonnegative(),
  /** Rollouts that ended in an error. */
  errors: z.number().int().nonnegative(),
  locus: z.object({ index: z.number().int().nonnegative(), name: z.string() }).nullable(),
  seed: z.number().int(),
  replay: ReplayHandleSchema.nullable(),
  /** The artifact JSON, relative to `reportDir`; null when the report directory could not be written. */
  artifact: z.string().nullable(),
  /** The HTML report, relative to `reportDir`; null when none was written. */
  html: z.string().nullable(),
  /** The report directory the worker wrote to (absolute, on the machine that ran the test). */
  reportDir: z.string(),
  /** Which run of the test wrote it ("retry/repeat"): a retried test keeps only its last run's entries. */
  attempt: z.string(),
  /** What the assertion's model calls cost (gate and attribution); absent in entries from before it was counted. */
  cost: ModelCostSchema.optional(),
  /** pass^k of the run, as the verdict has it; absent with `passK: []` and in entries from before it was reported. */
  passK: PassKReportSchema.optional(),
  /** A score gate's mean (its `rate` is the share of rollouts on the claim's side); absent for rate gates. */
  score: ScoreSummarySchema.optional(),
  /** An A/B comparison's baseline agent, difference and margin; absent for the other claims. */
  comparison: ComparisonSummarySchema.optional(),
  /** A dataset claim's worst cases and how many it leaves out; absent for a claim about one input. */
  dataset: DatasetSummarySchema.optional(),
  /**
   * A dataset claim run on one shard of its cases (`CAUSAL_REPLAY_SHARD`): its cases' tallies, which
   * `--merge-reports` combines with the other shards' into the verdict (this entry's own is
   * `inconclusive`); absent for a claim run on every case.
   */
  shard: ShardPartSchema.optional(),
  /** The stored rate baseline this assertion wrote (a new entry, or one `-u` rewrote); absent when it wrote none. */
  baselineWritten: BaselineWriteSchema.optional(),
})
export type CausalReplayMetaEntry = z.infer<typeof CausalReplayMetaEntrySchema>

/** The `task.meta` key. */
export const META_KEY = 'causalReplay'

// Augmented where `TaskMeta` is declared, not through 'vitest': Vitest re-exports it
// (`export { TaskMeta } from '@vitest/runner'`), and TypeScript does not reliably merge an
// augmentation through a named re-export (microsoft/TypeScript#18877). Through 'vitest' the field
// reaches `task.meta` or not depending on the order the program's files are read in; here it
// reaches both names in any order.
declare module '@vitest/runner' {
  interface TaskMeta {
    /** Rate assertions of this test (vitest-causal-replay), in the order they ran. */
    causalReplay?: CausalReplayMetaEntry[]
  }
}

/** The valid entries of a test's meta; anything malformed (another version's, a hand edit) is skipped. */
export function readMetaEntries(meta: { causalReplay?: unknown }): CausalReplayMetaEntry[] {
  const value = meta.causalReplay
  if (!Array.isArray(value)) return []
  return value.flatMap((entry) => {
    const parsed = CausalReplayMetaEntrySchema.safeParse(entry)
    return parsed.success ? [parsed.data] : []
  })
}
