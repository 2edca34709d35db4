import { InvalidOptionError } from '../../errors.js'
import type { Json, JsonObject } from '../../json.js'
import { describeReceived } from '../../options/received.js'
import type { CustomContextPart } from './context-options.js'
import type { ContextPartKind, ContextPath, TextSpan } from '../context-schema.js'

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

const AI_SDK_CALLS = new Set(['generate', 'stream'])
const AGENTS_CALLS = new Set(['response', 'stream'])

/**
 * The parts of a context, in order:
 * - an AI SDK model context (`{ call, prompt }`): each prompt message, the system prompt included;
 * - an Agents SDK model context (`{ call, systemInstructions, input }`): the system instructions,
 *   then the input (a string is one user message; items: each message and each tool result);
 * - a LangChain model context (`{ call, messages }`): each stored message;
 * - any other object: its top-level keys.
 * Call options, tool definitions and `call` are not parts. An assistant message that only carries
 * tool calls is not a part either: the calls are the structure their results hang on (a provider
 * rejects a tool result without its call), so only their results, and assistant text, are parts.
 *
 * What removing a part does: a key is deleted, a message is dropped, but a tool result keeps its
 * place with an empty output (AI SDK: `{ type: 'text', value: '' }`; Agents SDK: `output: ''`;
 * LangChain: `content: ''`), because every provider rejects an assistant tool call with no tool
 * message after it: the step sees the call answered with nothing. An assistant message with tool
 * calls loses its text and keeps its calls, for the same reason. The Agents SDK's string input
 * becomes `''` (the request needs an input).
 *
 * Returns undefined for a context that is neither an object nor one of these (a string, an array):
 * the caller then needs the user's own `parts`.
 */
export function contextParts(context: Json): ContextPartHandle[] | undefined {
  if (!isObject(context)) return undefined
  if (typeof context.call === 'string' && AI_SDK_CALLS.has(context.call) && Array.isArray(context.prompt)) {
    return aiSdkParts(context.prompt)
  }
  if (
    typeof context.call === 'string' &&
    AI_SDK_CALLS.has(context.call) &&
    isStoredMessages(context.messages)
  ) {
    return langchainParts(context.messages)
  }
  if (
    typeof context.call === 'string' &&
    AGENTS_CALLS.has(context.call) &&
    (typeof context.input === 'string' || Array.isArray(context.input))
  ) {
    return agentsParts(context)
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

/** The string a leaf reads in `root`, or undefined when it is not there. */
function leafText(root: Json, leaf: TextLeaf): string | undefined {
  const value = valueAt(root, leaf.path)
  if (typeof value !== 'string') return undefined
  if (leaf.inJson === undefined) return value
  const inner = valueAt(parseJsonText(value)?.value ?? null, leaf.inJson)
  return typeof inner === 'string' ? inner : undefined
}

/** Writes `text` into the leaf in `root`, in place. */
function setLeafText(root: Json, leaf: TextLeaf, text: string): void {
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
function plainLeaf(path: ContextPath): TextLeaf {
  return { path, field: '' }
}

/**
 * The leaves of a tool output at `path` whose value is `value`: a string is one leaf, or, when it
 * is JSON text, the string leaves inside it; an object or array gives its string leaves. Empty when
 * there is no string in it.
 */
function outputLeaves(path: ContextPath, value: Json | undefined): TextLeaf[] {
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

/** Paths of the non-empty string leaves of `value`, in document order. */
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

function aiSdkParts(prompt: Json[]): ContextPartHandle[] {
  const parts: ContextPartHandle[] = []
  prompt.forEach((message, i) => {
    if (!isObject(message)) return
    const path: ContextPath = ['prompt', i]
    const role = String(message.role)
    const content = message.content
    if (role === 'system') {
      parts.push(
        messagePart(
          path,
          'system',
          'system prompt',
          [plainLeaf([...path, 'content'])],
          message,
          (target, placeholder) => {
            target.content = placeholder
          },
        ),
      )
      return
    }
    const items = Array.isArray(content) ? content : []
    if (role === 'tool') {
      const results = items.flatMap((item, j) => (isObject(item) && item.type === 'tool-result' ? [j] : []))
      const names = results.map((j) => String((items[j] as JsonObject).toolName))
      // A text output's string, or a JSON output's string leaves (the usual shape of a tool that
      // returns an object); a denial or a content list has no text of its own.
      const leaves = results.flatMap((j) => {
        const output = (items[j] as JsonObject).output
        if (!isObject(output) || !/(text|json)$/.test(String(output.type))) return []
        return outputLeaves([...path, 'content', j, 'output', 'value'], output.value)
      })
      const setOutputs = (value: string) => (target: JsonObject) => {
        for (const j of results) {
          const item = (target.content as Json[])[j] as JsonObject
          item.output = { type: 'text', value }
        }
      }
      parts.push({
        path,
        kind: 'tool-result',
        label: toolResultLabel(i, names),
        text:
          textOf(message, leaves, path) ??
          results.map((j) => outputText((items[j] as JsonObject).output)).join(LEAF_SEPARATOR),
        leaves,
        remove: (context) => editAt(context, path, setOutputs('')),
        replace: (context, placeholder) => editAt(context, path, setOutputs(placeholder)),
      })
      return
    }
    const textIndices =
      typeof content === 'string'
        ? []
        : items.flatMap((item, j) => (isObject(item) && item.type === 'text' ? [j] : []))
    const leaves: TextLeaf[] = (
      typeof content === 'string'
        ? [[...path, 'content']]
        : textIndices.map((j): ContextPath => [...path, 'content', j, 'text'])
    ).map(plainLeaf)
    const hasToolCalls = items.some((item) => isObject(item) && item.type === 'tool-call')
    const label = `message ${i + 1} (${role})`
    if (!hasToolCalls) {
      parts.push(
        messagePart(path, 'message', label, leaves, message, (target, placeholder) => {
          target.content = typeof content === 'string' ? placeholder : [{ type: 'text', text: placeholder }]
        }),
      )
      return
    }
    if (textIndices.length === 0) return
    // Keeps the tool calls: their results follow, and a result without its call is rejected.
    const keepCalls = (placeholder: string | undefined) => (target: JsonObject) => {
      const kept = (target.content as Json[]).filter(
        (item) => !(isObject(item) && (item.type === 'text' || item.type === 'reasoning')),
      )
      target.content = placeholder === undefined ? kept : [{ type: 'text', text: placeholder }, ...kept]
    }
    parts.push({
      path,
      kind: 'message',
      label,
      text: textOf(message, leaves, path) ?? '',
      leaves,
      remove: (context) => editAt(context, path, keepCalls(undefined)),
      replace: (context, placeholder) => editAt(context, path, keepCalls(placeholder)),
    })
  })
  return parts
}

function langchainParts(messages: JsonObject[]): ContextPartHandle[] {
  const parts: ContextPartHandle[] = []
  messages.forEach((message, i) => {
    const path: ContextPath = ['messages', i]
    const data = message.data as JsonObject
    const type = String(message.type)
    const content = data.content
    const leaves: TextLeaf[] = (
      typeof content === 'string'
        ? [[...path, 'data', 'content']]
        : Array.isArray(content)
          ? content.flatMap((block, j): ContextPath[] =>
              isObject(block) && block.type === 'text' && typeof block.text === 'string'
                ? [[...path, 'data', 'content', j, 'text']]
                : [],
            )
          : []
    ).map(plainLeaf)
    const setText = (value: string) => (target: JsonObject) => {
      ;(target.data as JsonObject).content = value
    }
    if (type === 'system') {
      parts.push(
        messagePart(path, 'system', 'system prompt', leaves, message, (target, placeholder) =>
          setText(placeholder)(target),
        ),
      )
      return
    }
    if (type === 'tool') {
      // A tool that returns an object reaches the model as its JSON text: its string leaves are the text.
      const toolLeaves =
        typeof content === 'string' ? outputLeaves([...path, 'data', 'content'], content) : leaves
      parts.push({
        path,
        kind: 'tool-result',
        label: toolResultLabel(i, [String(data.name ?? 'tool')]),
        text: textOf(message, toolLeaves, path) ?? JSON.stringify(content),
        leaves: toolLeaves,
        remove: (context) => editAt(context, path, setText('')),
        replace: (context, placeholder) => editAt(context, path, setText(placeholder)),
      })
      return
    }
    const role = type === 'human' ? 'user' : type === 'ai' ? 'assistant' : type
    const label = `message ${i + 1} (${role})`
    const hasToolCalls = Array.isArray(data.tool_calls) && data.tool_calls.length > 0
    if (!hasToolCalls) {
      parts.push(
        messagePart(path, 'message', label, leaves, message, (target, placeholder) =>
          setText(placeholder)(target),
        ),
      )
      return
    }
    const text = textOf(message, leaves, path) ?? ''
    if (text === '') return
    // An AI message with tool calls keeps them (its tool messages follow); only its text goes.
    parts.push({
      path,
      kind: 'message',
      label,
      text,
      leaves,
      remove: (context) => editAt(context, path, setText('')),
      replace: (context, placeholder) => editAt(context, path, setText(placeholder)),
    })
  })
  return parts
}

function agentsParts(context: JsonObject): ContextPartHandle[] {
  const parts: ContextPartHandle[] = []
  if (typeof context.systemInstructions === 'string') {
    parts.push(valuePart(['systemInstructions'], 'system', 'system prompt', context.systemInstructions))
  }
  const input = context.input
  if (typeof input === 'string') {
    const path: ContextPath = ['input']
    parts.push({
      path,
      kind: 'message',
      label: 'message 1 (user)',
      text: input,
      leaves: [plainLeaf(path)],
      // The request needs an input: the message is emptied rather than deleted.
      remove: (target) => setIn(target, path, ''),
      replace: (target, placeholder) => setIn(target, path, placeholder),
    })
    return parts
  }
  ;(input as Json[]).forEach((item, i) => {
    if (!isObject(item)) return
    const path: ContextPath = ['input', i]
    if (item.type === 'function_call_result') {
      const output = item.output
      const leaves: TextLeaf[] =
        typeof output === 'string'
          ? outputLeaves([...path, 'output'], output)
          : isObject(output) && typeof output.text === 'string'
            ? outputLeaves([...path, 'output', 'text'], output.text)
            : []
      const setOutput = (value: string) => (target: JsonObject) => {
        target.output = value
      }
      parts.push({
        path,
        kind: 'tool-result',
        label: toolResultLabel(i, [String(item.name ?? 'tool')]),
        text: textOf(item, leaves, path) ?? JSON.stringify(output),
        leaves,
        remove: (target) => editAt(target, path, setOutput('')),
        replace: (target, placeholder) => editAt(target, path, setOutput(placeholder)),
      })
      return
    }
    if (typeof item.role !== 'string') return
    const content = item.content
    const leaves: TextLeaf[] = (
      typeof content === 'string'
        ? [[...path, 'content']]
        : Array.isArray(content)
          ? content.flatMap((block, j): ContextPath[] =>
              isObject(block) && typeof block.text === 'string' ? [[...path, 'content', j, 'text']] : [],
            )
          : []
    ).map(plainLeaf)
    const kind = item.role === 'system' || item.role === 'developer' ? 'system' : 'message'
    parts.push(
      messagePart(path, kind, `message ${i + 1} (${item.role})`, leaves, item, (target, placeholder) => {
        target.content =
          typeof content === 'string'
            ? placeholder
            : [{ type: item.role === 'assistant' ? 'output_text' : 'input_text', text: placeholder }]
      }),
    )
  })
  return parts
}

/** A message part that is removed by dropping it from its list and replaced by `placeholder` through `setPlaceholder`. */
function messagePart(
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
function valuePart(path: ContextPath, kind: ContextPartKind, label: string, value: Json): ContextPartHandle {
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

/** An AI SDK tool output as the model reads it: a JSON output's value as JSON, a denial's reason. */
function outputText(output: Json | undefined): string {
  if (!isObject(output)) return JSON.stringify(output ?? null)
  if (typeof output.value === 'string') return output.value
  if ('value' in output) return JSON.stringify(output.value)
  return typeof output.reason === 'string' ? output.reason : JSON.stringify(output)
}

/** The text leaves of a value joined, read relative to the value at `base`; undefined without leaves. */
function textOf(value: Json, leaves: readonly TextLeaf[], base: ContextPath): string | undefined {
  if (leaves.length === 0) return undefined
  return leaves
    .map((leaf) => leafText(value, { ...leaf, path: leaf.path.slice(base.length) }) ?? '')
    .join(LEAF_SEPARATOR)
}

/**
 * A tool result's label, "message 6 (tool result, get_hotel_reviews)": numbered by its place in
 * the message list like every message, so two results of one tool are told apart by it.
 */
function toolResultLabel(index: number, names: readonly string[]): string {
  return `message ${index + 1} (tool result${names.length === 1 ? '' : 's'}, ${names.join(', ')})`
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isStoredMessages(value: Json | undefined): value is JsonObject[] {
  return (
    Array.isArray(value) &&
    value.every((message) => isObject(message) && typeof message.type === 'string' && isObject(message.data))
  )
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
function editAt(context: Json, path: ContextPath, edit: (target: JsonObject) => void): Json {
  const copy = structuredClone(context)
  const target = valueAt(copy, path)
  if (!isObject(target)) throw missingPath(path)
  edit(target)
  return copy
}

/** A copy of `context` with the value at `path` set to `value`. */
function setIn(context: Json, path: ContextPath, value: Json): Json {
  const copy = structuredClone(context)
  setAt(copy, path, value)
  return copy
}

function setAt(root: Json, path: ContextPath, value: Json): void {
  const parent = valueAt(root, path.slice(0, -1))
  const last = path[path.length - 1]
  if (last === undefined || parent === undefined || parent === null || typeof parent !== 'object')
    throw missingPath(path)
  ;(parent as Record<string | number, Json>)[last] = value
}

/** A copy of `context` without the value at `path` (an array element is spliced out). */
function deleteAt(context: Json, path: ContextPath): Json {
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

function missing(part: ContextPartHandle, path: ContextPath): Error {
  return new Error(
    `contextAttribution: ${part.label} has no text at ${JSON.stringify(path)} in the replayed context.`,
  )
}
