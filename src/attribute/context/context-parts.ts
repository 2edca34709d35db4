import { InvalidOptionError } from '../../errors.js'
import type { Json } from '../../json.js'
import { describeReceived } from '../../options/received.js'
import {
  isObject,
  LEAF_SEPARATOR,
  leafText,
  plainLeaf,
  setLeafText,
  valueAt,
  valuePart,
  type ContextCodecs,
  type ContextPartHandle,
} from './context-codec.js'
import type { CustomContextPart } from './context-options.js'
import type { ContextPath, TextSpan } from '../context-schema.js'

// The part handles and their text live with the codecs that make them; attribution reads them here.
export { fieldName, LEAF_SEPARATOR, valueAt, type ContextPartHandle, type TextLeaf } from './context-codec.js'

/**
 * The parts of a context, in order:
 * - a model call's context written by an adapter: its messages, as the first of `codecs` that
 *   reads it lists them (the adapters' codecs: the AI SDK's prompt, the Agents SDK's system
 *   instructions and input, LangChain's stored messages);
 * - any other object: its top-level keys.
 * Call options, tool definitions and `call` are not parts. An assistant message that only carries
 * tool calls is not a part either: the calls are the structure their results hang on (a provider
 * rejects a tool result without its call), so only their results, and assistant text, are parts.
 *
 * What removing a part does: a key is deleted, a message is dropped, but a tool result keeps its
 * place, because every provider rejects an assistant tool call with no tool message after it: the
 * step sees the call answered with nothing. Its output keeps its type and structure (`blankOutput`):
 * text becomes `''`; a JSON output, or JSON text, keeps its keys, numbers and booleans with each
 * string emptied, so agent code that parses it still runs. An assistant message with tool calls
 * loses its text and keeps its calls, for the same reason. The Agents SDK's string input becomes
 * `''` (the request needs an input). `docs/attribution/context.md` shows each adapter's case.
 *
 * Returns undefined for a context that is neither an object nor one of these (a string, an array):
 * the caller then needs the user's own `parts`.
 */
export function contextParts(context: Json, codecs: ContextCodecs): ContextPartHandle[] | undefined {
  if (!isObject(context)) return undefined
  for (const codec of Object.values(codecs)) {
    const parts = codec(context)
    if (parts !== undefined) return parts
  }
  return Object.keys(context).map((key) => valuePart([key], 'key', `key "${key}"`, context[key] as Json))
}

/**
 * The parts a user's `parts(context)` lists. Each is removed by deleting the value at its path (an
 * array element spliced out) and replaced by setting it to the placeholder, unless the user gives
 * `ablate`; a part whose value is a string can be refined.
 */
export function customParts(
  context: Json,
  parts: (context: Json) => CustomContextPart[],
): ContextPartHandle[] {
  const listed: unknown = parts(context)
  if (!Array.isArray(listed)) {
    throw new InvalidOptionError({
      caller: 'contextAttribution',
      option: 'parts',
      expected: 'a function returning an array of { path, label, text }',
      received: `a function returning ${describeReceived(listed)}`,
    })
  }
  return listed.map((part: unknown, i) => {
    if (!isCustomPart(part)) {
      throw new InvalidOptionError({
        caller: 'contextAttribution',
        option: `parts(context)[${i}]`,
        expected: '{ path: (string | number)[], label: string, text: string }',
        received: describeReceived(part),
      })
    }
    const value = valueAt(context, part.path)
    const last = part.path[part.path.length - 1]
    return {
      ...valuePart(part.path, typeof last === 'number' ? 'message' : 'key', part.label, value ?? null),
      text: part.text,
      leaves: typeof value === 'string' && value === part.text ? [plainLeaf(part.path)] : [],
    }
  })
}

/**
 * The context with `span` of the part's text replaced by `replacement` (`''` removes it). Only the
 * part's text leaves change: a span across two leaves edits both, the separator between them stays.
 */
export function editSpan(context: Json, part: ContextPartHandle, span: TextSpan, replacement: string): Json {
  const copy = structuredClone(context)
  let offset = 0
  let replaced = false
  for (const leaf of part.leaves) {
    const text = leafText(copy, leaf)
    if (text === undefined) throw missing(part, leaf.path)
    const start = Math.max(span.start - offset, 0)
    const end = Math.min(span.end - offset, text.length)
    if (start < end) {
      const inserted = replaced ? '' : replacement
      replaced = true
      setLeafText(copy, leaf, text.slice(0, start) + inserted + text.slice(end))
    }
    offset += text.length + LEAF_SEPARATOR.length
  }
  return copy
}

/**
 * Each leaf's text as `context` holds it (the step's recorded context), in the part's order: the
 * part's text is these joined by {@link LEAF_SEPARATOR}.
 */
export function leafTexts(context: Json, part: Pick<ContextPartHandle, 'leaves'>): string[] {
  return part.leaves.map((leaf) => leafText(context, leaf) ?? '')
}

function isCustomPart(value: unknown): value is CustomContextPart {
  if (!isObject(value)) return false
  const { path, label, text } = value
  return (
    Array.isArray(path) &&
    path.every(
      (segment) => typeof segment === 'string' || (Number.isInteger(segment) && (segment as number) >= 0),
    ) &&
    typeof label === 'string' &&
    typeof text === 'string'
  )
}

function missing(part: ContextPartHandle, path: ContextPath): Error {
  return new Error(
    `contextAttribution: ${part.label} has no text at ${JSON.stringify(path)} in the replayed context.`,
  )
}
