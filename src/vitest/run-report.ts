import { z } from 'zod'
import { CausalReplayMetaEntrySchema } from './meta.js'

/** The version tag of `report.json`. */
export const RUN_REPORT_SCHEMA = 'vitest-causal-replay/report@1'

// What a report entry takes as it is from the test's meta entry: all but the worker's report
// directory and attempt, and the paths, which the reporter makes relative to its own directory.
const {
  verdict,
  rate,
  locus,
  artifact: _artifact,
  html: _html,
  reportDir: _reportDir,
  attempt: _attempt,
  ...metaFields
} = CausalReplayMetaEntrySchema.shape

/** One rate assertion of a run, as `report.json` lists it (a superset of the index page's entry). */
export const RunReportEntrySchema = z.object({
  test: z.string(),
  /** The test file, relative to the project root. */
  file: z.string(),
  verdict,
  rate,
  locus,
  /** The artifact JSON, relative to the report directory; null when the worker could not write it. */
  artifact: z.string().nullable(),
  /** The HTML report, relative to the report directory; null when none was written. */
  html: z.string().nullable(),
  /** Present (true) when the test is marked `test.fails`: a fail verdict is an expected fail, a passed test. */
  expectedFail: z.boolean().optional(),
  ...metaFields,
  /**
   * A dataset claim whose cases were split across shards, decided by `--merge-reports` from every
   * shard's tallies: the shards expected and merged, what went wrong (a shard missing, cases counted
   * twice), the runs per case, the method and the reason of the verdict; absent for an unsplit claim.
   */
  merged: z
    .object({
      shards: z.number().int().positive(),
      merged: z.array(z.number().int().positive()),
      missing: z.array(z.number().int().positive()),
      countedTwice: z.array(z.string()),
      runsPerCase: z.number().int().positive(),
      method: z.string(),
      reason: z.string(),
    })
    .optional(),
})
export type RunReportEntry = z.infer<typeof RunReportEntrySchema>

/** `<reportDir>/report.json`: every rate assertion of the last run (after `--merge-reports`: of all shards). */
export const RunReportSchema = z.object({
  schema: z.literal(RUN_REPORT_SCHEMA),
  entries: z.array(RunReportEntrySchema),
})
export type RunReport = z.infer<typeof RunReportSchema>
