import type { RolloutError, RolloutErrorKind } from '../trajectory/schema.js'

/**
 * The trajectory's record of the error that ended a rollout. The kind is read from the error's
 * `name`, not its class: errors that crossed a worker boundary keep their name but not their class.
 * Anything thrown that is not an Error is kept too, named by its `typeof`. Never throws: what was
 * thrown is read through {@link readThrown}.
 */
export function classifyError(error: unknown): RolloutError {
  const name = readThrown(() => (error instanceof Error ? String(error.name) : undefined)) ?? typeof error
  return { kind: kindOf(name), name, message: errorMessage(error) }
}

/**
 * The message of anything thrown: an Error's message, else the value as JSON (or as a string).
 * Never throws: a value that cannot be read at all is described by its `typeof`.
 */
export function errorMessage(error: unknown): string {
  return (
    readThrown(() => (error instanceof Error ? String(error.message) : undefined)) ??
    readThrown(() => {
      const json = JSON.stringify(error)
      return `${json === undefined ? String(error) : json} (thrown value, not an Error)`
    }) ??
    readThrown(() => String(error)) ??
    `a thrown ${typeof error} that cannot be read: its properties throw`
  )
}

/**
 * `read()`, or undefined when reading throws. A thrown value is the agent's and may be anything: a
 * Proxy whose every trap throws fails `instanceof`, `String()` and `JSON.stringify` alike, and
 * that must end its rollout as an error outcome, not crash the gate and lose the verdict.
 */
function readThrown(read: () => string | undefined): string | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

function kindOf(name: string): RolloutErrorKind {
  switch (name) {
    case 'RolloutTimeoutError':
      return 'timeout'
    case 'MaxStepsExceededError':
      return 'max-steps'
    case 'RolloutAbortedError':
    case 'AbortError':
      return 'aborted'
    case 'NotJsonError':
      return 'not-json'
    default:
      return 'threw'
  }
}
