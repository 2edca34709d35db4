import { z } from 'zod'
import { ReplayHandleSchema } from '../attribute/schema.js'
import { EstimateSchema } from '../stats/estimate.js'
import {
  ComparisonSummarySchema,
  ModelCostSchema,
  PassKReportSchema,
  ScoreSummarySchema,
} from '../verdict/schema.js'
import { MatcherNameSchema } from '../check/claims.js'

/** The version tag of `report.json`. */
export const RUN_REPORT_SCHEMA = 'vitest-causal-replay/report@1'

/** One rate assertion of a run, as `report.json` lists it (a superset of the index page's entry). */
export const RunReportEntrySchema = z.object({
  test: z.string(),
  /** The test file, relative to the project root. */
  file: z.string(),
  verdict: z.enum(['pass', 'fail', 'inconclusive']),
  rate: EstimateSchema,
  locus: z.object({ index: z.number().int().nonnegative(), name: z.string() }).nullable(),
  /** The artifact JSON, relative to the report directory; null when the worker could not write it. */
  artifact: z.string().nullable(),
  /** The HTML report, relative to the report directory; null when none was written. */
  html: z.string().nullable(),
  matcher: MatcherNameSchema,
  agent: z.string(),
  predicate: z.string(),
  rolloutsUsed: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  seed: z.number().int(),
  replay: ReplayHandleSchema.nullable(),
  /** What the assertion's model calls cost; absent in reports from before it was counted. */
  cost: ModelCostSchema.optional(),
  /** pass^k of the run, as the verdict has it; absent with `passK: []` and in entries from before it was reported. */
  passK: PassKReportSchema.optional(),
  /** A score gate's mean; absent for rate gates (and in reports from before score gates). */
  score: ScoreSummarySchema.optional(),
  /** An A/B comparison's baseline agent, difference and margin; absent for the other claims. */
  comparison: ComparisonSummarySchema.optional(),
})
export type RunReportEntry = z.infer<typeof RunReportEntrySchema>

/** `<reportDir>/report.json`: every rate assertion of the last run (after `--merge-reports`: of all shards). */
export const RunReportSchema = z.object({
  schema: z.literal(RUN_REPORT_SCHEMA),
  entries: z.array(RunReportEntrySchema),
})
export type RunReport = z.infer<typeof RunReportSchema>
