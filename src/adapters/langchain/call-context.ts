import type { StepView } from '../../agent/types.js'
import { InvalidOptionError } from '../../errors.js'
import type { Json } from '../../json.js'
import { describeReceived } from '../../options/received.js'
import { encodeJson } from '../shared/json-codec.js'
import { readModelContext } from '../shared/model-call.js'
import { langchain } from './sdk.js'
import type { BaseMessage, CallOptions } from './types.js'

/** Which model method a step answers: `_generate` (invoke) or `_streamResponseChunks` (stream). */
export type ModelCall = 'generate' | 'stream'

/**
 * Call options that change how a call travels or is traced, not what the model answers: they stay
 * out of the context (and its digest) and are passed on from the live call. The `seed` is the
 * step's own; `ls_structured_output_format` is a tracing copy of a schema the tools already carry.
 * LangGraph hands its runtime (stream writer, interrupt, store, checkpoint and task ids) to every
 * runnable of a node, the model included: functions and ids that differ on every run.
 */
const TRANSPORT_OPTIONS = new Set<string>([
  'signal',
  'timeout',
  'maxConcurrency',
  'promptIndex',
  'seed',
  'callbacks',
  'ls_structured_output_format',
  'writer',
  'interrupt',
  'heartbeat',
  'store',
  'context',
  'control',
  'executionInfo',
  'serverInfo',
])

/**
 * Message fields that do not reach the provider: LangGraph gives every message a random id, and
 * the metadata of earlier answers (usage, response ids) is bookkeeping. Left in, they would make
 * the same conversation a different context on every run, and a held step would seem to diverge.
 */
const UNSEEN_MESSAGE_FIELDS = ['id', 'response_metadata', 'usage_metadata', 'lc_kwargs']

/**
 * The context of a model step: `{ call, messages, …decision options }` as JSON. `messages` are
 * LangChain's stored messages (`{ type, data }`) without ids and response metadata; the options
 * are every call option that is not transport (tools bound by `bindTools`, `tool_choice`, `stop`,
 * a provider's sampling settings), tools written as OpenAI tool definitions when they are LangChain
 * tool objects. `editContext` edits this value; the model then sees the edit.
 */
export function callContext(call: ModelCall, messages: readonly BaseMessage[], options: CallOptions): Json {
  const context: Record<string, unknown> = { call, messages: messages.map(storedMessage) }
  for (const [key, value] of Object.entries(options)) {
    if (TRANSPORT_OPTIONS.has(key) || value === undefined) continue
    context[key] = key === 'tools' && Array.isArray(value) ? value.map(toolDefinition) : value
  }
  return encodeJson(context, 'The messages of a LangChain model call')
}

/** The options of the live call that are not context (the signal, a timeout, future transport fields). */
export function passedOnOptions(options: CallOptions): Partial<CallOptions> {
  return Object.fromEntries(
    Object.entries(options).filter(([key]) => TRANSPORT_OPTIONS.has(key) && key !== 'seed'),
  ) as Partial<CallOptions>
}

/** The call a step's (possibly edited) context describes; a context of another shape names the step. */
export function readCallContext(view: StepView): {
  call: ModelCall
  messages: BaseMessage[]
  options: Partial<CallOptions>
} {
  const { step, call, fields } = readModelContext<ModelCall>(
    view,
    'LangChain',
    ['generate', 'stream'],
    '{ call, messages, … }',
  )
  const { messages, ...options } = fields
  if (!Array.isArray(messages)) {
    throw new InvalidOptionError({
      caller: step,
      option: 'context.messages',
      expected: 'the stored messages of the call ({ type, data } objects)',
      received: describeReceived(messages),
    })
  }
  return {
    call,
    messages: messages.map((message: unknown, i) => revivedMessage(message, step, i)),
    options: options as Partial<CallOptions>,
  }
}

function storedMessage(message: BaseMessage): { type: string; data: Record<string, unknown> } {
  const { type, data } = message.toDict()
  const seen: Record<string, unknown> = { ...data }
  for (const field of UNSEEN_MESSAGE_FIELDS) delete seen[field]
  return { type, data: seen }
}

function revivedMessage(message: unknown, step: string, index: number): BaseMessage {
  try {
    return langchain.mapStoredMessageToChatMessage(
      message as Parameters<typeof langchain.mapStoredMessageToChatMessage>[0],
    )
  } catch (error) {
    throw new InvalidOptionError({
      caller: step,
      option: `context.messages[${index}]`,
      expected: 'a stored LangChain message { type, data }',
      received: describeReceived(message),
      ...(error instanceof Error ? { hint: error.message } : {}),
    })
  }
}

/** A bound tool as JSON: LangChain tool objects become OpenAI tool definitions, which chat models accept. */
function toolDefinition(tool: unknown): unknown {
  return langchain.isLangChainTool(tool) ? langchain.convertToOpenAITool(tool) : tool
}
