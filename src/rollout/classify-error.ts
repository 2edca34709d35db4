import type { RolloutError, RolloutErrorKind } from '../trajectory/schema.js'

/**
 * The trajectory's record of the error that ended a rollout. The kind is read from the error's
 * `name`, not its class: errors that crossed a worker boundary keep their name but not their class.
 * Anything thrown that is not an Error is kept too, named by its `typeof`.
 */
export function classifyError(error: unknown): RolloutError {
  const name = error instanceof Error ? error.name : typeof error
  return { kind: kindOf(name), name, message: errorMessage(error) }
}

/** The message of anything thrown: an Error's message, else the value as JSON (or as a string). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  try {
    return `${JSON.stringify(error)} (thrown value, not an Error)`
  } catch {
    return String(error)
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
