import { z } from 'zod'

/** One case's runs on a shard, as the claim counts them: `failures` went against it, `errors` ended in an error. */
export const ShardCaseTallySchema = z.object({
  id: z.string().min(1),
  runs: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
})
export type ShardCaseTally = z.infer<typeof ShardCaseTallySchema>

/**
 * What a dataset claim run on one shard (`CAUSAL_REPLAY_SHARD=i/n`) leaves in its meta entry: the
 * claim, the dataset's size, and the tallies of the cases this shard ran. `--merge-reports` combines
 * the parts of the same assertion from every shard into one verdict on the mean over all cases.
 */
export const ShardPartSchema = z.object({
  /** This shard, from 1, and how many the cases were split across. */
  index: z.number().int().positive(),
  count: z.number().int().positive(),
  /** The runs every case had to make (`runsPerCase`). */
  runsPerCase: z.number().int().positive(),
  /** The claim's side of its bound: the predicate's rate at most (`toRarely`) or at least the bound. */
  direction: z.enum(['atMost', 'atLeast']),
  bound: z.number().gt(0).lt(1),
  /** The claim's confidence (each end of the printed interval is one-sided at it). */
  confidence: z.number().gt(0).lt(1),
  onInconclusive: z.enum(['fail', 'pass']),
  /** The dataset's name and how many cases it has on every shard together. */
  dataset: z.string(),
  cases: z.number().int().positive(),
  /** The cases this shard ran, in the dataset's order. */
  table: z.array(ShardCaseTallySchema),
})
export type ShardPart = z.infer<typeof ShardPartSchema>
