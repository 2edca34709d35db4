import { z } from 'zod'
import { DEFAULTS } from '../options/defaults.js'
import { functionField, PositiveIntegerField, SeedField } from '../options/fields.js'
import { parseOptions, type StrictOptions } from '../options/parse-options.js'
import { concurrencyField, rolloutLimitFields, signalField } from '../options/run-fields.js'
import { BudgetField, type Budget } from './budget.js'

/** Progress of a run, reported after every rollout. */
export interface RolloutProgress {
  completed: number
  total: number
  errors: number
}

/**
 * How rollouts run, shared by every library function that runs them (`runRollouts`, `record`,
 * `replay`, the attributions): how many at once, each one's limits, the budget they spend, the
 * signal that stops them and the progress callback. `seed` stays optional: its default differs
 * (random for `runRollouts`, derived from the recording elsewhere).
 */
const seedField = {
  /**
   * Default: a random seed (`runRollouts`, reported on the result) or one derived from the
   * recording. Same seed ⇒ byte-identical trajectories at any concurrency.
   */
  seed: SeedField.optional(),
}

const budgetField = {
  /**
   * Default: unlimited. Limits (`{ maxRollouts, maxCostUsd }`), or a `Budget` shared with other
   * calls; a spent budget stops the run.
   */
  budget: BudgetField,
}

const progressField = {
  /** Default: none. Called after each rollout. */
  onProgress: functionField<(progress: RolloutProgress) => void>().optional(),
}

// Annotated with the fragments' types so that their doc comments reach the emitted `.d.ts` (a
// printed shape keeps only this file's).
type RolloutFields = typeof seedField &
  typeof concurrencyField &
  typeof rolloutLimitFields &
  typeof budgetField &
  typeof signalField &
  typeof progressField

export const rolloutFields: RolloutFields = {
  ...seedField,
  ...concurrencyField,
  ...rolloutLimitFields,
  ...budgetField,
  ...signalField,
  ...progressField,
}

const rolloutCountField = {
  /** Default 100 (`replay`: 32). How many rollouts to run. */
  rollouts: PositiveIntegerField.default(DEFAULTS.rollouts),
}
const rolloutOptionsFields: typeof rolloutCountField & RolloutFields = {
  ...rolloutCountField,
  ...rolloutFields,
}

/** The options of `runRollouts`. */
export const RolloutOptionsSchema: StrictOptions<typeof rolloutOptionsFields> =
  z.strictObject(rolloutOptionsFields)

/** Options of `runRollouts`, `record` and `replay`. */
export type RolloutOptions = z.input<typeof RolloutOptionsSchema>

/**
 * When the test that runs a gate times out, and so when the gate must have stopped for its message
 * and files to be written: `at` is that moment (epoch ms, the test's timeout less a margin),
 * `testTimeoutMs` the test's own timeout, which the message names as the option to raise.
 */
export interface Deadline {
  at: number
  testTimeoutMs: number
}

/**
 * The execution context: how the rollouts of one call run. It is resolved once where the library
 * is entered (the options of `runRollouts`, `record`, `replay` and the attributions are one; a
 * claim's gate makes one per check, `check` and the matchers adding the test's signal, deadline and
 * rate limit) and every function below takes it as it is: the rollout pool, the attribution arms,
 * the gates' sampling and the matchers' attribution. The rate limit rides on the budget's account
 * and the cassette on the scenario's agent, where each rollout meets them.
 */
export interface Execution {
  /** The account rollouts are charged to: its limits, its spending, the rate limit model calls wait for. */
  budget: Budget
  /** Rollouts in flight at once. */
  concurrency: number
  /**
   * Default: `concurrency`. The most live calls to one model in flight in this process that a
   * rollout of this call may join (see `model-call-slots.ts`): the run's `modelConcurrency`.
   */
  modelConcurrency?: number | undefined
  /** A rollout running longer is an error outcome. */
  timeoutMs: number
  /** A rollout taking more steps is an error outcome. */
  maxSteps: number
  /** Aborting stops the rollouts in flight and starts no more. */
  signal?: AbortSignal | undefined
  /** Default: none. The test's deadline, which caps rollouts and stops the gate and its attribution in time. */
  deadline?: Deadline | undefined
  /** Default: none. Called after each rollout. */
  onProgress?: ((progress: RolloutProgress) => void) | undefined
  /**
   * Default false. The sampling gates start rollouts in lockstep batches of `concurrency`, as they
   * did before their pool was work-conserving: only `bench/wall-time.ts` sets it, to measure both.
   * @internal
   */
  lockstep?: boolean | undefined
}

/**
 * How a batch of rollouts runs, resolved once where the library was entered: the engine and every
 * caller below the public boundary take it as it is, defaults filled in and the seed chosen.
 */
export type ResolvedRolloutOptions = z.output<typeof RolloutOptionsSchema> & { seed: number }
// The parsed options are the execution context, with no field copied into another object.
const _rolloutOptionsExecute: ResolvedRolloutOptions extends Execution ? true : false = true

/** Parses the options of `runRollouts`; without a `seed`, a random one. */
export function resolveRolloutOptions(options: unknown): ResolvedRolloutOptions {
  const parsed = parseOptions('runRollouts', RolloutOptionsSchema, options)
  return { ...parsed, seed: parsed.seed ?? randomSeed() }
}

/** A fresh 31-bit seed, for runs the caller did not seed. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff)
}
