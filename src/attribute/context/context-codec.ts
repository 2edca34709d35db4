import type { Json, JsonObject } from '../../json.js'
import type { ContextPartKind, ContextPath } from '../context-schema.js'

/**
 * How attribution reads one SDK's model-call context: each adapter writes its calls' context in its
 * SDK's message format (`src/adapters/<sdk>/`), and its codec, beside it, splits that format back
 * into parts and says how to take each out. Context attribution asks the codecs it is handed in
 * turn (`ContextCodecs`); a context none of them reads is split by its top-level keys. The building
 * blocks below (parts, leaves, edits by path) are what a codec is written with.
 *
 * A codec gives the parts of `context`, in order, or undefined when `context` is not a model call of
 * its SDK. A tool result that is removed keeps its place and its structure, its text emptied
 * ({@link blankOutput}), and an assistant message with tool calls keeps its calls: every provider
 * rejects a tool call with no result after it. Only the first system message is the `system
 * prompt`; a later one is labelled by its place, `message 5 (system)`, like every other message.
 */
export type ContextCodec = (context: JsonObject) => ContextPartHandle[] | undefined

/**
 * Codecs by the SDK whose contexts they read, asked in this order. Attribution is handed them by
 * the layer above (the adapters' `CONTEXT_CODECS`) and imports no adapter itself.
 */
export type ContextCodecs = Readonly<Record<string, ContextCodec>>

/**
 * One part of a step's context and how to take it out. The edits work on the context the replayed
 * step actually sees (a copy of it), by path, so they apply to the live context of every rollout.
 */
export interface ContextPartHandle {
  readonly path: ContextPath
  readonly kind: ContextPartKind
  /**
   * How messages name the part: `key "ticket"`, `system prompt`, `message 3 (user)`,
   * `message 6 (tool result, get_hotel_reviews)` (the number is the message's place in the list).
   */
  readonly label: string
  /** The part's text as the step saw it: its text leaves joined by a newline, or its value as JSON. */
  readonly text: string
  /**
   * The string leaves whose contents, joined by {@link LEAF_SEPARATOR}, make `text`. Empty when the
   * part has no text of its own (an image, a JSON value without strings): it can be ablated, not
   * refined.
   */
  readonly leaves: readonly TextLeaf[]
  /** The context without the part (see {@link contextParts} for what that means per context type). */
  remove(context: Json): Json
  /** The context with the part's text replaced by `placeholder`. */
  replace(context: Json, placeholder: string): Json
}

/** Joins a part's text leaves into its text: span offsets count it as one character. */
export const LEAF_SEPARATOR = '\n'

/**
 * One string of a part's text. `path` leads to a string in the context. When that string is itself
 * JSON text (a tool output the framework serialized, `{"reviews":"…"}`), `inJson` leads to the
 * string leaf inside the parsed value, and an edit parses the string, edits the leaf and writes the
 * value back in the same layout (compact, or indented by `jsonIndent`).
 */
export interface TextLeaf {
  readonly path: ContextPath
  readonly inJson?: ContextPath
  readonly jsonIndent?: number
  /** Where the leaf sits inside a tool's JSON output, as a reader writes it (`reviews`, `items[1].text`); `''` for plain text. */
  readonly field: string
}

/** The string a leaf reads in `root`, or undefined when it is not there. */
export function leafText(root: Json, leaf: TextLeaf): string | undefined {
  const value = valueAt(root, leaf.path)
  if (typeof value !== 'string') return undefined
  if (leaf.inJson === undefined) return value
  const inner = valueAt(parseJsonText(value)?.value ?? null, leaf.inJson)
  return typeof inner === 'string' ? inner : undefined
}

/** Writes `text` into the leaf in `root`, in place. */
export function setLeafText(root: Json, leaf: TextLeaf, text: string): void {
  if (leaf.inJson === undefined) {
    setAt(root, leaf.path, text)
    return
  }
  const parsed = parseJsonText(valueAt(root, leaf.path) as string)
  if (parsed === undefined) throw missingPath(leaf.path)
  setAt(parsed.value, leaf.inJson, text)
  setAt(root, leaf.path, JSON.stringify(parsed.value, null, parsed.indent === 0 ? undefined : parsed.indent))
}

/**
 * Writes `text` over the tool output at `path` in `root`, in place, keeping its structure, so that
 * the SDK still accepts it and agent code that parses it still can: plain text becomes `text`; JSON
 * (a value, or JSON text written by `JSON.stringify`, rewritten in its layout) keeps every key,
 * number and boolean and has each string leaf set to `text`; JSON without a string becomes an empty
 * object or array (a scalar: null), the only way to take out what it says. Never a structured
 * value replaced by a string: `JSON.parse("")` throws in every replay, and the arm would measure
 * the agent's crash instead of the text.
 */
export function blankOutput(root: Json, path: ContextPath, text: string): void {
  const value = valueAt(root, path)
  if (value === undefined) throw missingPath(path)
  if (typeof value !== 'string') {
    setAt(root, path, blankJson(value, text))
    return
  }
  const parsed = parseJsonText(value)
  if (parsed === undefined) {
    setAt(root, path, text)
    return
  }
  const indent = parsed.indent === 0 ? undefined : parsed.indent
  setAt(root, path, JSON.stringify(blankJson(parsed.value, text), null, indent))
}

/** `value` with each string leaf set to `text`; without one, an empty container of its kind (null for a scalar). */
function blankJson(value: Json, text: string): Json {
  if (typeof value === 'string') return text
  const leaves = stringLeaves(value, [])
  if (leaves.length === 0) return Array.isArray(value) ? [] : isObject(value) ? {} : null
  const copy = structuredClone(value)
  for (const at of leaves) setAt(copy, at, text)
  return copy
}

/**
 * A string that is a JSON object or array written by `JSON.stringify` (compact, or indented by 2 or
 * 4): its value and layout. Undefined for any other string, so that editing a leaf and writing the
 * value back gives the same text but for the leaf.
 */
function parseJsonText(text: string): { value: Json; indent: number } | undefined {
  const first = text.trimStart()[0]
  if (first !== '{' && first !== '[') return undefined
  let value: Json
  try {
    value = JSON.parse(text) as Json
  } catch {
    return undefined
  }
  if (value === null || typeof value !== 'object') return undefined
  for (const indent of [0, 2, 4]) {
    if (JSON.stringify(value, null, indent === 0 ? undefined : indent) === text) return { value, indent }
  }
  return undefined
}

/** A leaf that is the string at `path` itself. */
export function plainLeaf(path: ContextPath): TextLeaf {
  return { path, field: '' }
}

/**
 * The leaves of a tool output at `path` whose value is `value`: a string is one leaf, or, when it
 * is JSON text, the string leaves inside it; an object or array gives its string leaves. Empty when
 * there is no string in it.
 */
export function outputLeaves(path: ContextPath, value: Json | undefined): TextLeaf[] {
  if (typeof value === 'string') {
    const parsed = parseJsonText(value)
    if (parsed === undefined) return [plainLeaf(path)]
    const inner = stringLeaves(parsed.value, [])
    // A JSON text without strings inside is still text the model reads: one leaf.
    if (inner.length === 0) return [plainLeaf(path)]
    return inner.map((at) => ({ path, inJson: at, jsonIndent: parsed.indent, field: fieldName(at) }))
  }
  if (value === undefined || value === null || typeof value !== 'object') return []
  return stringLeaves(value, []).map((at) => ({ path: [...path, ...at], field: fieldName(at) }))
}

/** Paths of the non-empty string leaves of `value`, in document order (an empty string has no text to take out). */
function stringLeaves(value: Json, at: ContextPath): ContextPath[] {
  if (typeof value === 'string') return value === '' ? [] : [at]
  if (Array.isArray(value)) return value.flatMap((item, i) => stringLeaves(item, [...at, i]))
  if (value !== null && typeof value === 'object') {
    return Object.keys(value).flatMap((key) => stringLeaves(value[key] as Json, [...at, key]))
  }
  return []
}

/** A path inside a JSON value as a reader writes it: `reviews`, `items[1].text`, `[0]`. */
export function fieldName(path: readonly (string | number)[]): string {
  return path
    .map((segment, i) =>
      typeof segment === 'number'
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? `${i === 0 ? '' : '.'}${segment}`
          : `[${JSON.stringify(segment)}]`,
    )
    .join('')
}

/** A message part that is removed by dropping it from its list and replaced by `placeholder` through `setPlaceholder`. */
export function messagePart(
  path: ContextPath,
  kind: ContextPartKind,
  label: string,
  leaves: TextLeaf[],
  message: JsonObject,
  setPlaceholder: (target: JsonObject, placeholder: string) => void,
): ContextPartHandle {
  return {
    path,
    kind,
    label,
    text: textOf(message, leaves, path) ?? JSON.stringify(message.content ?? message),
    leaves,
    remove: (context) => deleteAt(context, path),
    replace: (context, placeholder) => editAt(context, path, (target) => setPlaceholder(target, placeholder)),
  }
}

/** A part that is one JSON value: deleted to remove, set to the placeholder to replace. */
export function valuePart(
  path: ContextPath,
  kind: ContextPartKind,
  label: string,
  value: Json,
): ContextPartHandle {
  return {
    path,
    kind,
    label,
    text: typeof value === 'string' ? value : JSON.stringify(value),
    leaves: typeof value === 'string' ? [plainLeaf(path)] : [],
    remove: (context) => deleteAt(context, path),
    replace: (context, placeholder) => setIn(context, path, placeholder),
  }
}

/** The text leaves of a value joined, read relative to the value at `base`; undefined without leaves. */
export function textOf(value: Json, leaves: readonly TextLeaf[], base: ContextPath): string | undefined {
  if (leaves.length === 0) return undefined
  return leaves
    .map((leaf) => leafText(value, { ...leaf, path: leaf.path.slice(base.length) }) ?? '')
    .join(LEAF_SEPARATOR)
}

/**
 * A tool result's label, "message 6 (tool result, get_hotel_reviews)": numbered by its place in
 * the message list like every message, so two results of one tool are told apart by it.
 */
export function toolResultLabel(index: number, names: readonly string[]): string {
  return `message ${index + 1} (tool result${names.length === 1 ? '' : 's'}, ${names.join(', ')})`
}

/**
 * A system message's label: the first system message of the list is "system prompt"; a later one
 * (a policy memo added mid-conversation) is "message 5 (system)", numbered by its place, so the
 * label points at the message the step read.
 */
export function systemLabel(index: number, first: boolean): string {
  return first ? 'system prompt' : `message ${index + 1} (system)`
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The value at `path`, or undefined when the path leads nowhere. */
export function valueAt(value: Json, path: readonly (string | number)[]): Json | undefined {
  let current: Json | undefined = value
  for (const segment of path) {
    if (typeof segment === 'number' ? !Array.isArray(current) : !isObject(current)) return undefined
    current = (current as Record<string | number, Json>)[segment]
  }
  return current
}

/** A copy of `context` with `edit` applied to the object at `path`. */
export function editAt(context: Json, path: ContextPath, edit: (target: JsonObject) => void): Json {
  const copy = structuredClone(context)
  const target = valueAt(copy, path)
  if (!isObject(target)) throw missingPath(path)
  edit(target)
  return copy
}

/** A copy of `context` with the value at `path` set to `value`. */
export function setIn(context: Json, path: ContextPath, value: Json): Json {
  const copy = structuredClone(context)
  setAt(copy, path, value)
  return copy
}

export function setAt(root: Json, path: ContextPath, value: Json): void {
  const parent = valueAt(root, path.slice(0, -1))
  const last = path[path.length - 1]
  if (last === undefined || parent === undefined || parent === null || typeof parent !== 'object')
    throw missingPath(path)
  ;(parent as Record<string | number, Json>)[last] = value
}

/** A copy of `context` without the value at `path` (an array element is spliced out). */
export function deleteAt(context: Json, path: ContextPath): Json {
  const copy = structuredClone(context)
  const parent = valueAt(copy, path.slice(0, -1))
  const last = path[path.length - 1]
  if (Array.isArray(parent) && typeof last === 'number' && last < parent.length) parent.splice(last, 1)
  else if (isObject(parent) && typeof last === 'string' && Object.hasOwn(parent, last)) delete parent[last]
  else throw missingPath(path)
  return copy
}

// Thrown inside a replayed step: the rollout ends in an error outcome, counted and never scored.
function missingPath(path: ContextPath): Error {
  return new Error(`contextAttribution: the replayed context has no part at ${JSON.stringify(path)}.`)
}
