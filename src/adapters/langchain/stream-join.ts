import type { Json, JsonObject } from '../../json.js'
import { DeltaJoiner } from '../shared/delta-joiner.js'
import { asObject } from '../shared/model-call.js'

/**
 * A stream action (`{ call: 'stream', chunks }`) with each tool call's argument pieces joined into
 * one: a streamed `AIMessageChunk` carries them as `tool_call_chunks[].args` (and a provider's raw
 * `additional_kwargs.tool_calls[].function.arguments`, as ChatOpenAI streams them), which LangChain
 * merges by `index`. The first chunk of a call holds its whole arguments and the later chunks lose
 * their piece of it, so the merged message (and the tool calls parsed from it) is the same. Any
 * other action is returned as it is (the same object).
 */
export function joinToolCallChunks(action: Json): Json {
  const object = asObject(action)
  const chunks = object?.chunks
  if (object?.call !== 'stream' || !Array.isArray(chunks)) return action
  const joiner = new DeltaJoiner<string>()
  for (const chunk of chunks) {
    const fields = chunkFields(chunk)
    for (const piece of pieces(fields?.tool_call_chunks, 'args')) joiner.add(piece.key, piece.text)
    const raw = asObject(fields?.additional_kwargs)?.tool_calls
    for (const piece of pieces(raw, 'arguments')) joiner.add(piece.key, piece.text)
  }
  if (!joiner.joinsAny) return action
  return { ...object, chunks: chunks.map((chunk) => joinedChunk(chunk, joiner)) }
}

/** `chunk` with each piece replaced by the whole text (at a call's first piece) or dropped. */
function joinedChunk(chunk: Json, joiner: DeltaJoiner<string>): Json {
  const record = asObject(chunk)
  const message = asObject(record?.message)
  const fields = chunkFields(chunk)
  if (record === undefined || message === undefined || fields === undefined) return chunk
  const out: JsonObject = { ...fields }
  const toolCallChunks = joinedList(fields.tool_call_chunks, 'args', joiner)
  if (toolCallChunks !== undefined) out.tool_call_chunks = toolCallChunks
  const kwargs = asObject(fields.additional_kwargs)
  const raw = joinedList(kwargs?.tool_calls, 'arguments', joiner)
  if (kwargs !== undefined && raw !== undefined) out.additional_kwargs = { ...kwargs, tool_calls: raw }
  return { ...record, message: { ...message, fields: out } }
}

/**
 * A list of pieces with each piece's text made whole at its call's first piece; a later piece is
 * dropped (undefined when the value is no list).
 */
function joinedList(
  list: Json | undefined,
  field: 'args' | 'arguments',
  joiner: DeltaJoiner<string>,
): Json[] | undefined {
  if (!Array.isArray(list)) return undefined
  const out: Json[] = []
  for (const item of list) {
    const piece = pieceOf(item, field)
    if (piece === undefined) {
      out.push(item)
      continue
    }
    const whole = joiner.take(piece.key)
    if (whole === undefined) continue
    const object = asObject(item) ?? {}
    out.push(field === 'args' ? { ...object, args: whole } : withArguments(object, whole))
  }
  return out
}

/** The fields of an `AIMessageChunk` record (`{ kind: 'ai-chunk', fields }`). */
function chunkFields(chunk: Json): JsonObject | undefined {
  const message = asObject(asObject(chunk)?.message)
  return message?.kind === 'ai-chunk' ? asObject(message.fields) : undefined
}

function* pieces(
  list: Json | undefined,
  field: 'args' | 'arguments',
): Generator<{ key: string; text: string }> {
  if (!Array.isArray(list)) return
  for (const item of list) {
    const piece = pieceOf(item, field)
    if (piece !== undefined) yield piece
  }
}

/**
 * An item's piece of a call's arguments, keyed by its `index` (how LangChain merges pieces) within
 * its list: a tool-call chunk's `args`, or a raw tool call's `function.arguments`.
 */
function pieceOf(item: Json, field: 'args' | 'arguments'): { key: string; text: string } | undefined {
  const object = asObject(item)
  if (typeof object?.index !== 'number') return undefined
  const text = field === 'args' ? object.args : asObject(object.function)?.arguments
  return typeof text === 'string' ? { key: `${field} ${object.index}`, text } : undefined
}

function withArguments(toolCall: JsonObject, whole: string): JsonObject {
  return { ...toolCall, function: { ...asObject(toolCall.function), arguments: whole } }
}
