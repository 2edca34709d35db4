import type { Json, JsonObject } from '../../json.js'
import {
  blankOutput,
  editAt,
  isObject,
  LEAF_SEPARATOR,
  messagePart,
  outputLeaves,
  plainLeaf,
  systemLabel,
  textOf,
  toolResultLabel,
  type ContextCodec,
  type ContextPartHandle,
  type TextLeaf,
} from '../../attribute/context/context-codec.js'
import type { ContextPath } from '../../attribute/context-schema.js'

const AI_SDK_CALLS = new Set(['generate', 'stream'])

/**
 * The parts of an AI SDK model context (`{ call, prompt }`, written by `callContext`): each prompt
 * message, the system prompt included. A removed tool result keeps its place and its output's type:
 * a text output becomes `''`, a JSON output (or JSON text) keeps its keys with each string emptied;
 * an assistant message with tool calls loses its text, not its calls.
 */
export const aiSdkContextCodec: ContextCodec = (context) =>
  typeof context.call === 'string' && AI_SDK_CALLS.has(context.call) && Array.isArray(context.prompt)
    ? aiSdkParts(context.prompt)
    : undefined

function aiSdkParts(prompt: Json[]): ContextPartHandle[] {
  const parts: ContextPartHandle[] = []
  const firstSystem = prompt.findIndex((message) => isObject(message) && message.role === 'system')
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
          systemLabel(i, i === firstSystem),
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
      // A text or JSON output keeps its type and structure (see `blankOutput`); a denial or a
      // content list becomes an empty text output.
      const setOutputs = (value: string) => (target: JsonObject) => {
        for (const j of results) {
          const item = (target.content as Json[])[j] as JsonObject
          if (isObject(item.output) && /(text|json)$/.test(String(item.output.type))) {
            blankOutput(target, ['content', j, 'output', 'value'], value)
          } else {
            item.output = { type: 'text', value }
          }
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

/** An AI SDK tool output as the model reads it: a JSON output's value as JSON, a denial's reason. */
function outputText(output: Json | undefined): string {
  if (!isObject(output)) return JSON.stringify(output ?? null)
  if (typeof output.value === 'string') return output.value
  if ('value' in output) return JSON.stringify(output.value)
  return typeof output.reason === 'string' ? output.reason : JSON.stringify(output)
}
