import { InvalidOptionError } from '../errors.js'
import { toBudget, type Budget, type BudgetLimits } from './budget.js'

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

/** Fills in defaults and rejects unusable values with a message naming the option. */
export function resolveRolloutOptions(
  options: RolloutOptions,
  defaultRollouts = 100,
): ResolvedRolloutOptions {
  return {
    rollouts: positiveInteger(options.rollouts ?? defaultRollouts, 'rollouts'),
    seed: integer(options.seed ?? randomSeed(), 'seed'),
    concurrency: positiveInteger(options.concurrency ?? 8, 'concurrency'),
    timeoutMs: positiveNumber(options.timeoutMs ?? 60_000, 'timeoutMs'),
    maxSteps: positiveInteger(options.maxSteps ?? 100, 'maxSteps'),
    budget: toBudget(options.budget),
    signal: options.signal,
    onProgress: options.onProgress,
  }
}

/** A fresh 31-bit seed, for runs the caller did not seed. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff)
}

export function positiveInteger(value: number, option: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidOptionError(`\`${option}\` must be a positive integer, got ${String(value)}.`)
  }
  return value
}

function integer(value: number, option: string): number {
  if (!Number.isSafeInteger(value))
    throw new InvalidOptionError(`\`${option}\` must be an integer, got ${String(value)}.`)
  return value
}

function positiveNumber(value: number, option: string): number {
  if (!(value > 0))
    throw new InvalidOptionError(`\`${option}\` must be a positive number, got ${String(value)}.`)
  return value
}
