import { ReplayDivergenceError } from '../../errors.js'
import type { Json, JsonObject } from '../../json.js'

/** `json` when it is a JSON object (not an array, not null), else undefined. */
export function asObject(json: Json | undefined): JsonObject | undefined {
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? json : undefined
}

/**
 * A model step's recorded action, checked to be a call of the kind the agent now makes (each
 * adapter records `{ call, … }`). A held step recorded from a plain call but reached from a
 * streaming one (or the reverse) means the agent code changed since the recording; `hint` says
 * in the SDK's words what usually changed.
 */
export function recordedModelCall<Call extends string>(
  action: Json,
  call: Call,
  stepName: string,
  hint: string,
): JsonObject {
  const object = asObject(action)
  if (object?.call !== call) {
    const recorded = typeof object?.call === 'string' ? `a ${object.call} call` : 'no model call'
    throw new ReplayDivergenceError(
      `Model step "${stepName}" is a ${call} call, but its action records ${recorded}: the agent calls the model differently than in the recording (${hint}).`,
    )
  }
  return object
}
