import type { Json, JsonObject } from '../json.js'

/** One message of a model call's prompt, as a context line shows it. */
export interface MessageLine {
  /** 1-based place in the message list: the number a context part's label carries. */
  number: number
  /** `system`, `user`, `assistant`, `tool result, get_hotel_reviews`. */
  role: string
  /** The message's text with whitespace folded, its tool calls as `name(args)`, a JSON output as JSON. */
  summary: string
}

/** The messages of a model call's context, and the tools it offered. */
export interface ModelMessages {
  messages: MessageLine[]
  tools: string[]
}

const MODEL_CALLS = new Set(['generate', 'stream', 'response'])

/**
 * The messages of a model call's recorded context (AI SDK `{ call, prompt }`, LangChain
 * `{ call, messages }`, Agents SDK `{ call, systemInstructions, input }`), numbered as the context
 * parts are; undefined for any other context. The system instructions of an Agents SDK call are
 * message 0: they are not in its input list, whose numbers the parts use.
 */
export function modelMessages(context: Json): ModelMessages | undefined {
  if (!isObject(context) || typeof context.call !== 'string' || !MODEL_CALLS.has(context.call)) {
    return undefined
  }
  const tools = toolNames(context.tools)
  if (Array.isArray(context.prompt)) return { messages: context.prompt.map(aiSdkMessage), tools }
  if (Array.isArray(context.messages) && context.messages.every(isStoredMessage)) {
    return { messages: context.messages.map(langchainMessage), tools }
  }
  if (typeof context.input === 'string' || Array.isArray(context.input)) {
    const messages: MessageLine[] = []
    if (typeof context.systemInstructions === 'string') {
      messages.push({ number: 0, role: 'system', summary: fold(context.systemInstructions) })
    }
    const input =
      typeof context.input === 'string' ? [{ role: 'user', content: context.input }] : context.input
    input.forEach((item, i) => messages.push(agentsItem(item, i)))
    return { messages, tools }
  }
  return undefined
}

function aiSdkMessage(message: Json, i: number): MessageLine {
  const number = i + 1
  if (!isObject(message)) return { number, role: 'message', summary: JSON.stringify(message) }
  const role = String(message.role)
  const content = message.content
  if (typeof content === 'string') return { number, role, summary: fold(content) }
  const items = Array.isArray(content) ? content.filter(isObject) : []
  if (role === 'tool') {
    const results = items.filter((item) => item.type === 'tool-result')
    const names = results.map((item) => String(item.toolName))
    return {
      number,
      role: `tool result${names.length === 1 ? '' : 's'}, ${names.join(', ')}`,
      summary: results.map((item) => outputSummary(item.output)).join(' | '),
    }
  }
  const pieces = items.map((item) => {
    if (item.type === 'text' || item.type === 'reasoning') return fold(String(item.text ?? ''))
    if (item.type === 'tool-call') return `${String(item.toolName)}(${argsText(item.input)})`
    return `[${String(item.type)}]`
  })
  return { number, role, summary: pieces.filter((piece) => piece !== '').join(' ') }
}

function langchainMessage(message: JsonObject, i: number): MessageLine {
  const number = i + 1
  const data = message.data as JsonObject
  const type = String(message.type)
  const text = contentText(data.content)
  if (type === 'tool') {
    return { number, role: `tool result, ${String(data.name ?? 'tool')}`, summary: text }
  }
  const role = type === 'human' ? 'user' : type === 'ai' ? 'assistant' : type
  const calls = Array.isArray(data.tool_calls)
    ? data.tool_calls.filter(isObject).map((call) => `${String(call.name)}(${argsText(call.args)})`)
    : []
  return { number, role, summary: [text, ...calls].filter((piece) => piece !== '').join(' ') }
}

function agentsItem(item: Json, i: number): MessageLine {
  const number = i + 1
  if (!isObject(item)) return { number, role: 'item', summary: JSON.stringify(item) }
  if (item.type === 'function_call_result') {
    const output = item.output
    const summary =
      typeof output === 'string'
        ? fold(output)
        : isObject(output) && typeof output.text === 'string'
          ? fold(output.text)
          : JSON.stringify(output ?? null)
    return { number, role: `tool result, ${String(item.name ?? 'tool')}`, summary }
  }
  if (item.type === 'function_call') {
    return { number, role: 'assistant', summary: `${String(item.name)}(${argsText(item.arguments)})` }
  }
  if (typeof item.role === 'string') return { number, role: item.role, summary: contentText(item.content) }
  return { number, role: String(item.type ?? 'item'), summary: JSON.stringify(item) }
}

/** A message's content as text: a string folded, text blocks joined, other blocks by their type. */
function contentText(content: Json | undefined): string {
  if (typeof content === 'string') return fold(content)
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content)
  return content
    .map((block) =>
      isObject(block) && typeof block.text === 'string'
        ? fold(block.text)
        : `[${isObject(block) ? String(block.type) : typeof block}]`,
    )
    .join(' ')
}

/** An AI SDK tool output as the model reads it: a text as text, a JSON value as compact JSON. */
function outputSummary(output: Json | undefined): string {
  if (!isObject(output)) return JSON.stringify(output ?? null)
  if (typeof output.value === 'string') return fold(output.value)
  if ('value' in output) return JSON.stringify(output.value ?? null)
  return typeof output.reason === 'string' ? fold(output.reason) : JSON.stringify(output)
}

/** Tool call arguments as compact JSON: a JSON string (the AI SDK's `input`) is shown as its value. */
function argsText(args: Json | undefined): string {
  if (typeof args === 'string') {
    try {
      return JSON.stringify(JSON.parse(args) as Json)
    } catch {
      return fold(args)
    }
  }
  return JSON.stringify(args ?? {})
}

/** The names of the tools a call offered: AI SDK `{ name }`, OpenAI-style `{ function: { name } }`. */
function toolNames(tools: Json | undefined): string[] {
  if (!Array.isArray(tools)) return []
  return tools.filter(isObject).flatMap((tool) => {
    const name = tool.name ?? (isObject(tool.function) ? tool.function.name : undefined)
    return typeof name === 'string' ? [name] : []
  })
}

function fold(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isStoredMessage(value: Json): value is JsonObject {
  return isObject(value) && typeof value.type === 'string' && isObject(value.data)
}
