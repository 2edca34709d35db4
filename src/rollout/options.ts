import { z } from 'zod'
import { DEFAULTS } from '../options/defaults.js'
import { functionField, PositiveIntegerField, SeedField } from '../options/fields.js'
import { parseOptions, type StrictOptions } from '../options/parse-options.js'
import { concurrencyField, rolloutLimitFields, signalField } from '../options/run-fields.js'
import { BudgetField } from './budget.js'

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

/** The run's cap on live calls to one model, which the plugin sets for every claim. */
export const modelConcurrencyField = {
  /**
   * Default: each claim's `concurrency`. The live calls to one model (steps naming the same `model`)
   * that may be in flight in one process, over every claim running there (`test.concurrent`,
   * several files in one worker): a call waits while that many are. Without it, claims at
   * `concurrency` c share c calls to a model; set it to let concurrent claims add up.
   */
  modelConcurrency: PositiveIntegerField.optional(),
}

// What only the matchers set: no public entry point takes these.
const matcherRunFields = {
  /** Default: none. The test's deadline, which caps rollouts and stops the gate and its attribution in time. */
  deadline: z.custom<Deadline>().optional(),
  /**
   * Default false. The sampling gates start rollouts in lockstep batches of `concurrency`, as they
   * did before their pool was work-conserving: only `bench/wall-time.ts` sets it, to measure both.
   * @internal
   */
  lockstep: z.boolean().optional(),
}

type ExecutionFields = typeof concurrencyField &
  typeof modelConcurrencyField &
  typeof rolloutLimitFields &
  typeof budgetField &
  typeof signalField &
  typeof progressField &
  typeof matcherRunFields

/**
 * The execution context's fields, declared once: the public schemas spread the fragments it is
 * made of, and {@link Execution} is what they parse to.
 */
export const executionFields: ExecutionFields = {
  ...concurrencyField,
  ...modelConcurrencyField,
  ...rolloutLimitFields,
  ...budgetField,
  ...signalField,
  ...progressField,
  ...matcherRunFields,
}

/**
 * The execution context: how the rollouts of one call run (the account they are charged to, how
 * many at once, each one's limits, the signal that stops them, the test's deadline, the progress
 * callback). It is made once where the library is entered, by {@link createExecution} (from the
 * options of `runRollouts`, `record`, `replay` and the attributions; a claim's gate makes one per
 * check, `check` and the matchers adding the test's signal, deadline and rate limit), and every
 * function below holds it as it is: the rollout pool and each rollout it runs, the attribution
 * arms, the gates' sampling and the matchers' attribution. The rate limit rides on the budget's
 * account and the cassette on the scenario's agent, where each rollout meets them.
 */
export type Execution = z.output<StrictOptions<ExecutionFields>>

/**
 * The one way an execution context is made: `from`'s fields of {@link executionFields}, every one
 * written in the same order, so that each context the engine reads has one shape. `from` is
 * parsed options (which have more keys), or a context with some fields changed
 * (`{ ...execution, timeoutMs }`).
 */
export function createExecution(from: Execution): Execution {
  return {
    concurrency: from.concurrency,
    modelConcurrency: from.modelConcurrency,
    timeoutMs: from.timeoutMs,
    maxSteps: from.maxSteps,
    budget: from.budget,
    signal: from.signal,
    onProgress: from.onProgress,
    deadline: from.deadline,
    lockstep: from.lockstep,
  }
}

/**
 * How a batch of rollouts runs, resolved once where the library was entered: the engine and every
 * caller below the public boundary take it as it is, defaults filled in and the seed chosen.
 */
export type ResolvedRolloutOptions = z.output<typeof RolloutOptionsSchema> & { seed: number }

/** Parses the options of `runRollouts`; without a `seed`, a random one. */
export function resolveRolloutOptions(options: unknown): ResolvedRolloutOptions {
  const parsed = parseOptions('runRollouts', RolloutOptionsSchema, options)
  return { ...parsed, seed: parsed.seed ?? randomSeed() }
}

/** A fresh 31-bit seed, for runs the caller did not seed. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff)
}
