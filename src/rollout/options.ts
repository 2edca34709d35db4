import { z } from 'zod'
import { DEFAULTS } from '../options/defaults.js'
import {
  AbortSignalField,
  functionField,
  PositiveIntegerField,
  SeedField,
  TimeoutMsField,
} from '../options/fields.js'
import { parseOptions, type DescribesSchema } from '../options/parse-options.js'
import { BudgetField, type Budget, type BudgetLimits } from './budget.js'

/** Progress of a run, reported after every rollout. */
export interface RolloutProgress {
  completed: number
  total: number
  errors: number
}

/** Options of `runRollouts`, `record` and `replay`. */
export interface RolloutOptions {
  /** Default 100 (`replay`: 32). How many rollouts to run. */
  rollouts?: number
  /** Default: a random seed, reported on the result. Same seed ⇒ byte-identical trajectories at any concurrency. */
  seed?: number
  /** Default 8. Rollouts in flight at once. */
  concurrency?: number
  /** Default 60 000. A rollout running longer becomes an error outcome (`timeout`). */
  timeoutMs?: number
  /** Default 100. A rollout taking more steps (or tool calls) becomes an error outcome (`max-steps`): a loop. */
  maxSteps?: number
  /** Default: unlimited. Limits, or a `Budget` shared with other calls. */
  budget?: Budget | BudgetLimits
  /** Default: none. Aborting stops the rollouts in flight and starts no more. */
  signal?: AbortSignal
  /** Default: none. Called after each rollout. */
  onProgress?: (progress: RolloutProgress) => void
}

/**
 * The fields every entry point that runs rollouts shares (`runRollouts`, `record`, `replay`,
 * attribution), defaults filled in; each builds its own strict schema from the ones it takes.
 * `seed` stays optional: its default differs (random for `runRollouts`, derived elsewhere).
 */
export const rolloutFields = {
  seed: SeedField.optional(),
  concurrency: PositiveIntegerField.default(DEFAULTS.concurrency),
  timeoutMs: TimeoutMsField.default(DEFAULTS.timeoutMs),
  maxSteps: PositiveIntegerField.default(DEFAULTS.maxSteps),
  budget: BudgetField,
  signal: AbortSignalField.optional(),
  onProgress: functionField<(progress: RolloutProgress) => void>().optional(),
}

/** The options of `runRollouts`. */
export const RolloutOptionsSchema = z.strictObject({
  rollouts: PositiveIntegerField.default(DEFAULTS.rollouts),
  ...rolloutFields,
})
const _sameOptions: DescribesSchema<RolloutOptions, typeof RolloutOptionsSchema> = true

/** {@link RolloutOptions} with every default filled in. */
export interface ResolvedRolloutOptions {
  rollouts: number
  seed: number
  concurrency: number
  timeoutMs: number
  maxSteps: number
  budget: Budget
  signal: AbortSignal | undefined
  onProgress: ((progress: RolloutProgress) => void) | undefined
}

/** Parses the options of `runRollouts`; without a `seed`, a random one. */
export function resolveRolloutOptions(options: unknown): ResolvedRolloutOptions {
  const parsed = parseOptions('runRollouts', RolloutOptionsSchema, options)
  return withSeed(parsed, parsed.seed ?? randomSeed())
}

/** Parsed rollout options as the engine takes them, with the seed chosen by the caller. */
export function withSeed(
  parsed: Omit<ResolvedRolloutOptions, 'seed' | 'signal' | 'onProgress'> & {
    signal?: AbortSignal | undefined
    onProgress?: ((progress: RolloutProgress) => void) | undefined
  },
  seed: number,
): ResolvedRolloutOptions {
  return {
    rollouts: parsed.rollouts,
    seed,
    concurrency: parsed.concurrency,
    timeoutMs: parsed.timeoutMs,
    maxSteps: parsed.maxSteps,
    budget: parsed.budget,
    signal: parsed.signal,
    onProgress: parsed.onProgress,
  }
}

/** A fresh 31-bit seed, for runs the caller did not seed. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff)
}
