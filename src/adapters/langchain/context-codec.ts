import type { Json, JsonObject } from '../../json.js'
import {
  blankOutput,
  editAt,
  isObject,
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

const LANGCHAIN_CALLS = new Set(['generate', 'stream'])

/**
 * The parts of a LangChain model context (`{ call, messages }`, written by `callContext`): each
 * stored message. A removed tool message keeps its place: text content becomes `''`, JSON text
 * keeps its keys with each string emptied; an AI message with tool calls loses its text, not its
 * calls.
 */
export const langchainContextCodec: ContextCodec = (context) =>
  typeof context.call === 'string' && LANGCHAIN_CALLS.has(context.call) && isStoredMessages(context.messages)
    ? langchainParts(context.messages)
    : undefined

function langchainParts(messages: JsonObject[]): ContextPartHandle[] {
  const parts: ContextPartHandle[] = []
  const firstSystem = messages.findIndex((message) => message.type === 'system')
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
        messagePart(
          path,
          'system',
          systemLabel(i, i === firstSystem),
          leaves,
          message,
          (target, placeholder) => setText(placeholder)(target),
        ),
      )
      return
    }
    if (type === 'tool') {
      // A tool that returns an object reaches the model as its JSON text: its string leaves are the text.
      const toolLeaves =
        typeof content === 'string' ? outputLeaves([...path, 'data', 'content'], content) : leaves
      // JSON text keeps its keys (see `blankOutput`); a block list keeps its text blocks, emptied.
      const setOutput = (value: string) => (target: JsonObject) => {
        const data = target.data as JsonObject
        if (Array.isArray(data.content)) {
          data.content = data.content.flatMap((block) =>
            isObject(block) && block.type === 'text' ? [{ ...block, text: value }] : [],
          )
        } else blankOutput(target, ['data', 'content'], value)
      }
      parts.push({
        path,
        kind: 'tool-result',
        label: toolResultLabel(i, [String(data.name ?? 'tool')]),
        text: textOf(message, toolLeaves, path) ?? JSON.stringify(content),
        leaves: toolLeaves,
        remove: (context) => editAt(context, path, setOutput('')),
        replace: (context, placeholder) => editAt(context, path, setOutput(placeholder)),
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

function isStoredMessages(value: Json | undefined): value is JsonObject[] {
  return (
    Array.isArray(value) &&
    value.every((message) => isObject(message) && typeof message.type === 'string' && isObject(message.data))
  )
}
