import type { Json } from '../../json.js'
import { DeltaJoiner } from '../shared/delta-joiner.js'
import { asObject } from '../shared/model-call.js'

/**
 * A stream action (`{ call: 'stream', parts }`) with each tool call's `tool-input-delta` parts
 * joined into one: the first delta of a call holds its whole input, the later ones go. The stream
 * stays well-formed (start, one delta, end, then the `tool-call` part), so `streamText` hands the
 * agent the same input. Any other action is returned as it is (the same object).
 */
export function joinToolInputDeltas(action: Json): Json {
  const object = asObject(action)
  const parts = object?.parts
  if (object?.call !== 'stream' || !Array.isArray(parts)) return action
  const joiner = new DeltaJoiner<string>()
  for (const part of parts) {
    const delta = toolInputDelta(part)
    if (delta !== undefined) joiner.add(delta.id, delta.delta)
  }
  if (!joiner.joinsAny) return action
  const joined: Json[] = []
  for (const part of parts) {
    const delta = toolInputDelta(part)
    if (delta === undefined) {
      joined.push(part)
      continue
    }
    const whole = joiner.take(delta.id)
    if (whole !== undefined) joined.push({ ...asObject(part), delta: whole })
  }
  return { ...object, parts: joined }
}

function toolInputDelta(part: Json): { id: string; delta: string } | undefined {
  const object = asObject(part)
  return object?.type === 'tool-input-delta' &&
    typeof object.id === 'string' &&
    typeof object.delta === 'string'
    ? { id: object.id, delta: object.delta }
    : undefined
}
