/**
 * The error hierarchy. Checks go by `name` (see {@link isCausalReplayError}) because errors cross
 * the worker → reporter boundary as plain objects, where `instanceof` no longer holds.
 */
export class CausalReplayError extends Error {
  override name = 'CausalReplayError'

  /** Name, message and own fields: `JSON.stringify` of an Error would otherwise drop the message. */
  toJSON(): { name: string; message: string; [field: string]: unknown } {
    return { ...(this as object), name: this.name, message: this.message }
  }
}

/** A value that must be JSON (an action, a context, a tool result, an input) is not. */
export class NotJsonError extends CausalReplayError {
  override name = 'NotJsonError'
}

/** A file we read (a baseline, an artifact, a run report) is missing, unreadable or does not match its schema. */
export class InvalidFileError extends CausalReplayError {
  override name = 'InvalidFileError'
  constructor(
    message: string,
    /** The file that was read, when there was one. */
    readonly file?: string,
  ) {
    super(message)
  }
}

/** A trajectory file is missing, unreadable or does not match the trajectory schema. */
export class InvalidTrajectoryError extends InvalidFileError {
  override name = 'InvalidTrajectoryError'
}

/** Where in a dataset an {@link InvalidDatasetError} found its problem. */
export interface DatasetProblem {
  /** The dataset's name, as given to `defineDataset`. */
  readonly dataset: string
  /** The file the cases came from, as given; absent for cases given as an array. */
  readonly file?: string
  /** The case's position among the cases, from 1; absent when the problem is not one case's. */
  readonly position?: number
  /** The case's id, when it has one (given, or derived from its content). */
  readonly caseId?: string
  /** The file's line the case starts on (JSONL and CSV, and a JSON array); absent for an array given in code. */
  readonly line?: number
  /** The field's dotted path inside the case (`tags.1`), or absent when the whole case (or file) is wrong. */
  readonly field?: string
  /** What is wrong, worded to follow the place: `must be an array of strings, got a string "a"`. */
  readonly problem: string
}

/**
 * A dataset's cases cannot be used: its file is missing or unreadable, a line is not JSON, a case
 * is not an object, a field does not match, or two cases share an id. The message names the
 * dataset, the file, the case (position, id, line) and the field; they are also fields of the error.
 */
export class InvalidDatasetError extends InvalidFileError {
  override name = 'InvalidDatasetError'
  readonly dataset: string
  readonly problem: string
  declare readonly position?: number
  declare readonly caseId?: string
  declare readonly line?: number
  declare readonly field?: string

  constructor(where: DatasetProblem) {
    super(formatDatasetProblem(where), where.file)
    this.dataset = where.dataset
    this.problem = where.problem
    if (where.position !== undefined) this.position = where.position
    if (where.caseId !== undefined) this.caseId = where.caseId
    if (where.line !== undefined) this.line = where.line
    if (where.field !== undefined) this.field = where.field
  }
}

/** The wording of every dataset problem, in one place. */
function formatDatasetProblem(where: DatasetProblem): string {
  const source = where.file === undefined ? '' : ` (${where.file})`
  const place: string[] = []
  if (where.position !== undefined) place.push(`case ${where.position}`)
  const details: string[] = []
  if (where.caseId !== undefined) details.push(`id "${where.caseId}"`)
  if (where.line !== undefined) details.push(`line ${where.line}`)
  const caseText =
    place.length === 0
      ? where.line === undefined
        ? ''
        : `, line ${where.line}`
      : `, ${place.join('')}${details.length === 0 ? '' : ` (${details.join(', ')})`}`
  const field = where.field === undefined ? '' : ` \`${where.field}\``
  return `Dataset "${where.dataset}"${source}${caseText}:${field} ${where.problem}.`
}

/** A rollout ran longer than `timeoutMs`. */
export class RolloutTimeoutError extends CausalReplayError {
  override name = 'RolloutTimeoutError'
}

/** A rollout took more than `maxSteps` decisions (or tool calls): the agent loops. */
export class MaxStepsExceededError extends CausalReplayError {
  override name = 'MaxStepsExceededError'
}

/** A rollout was stopped by its `signal` (test timeout, interrupt, budget). */
export class RolloutAbortedError extends CausalReplayError {
  override name = 'RolloutAbortedError'
}

/**
 * Strict replay found a held step whose name or context no longer matches the recording. By
 * default divergences are only counted (see `actionMatchRate`); `onDivergence: 'error'` raises this.
 */
export class ReplayDivergenceError extends CausalReplayError {
  override name = 'ReplayDivergenceError'
}

/**
 * A budget limit (`maxRollouts` or `maxCostUsd`) would be exceeded. `partial` holds the work done
 * before the stop: a rollout set, an attribution result, … (the thrower documents which).
 */
export class BudgetExceededError<Partial = unknown> extends CausalReplayError {
  override name = 'BudgetExceededError'
  constructor(
    message: string,
    readonly partial: Partial,
  ) {
    super(message)
  }
}

/** What an {@link InvalidOptionError} reports: which option, what it accepts, and what it got. */
export interface InvalidOption {
  /** The function whose options (or arguments) these are: `runRollouts`, `contrastive`, `causalReplay`. */
  readonly caller: string
  /** The option's dotted path (`budget.maxRollouts`), or the argument's name (`target`). */
  readonly option: string
  /** What the option accepts, worded to follow "must be": `a positive integer`. */
  readonly expected: string
  /** A short description of the value given: `null`, `a string "5"`, `an array`, `-1`. */
  readonly received: string
  /** Only for an unknown key: the keys accepted at its level. */
  readonly accepted?: readonly string[]
  /** A further sentence on how to fix it: `Use method: 'permutation'.` */
  readonly hint?: string
}

/**
 * An option has a value we cannot use, or is not an option at all. The problem is data (the
 * fields of {@link InvalidOption}); the message is built from it in one place.
 */
export class InvalidOptionError extends CausalReplayError implements InvalidOption {
  override name = 'InvalidOptionError'
  readonly caller: string
  readonly option: string
  readonly expected: string
  readonly received: string
  // Declared, not initialized: they exist only on the errors they describe.
  declare readonly accepted?: readonly string[]
  declare readonly hint?: string

  constructor(problem: InvalidOption) {
    super(formatInvalidOption(problem))
    this.caller = problem.caller
    this.option = problem.option
    this.expected = problem.expected
    this.received = problem.received
    if (problem.accepted !== undefined) this.accepted = problem.accepted
    if (problem.hint !== undefined) this.hint = problem.hint
  }
}

/** The wording of every invalid option, in one place. */
function formatInvalidOption(problem: InvalidOption): string {
  const { caller, option, expected, received, accepted, hint } = problem
  const sentence =
    accepted === undefined
      ? `${caller}: \`${option}\` must be ${expected}, got ${received}.`
      : `${caller}: unknown option \`${option}\`. ${accepted.length === 0 ? 'It accepts none.' : `It accepts: ${accepted.join(', ')}.`}`
  return hint === undefined ? sentence : `${sentence} ${hint}`
}

/**
 * An adapter was imported without the SDK it adapts (an optional peer dependency). The message
 * names the package and the command that installs it.
 */
export class MissingPeerDependencyError extends CausalReplayError {
  override name = 'MissingPeerDependencyError'
  constructor(
    message: string,
    /** The package to install. */
    readonly packageName: string,
  ) {
    super(message)
  }
}

/**
 * A judge predicate could not give a verdict: its model call threw or timed out, or its answer was
 * neither yes nor no. The gates count it as an error outcome of the run it was judging (with this
 * message), as they count an agent's error, rather than as a bug in the test.
 */
export class JudgeError extends CausalReplayError {
  override name = 'JudgeError'
  constructor(
    message: string,
    /** `timeout` when the judge ran past its `timeoutMs`; `threw` otherwise. */
    readonly kind: 'threw' | 'timeout',
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/**
 * A rate limit's store (`rateLimit.store`, a Redis URL) could not be reached when the run started,
 * or was lost during it. The limit is not dropped: the run fails, or the model call is not made
 * (an error outcome of its rollout). The message shows the store without credentials.
 */
export class RateLimitStoreError extends CausalReplayError {
  override name = 'RateLimitStoreError'
}

/** The judge error `error` is or was caused by (through `cause` links), if any. */
export function judgeErrorIn(error: unknown): JudgeError | undefined {
  for (let current = error, depth = 0; depth < 8; depth++) {
    if (typeof current !== 'object' || current === null) return undefined
    if ((current as { name?: unknown }).name === 'JudgeError') return current as JudgeError
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

const ERROR_NAMES = new Set([
  'CausalReplayError',
  'NotJsonError',
  'InvalidFileError',
  'InvalidTrajectoryError',
  'InvalidDatasetError',
  'RolloutTimeoutError',
  'MaxStepsExceededError',
  'RolloutAbortedError',
  'ReplayDivergenceError',
  'BudgetExceededError',
  'InvalidOptionError',
  'MissingPeerDependencyError',
  'JudgeError',
  'RateLimitStoreError',
])

/**
 * True for any error of this library, also after it was serialized across a worker boundary: as a
 * plain object (JSON, Vitest's error serialization) the `name` survives; through `structuredClone`
 * (worker `postMessage`) only the standard error names do, but the stack's first line keeps ours.
 */
export function isCausalReplayError(error: unknown): error is CausalReplayError {
  if (typeof error !== 'object' || error === null) return false
  const { name, stack } = error as { name?: unknown; stack?: unknown }
  if (typeof name === 'string' && ERROR_NAMES.has(name)) return true
  if (name !== 'Error' || typeof stack !== 'string') return false
  const header = /^(\w+)(?::|\n|$)/.exec(stack)
  return header !== null && ERROR_NAMES.has(header[1] as string)
}
