import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { z } from 'zod'
import { InvalidFileError } from '../errors.js'
import { lockFile } from '../files/file-lock.js'
import { parseJsonFile, writeJsonFile } from '../files/json-file.js'

/**
 * Vitest's snapshot update state: `all` (`vitest -u`) rewrites baselines, `new` (the local
 * default) writes missing ones, `none` (CI) writes nothing and fails on a missing one.
 */
export type UpdateState = 'all' | 'new' | 'none'

/** The version tag of baseline files. */
export const BASELINE_SCHEMA = 'vitest-causal-replay/baselines@1'

/** One stored rate: what `toMatchRateBaseline` compares the next run with. */
// Loose objects: fields a newer version (or a person) added are kept when an entry is rewritten.
export const BaselineEntrySchema = z
  .looseObject({
    /** successes / n. */
    rate: z.number().min(0).max(1),
    successes: z.number().int().nonnegative(),
    n: z.number().int().positive(),
    /** The seed it was measured with (rerunning with it reproduces the count exactly). */
    seed: z.number().int(),
    agent: z.string(),
    predicate: z.string(),
    better: z.enum(['lower', 'higher']),
    /**
     * Default: absent (entries written before it was kept). Each rollout's outcome in rollout order:
     * `1` the predicate held, `0` it did not, `-` an error left out of the rate. A run with the
     * stored seed and the same outcomes is the stored run reproduced.
     */
    outcomes: z
      .string()
      .regex(/^[01-]*$/, 'outcomes must be a string of 1, 0 and -')
      .optional(),
    /**
     * Default: absent (an entry for one input, or written before datasets were measured). Over a
     * dataset (`agent.over(dataset)`): its name and each case's runs and failures (runs that went
     * against the claim) in this measurement, in the dataset's order, on the entry's seed.
     */
    dataset: z
      .looseObject({
        name: z.string(),
        cases: z.array(
          z
            .looseObject({
              id: z.string(),
              runs: z.number().int().nonnegative(),
              failures: z.number().int().nonnegative(),
            })
            .refine((entry) => entry.failures <= entry.runs, {
              message: 'failures must not exceed runs',
              path: ['failures'],
            }),
        ),
      })
      .optional(),
  })
  .refine((entry) => entry.successes <= entry.n, {
    message: 'successes must not exceed n',
    path: ['successes'],
  })
  .refine((entry) => Math.abs(entry.rate - entry.successes / entry.n) < 1e-9, {
    message: 'rate must equal successes / n',
    path: ['rate'],
  })
  .refine(
    (entry) =>
      entry.outcomes === undefined ||
      (count(entry.outcomes, '1') === entry.successes &&
        count(entry.outcomes, '1') + count(entry.outcomes, '0') === entry.n),
    { message: 'outcomes must hold successes 1s and n scored outcomes', path: ['outcomes'] },
  )
export type BaselineEntry = z.infer<typeof BaselineEntrySchema>

function count(outcomes: string, outcome: '0' | '1'): number {
  let found = 0
  for (const character of outcomes) if (character === outcome) found++
  return found
}

/**
 * The entries of a baseline file, by key, as a null-prototype object: a key is looked up among the
 * file's own entries only, so `constructor`, `toString` or `__proto__` name an entry like any other
 * (zod's record drops a `__proto__` key, and a plain object answers `constructor` from its prototype).
 */
const BaselineEntriesSchema = z
  .preprocess(
    (value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? new Map(Object.entries(value))
        : value,
    z.map(z.string(), BaselineEntrySchema, { error: 'expected an object of entries by name' }),
  )
  .transform((entries) => entriesByKey(entries))

/** `entries` as a null-prototype object, in their order. */
function entriesByKey(entries: Iterable<[string, BaselineEntry]>): Record<string, BaselineEntry> {
  const byKey = Object.create(null) as Record<string, BaselineEntry>
  for (const [key, entry] of entries) byKey[key] = entry
  return byKey
}

/** A baseline file: one entry per assertion, keyed by test name (and `name`). */
export const BaselineFileSchema = z.looseObject({
  schema: z.literal(BASELINE_SCHEMA),
  entries: BaselineEntriesSchema,
})
export type BaselineFile = z.infer<typeof BaselineFileSchema>

/** Where the baselines of a test file live: `__baselines__/<file name>.rates.json` beside it. */
export function baselinePath(testFile: string): string {
  return join(dirname(testFile), '__baselines__', `${basename(testFile)}.rates.json`)
}

/** A baseline file's entries, or null when the file does not exist. A corrupted file throws a clear error. */
export async function readBaselines(file: string): Promise<BaselineFile | null> {
  if (!existsSync(file)) return null
  try {
    return await parseJsonFile(file, BaselineFileSchema, 'baseline')
  } catch (error) {
    if (!(error instanceof InvalidFileError)) throw error
    throw new InvalidFileError(
      `${error.message}\nThe baseline file was left unchanged. Fix it, or delete it and run \`vitest -u\` to measure every entry anew.`,
      file,
    )
  }
}

/** The entry stored under `key`, or null: only the file's own entries count, whatever the key. */
export function storedEntry(file: BaselineFile | null, key: string): BaselineEntry | null {
  return file !== null && Object.hasOwn(file.entries, key) ? (file.entries[key] as BaselineEntry) : null
}

// Tests of one file run in one worker: chaining each file's writes in the process spares them the
// lock's retry delays.
const pending = new Map<string, Promise<unknown>>()

/**
 * Sets `key` to `entry` in `file` (created with its folder if missing), keeping the other entries.
 * The read, merge and write happen under the file's cross-process lock ({@link lockFile}), so two
 * processes updating one file (two filtered `vitest -u` runs, workers of two projects) each keep
 * the other's entries. A corrupted file throws and is left unchanged: its other entries cannot be
 * kept, and a filtered run would otherwise replace them all with its own few. Keys are written
 * sorted, so the file diffs cleanly in review.
 */
export function writeBaseline(file: string, key: string, entry: BaselineEntry): Promise<void> {
  const previous = pending.get(file) ?? Promise.resolve()
  const next = previous
    .catch(() => {})
    .then(async () => {
      const release = await lockFile(file)
      try {
        const current = await readBaselines(file)
        // The rewritten entry keeps fields this version does not know; so does the file.
        const entries = new Map(Object.entries(current?.entries ?? {}))
        entries.set(key, { ...storedEntry(current, key), ...entry })
        const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        await writeJsonFile(
          file,
          BaselineFileSchema,
          { ...current, schema: BASELINE_SCHEMA, entries: entriesByKey(sorted) },
          'baseline',
        )
      } finally {
        await release()
      }
    })
  pending.set(file, next)
  return next
}
