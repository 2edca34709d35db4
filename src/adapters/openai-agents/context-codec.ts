import type { Json, JsonObject } from '../../json.js'
import {
  blankOutput,
  editAt,
  isObject,
  messagePart,
  outputLeaves,
  plainLeaf,
  setIn,
  textOf,
  toolResultLabel,
  valuePart,
  type ContextCodec,
  type ContextPartHandle,
  type TextLeaf,
} from '../../attribute/context/context-codec.js'
import type { ContextPath } from '../../attribute/context-schema.js'

const AGENTS_CALLS = new Set(['response', 'stream'])

/**
 * The parts of an Agents SDK model context (`{ call, systemInstructions, input }`, written by
 * `requestContext`): the system instructions, then the input (a string is one user message; items:
 * each message and each tool result). A removed tool result keeps its place and shape: its text
 * becomes `''`, JSON text keeps its keys with each string emptied; a string input becomes `''` (the
 * request needs an input). A system or developer item of the input is labelled by its place and
 * role, `message 3 (system)`: the system prompt is the instructions.
 */
export const openAiAgentsContextCodec: ContextCodec = (context) =>
  typeof context.call === 'string' &&
  AGENTS_CALLS.has(context.call) &&
  (typeof context.input === 'string' || Array.isArray(context.input))
    ? agentsParts(context)
    : undefined

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
      // Text, or JSON text, keeps its shape (see `blankOutput`); an image or file output becomes `''`.
      const setOutput = (value: string) => (target: JsonObject) => {
        if (typeof target.output === 'string') blankOutput(target, ['output'], value)
        else if (isObject(target.output) && typeof target.output.text === 'string') {
          blankOutput(target, ['output', 'text'], value)
        } else target.output = value
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
