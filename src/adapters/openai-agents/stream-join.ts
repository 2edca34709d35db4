import type { Json, JsonObject } from '../../json.js'
import { DeltaJoiner } from '../shared/delta-joiner.js'
import { asObject } from '../shared/model-call.js'

/**
 * A stream action (`{ call: 'stream', events }`) with each function call's argument deltas joined
 * into one. The runner reads a call's arguments from the `response_done` event, which holds them
 * whole; the raw provider events it passes on (`type: 'model'`) carry them in pieces:
 * - the Responses API's `response.function_call_arguments.delta` events, by `item_id`: the first
 *   holds the whole arguments, the later ones go;
 * - Chat Completions chunks, whose `choices[].delta.tool_calls[].function.arguments` are pieces, by
 *   choice and tool-call index: the first piece holds the whole arguments, the later ones are `""`.
 *   The SDK also copies a chunk into the `providerData` of the `response_started` and
 *   `output_text_delta` events it makes from it; there the pieces are `""` too (the chunk's own
 *   `model` event holds them).
 *
 * Any other action is returned as it is (the same object).
 */
export function joinArgumentDeltas(action: Json): Json {
  const object = asObject(action)
  const events = object?.events
  if (object?.call !== 'stream' || !Array.isArray(events)) return action
  const joiner = new DeltaJoiner<string>()
  for (const event of events) {
    const raw = rawEvent(event)
    const delta = argumentsDelta(raw)
    if (delta !== undefined) joiner.add(delta.key, delta.delta)
    else if (raw !== undefined) {
      mapChatPieces(raw, (key, piece) => {
        joiner.add(key, piece)
        return piece
      })
    }
  }
  if (!joiner.joinsAny) return action
  const joined: Json[] = []
  for (const event of events) {
    const raw = rawEvent(event)
    const delta = argumentsDelta(raw)
    if (delta !== undefined) {
      const whole = joiner.take(delta.key)
      if (whole !== undefined) joined.push({ ...asObject(event), event: { ...raw, delta: whole } })
      continue
    }
    if (raw !== undefined) {
      const chunk = mapChatPieces(raw, (key) => joiner.take(key) ?? '')
      joined.push(chunk === raw ? event : { ...asObject(event), event: chunk })
      continue
    }
    const copy = asObject(asObject(event)?.providerData)
    const blanked = copy === undefined ? undefined : mapChatPieces(copy, () => '')
    joined.push(
      blanked === undefined || blanked === copy ? event : { ...asObject(event), providerData: blanked },
    )
  }
  return { ...object, events: joined }
}

/** The provider's own event a `model` stream event carries. */
function rawEvent(event: Json): JsonObject | undefined {
  const object = asObject(event)
  return object?.type === 'model' ? asObject(object.event) : undefined
}

function argumentsDelta(raw: JsonObject | undefined): { key: string; delta: string } | undefined {
  if (raw?.type !== 'response.function_call_arguments.delta' || typeof raw.delta !== 'string')
    return undefined
  const item = typeof raw.item_id === 'string' ? raw.item_id : `output ${String(raw.output_index)}`
  return { key: item, delta: raw.delta }
}

/**
 * A Chat Completions chunk with each tool call's `function.arguments` piece replaced by what
 * `replace` gives for it (keyed by choice and tool-call index); the same object when nothing changed.
 */
function mapChatPieces(chunk: JsonObject, replace: (key: string, piece: string) => string): JsonObject {
  const choices = chunk.choices
  if (!Array.isArray(choices)) return chunk
  let changed = false
  const mapped = choices.map((entry) => {
    const choice = asObject(entry)
    const delta = asObject(choice?.delta)
    const calls = delta?.tool_calls
    if (choice === undefined || delta === undefined || !Array.isArray(calls)) return entry
    return {
      ...choice,
      delta: {
        ...delta,
        tool_calls: calls.map((call) => {
          const toolCall = asObject(call)
          const fn = asObject(toolCall?.function)
          const piece = fn?.arguments
          if (toolCall === undefined || fn === undefined || typeof piece !== 'string') return call
          const replaced = replace(`${String(choice.index)}/${String(toolCall.index)}`, piece)
          if (replaced === piece) return call
          changed = true
          return { ...toolCall, function: { ...fn, arguments: replaced } }
        }),
      },
    }
  })
  return changed ? { ...chunk, choices: mapped } : chunk
}
