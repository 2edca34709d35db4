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

/** An option has a value we cannot use; the message names the option and what it accepts. */
export class InvalidOptionError extends CausalReplayError {
  override name = 'InvalidOptionError'
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

const ERROR_NAMES = new Set([
  'CausalReplayError',
  'NotJsonError',
  'InvalidFileError',
  'InvalidTrajectoryError',
  'RolloutTimeoutError',
  'MaxStepsExceededError',
  'RolloutAbortedError',
  'ReplayDivergenceError',
  'BudgetExceededError',
  'InvalidOptionError',
  'MissingPeerDependencyError',
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
