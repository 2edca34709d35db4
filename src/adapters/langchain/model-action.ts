import type { AIMessageChunk, BaseMessage, UsageMetadata } from '@langchain/core/messages'
import type { Json, JsonObject } from '../../json.js'
import { decodeJson, encodeJson } from '../shared/json-codec.js'
import { asObject, recordedModelCall } from '../shared/model-call.js'
import type { TokenCounts } from '../shared/pricing.js'
import type { ModelCall } from './call-context.js'
import { langchain } from './sdk.js'
import type { ChatGeneration, ChatGenerationChunk, ChatResult } from './types.js'

/** What usually changed when a held model step was recorded as the other kind of call. */
const MODE_HINT =
  'invoke vs stream? A graph run with streamEvents or streamMode "messages" streams every model call'

/**
 * The action of a model step, as recorded:
 * - `{ call: 'generate', modelId, generations, llmOutput? }`: the `_generate` result, each
 *   generation's AI message with its tool calls, usage and response metadata;
 * - `{ call: 'stream', modelId, chunks }`: every chunk of `_streamResponseChunks`, in order.
 *
 * Messages are recorded as their fields (`content`, `tool_calls`, `usage_metadata`, …) and revived
 * as `AIMessage` / `AIMessageChunk`, so a held step hands the agent an equal message. `modelId` is
 * the model that answered (after `swapModel`, the swapped-in one): it picks the price.
 */
export function generateAction(modelId: string, result: ChatResult): Json {
  const where = `The result of LangChain model "${modelId}"`
  const action: JsonObject = {
    call: 'generate',
    modelId,
    generations: result.generations.map((generation) => generationRecord(generation, where)),
  }
  if (result.llmOutput !== undefined) action.llmOutput = encodeJson(result.llmOutput, where)
  return action
}

/** The action of a streamed call: see {@link generateAction}. */
export function streamAction(modelId: string, chunks: readonly ChatGenerationChunk[]): Json {
  const where = `The stream of LangChain model "${modelId}"`
  return {
    call: 'stream',
    modelId,
    chunks: chunks.map((chunk) => generationRecord(chunk, where)),
  }
}

/** One generation or stream chunk as JSON: its text, its message, and its generation info if any. */
function generationRecord(generation: ChatGeneration | ChatGenerationChunk, where: string): JsonObject {
  const recorded: JsonObject = {
    text: generation.text,
    message: encodeJson(messageRecord(generation.message), where),
  }
  if (generation.generationInfo !== undefined)
    recorded.generationInfo = encodeJson(generation.generationInfo, where)
  return recorded
}

/** The `_generate` result a generate action stands for, with fresh messages. */
export function toChatResult(action: Json, stepName: string): ChatResult {
  const recorded = recordedModelCall<ModelCall>(action, 'generate', stepName, MODE_HINT)
  const generations = Array.isArray(recorded.generations) ? recorded.generations : []
  const result: ChatResult = {
    generations: generations.map((entry) => {
      const generation = asObject(entry) ?? {}
      return {
        text: typeof generation.text === 'string' ? generation.text : '',
        message: revivedMessage(generation.message ?? null),
        ...(generation.generationInfo === undefined
          ? {}
          : { generationInfo: decodeJson(generation.generationInfo) as Record<string, unknown> }),
      }
    }),
  }
  if (recorded.llmOutput !== undefined)
    result.llmOutput = decodeJson(recorded.llmOutput) as Record<string, unknown>
  return result
}

/** The chunks a stream action stands for, fresh, in the recorded order. */
export function toChunks(action: Json, stepName: string): ChatGenerationChunk[] {
  const recorded = recordedModelCall<ModelCall>(action, 'stream', stepName, MODE_HINT)
  return (Array.isArray(recorded.chunks) ? recorded.chunks : []).map((entry) => {
    const chunk = asObject(entry) ?? {}
    return new langchain.ChatGenerationChunk({
      text: typeof chunk.text === 'string' ? chunk.text : '',
      message: revivedMessage(chunk.message ?? null) as AIMessageChunk,
      ...(chunk.generationInfo === undefined
        ? {}
        : { generationInfo: decodeJson(chunk.generationInfo) as Record<string, unknown> }),
    })
  })
}

/** The model id an action records (the model that answered). */
export function answeringModel(action: Json): string {
  const modelId = asObject(action)?.modelId
  return typeof modelId === 'string' ? modelId : 'unknown'
}

/** Token counts of a model step: the answer's `usage_metadata` (a stream's, summed over its chunks). */
export function tokenCounts(action: Json): TokenCounts {
  const usage = answerOf(action)?.usage_metadata as UsageMetadata | undefined
  return {
    inputTokens: usage?.input_tokens,
    cachedInputTokens: usage?.input_token_details?.cache_read,
    outputTokens: usage?.output_tokens,
  }
}

/**
 * What a model step records in `meta`: a one-line `summary` of what the model did (its text quoted,
 * its tool calls as `name(args)`), the call, the answering model, the finish reason, token usage.
 */
export function actionMeta(action: Json): JsonObject {
  const meta: JsonObject = {}
  const answer = answerOf(action)
  const summary = answer === undefined ? '' : summaryOf(answer)
  if (summary !== '') meta.summary = summary
  const call = asObject(action)?.call
  if (typeof call === 'string') meta.call = call
  meta.modelId = answeringModel(action)
  const finish = answer?.response_metadata.finish_reason ?? answer?.response_metadata.stop_reason
  if (typeof finish === 'string') meta.finishReason = finish
  const tokens = tokenCounts(action)
  if (tokens.inputTokens !== undefined) meta.inputTokens = tokens.inputTokens
  if (tokens.cachedInputTokens !== undefined) meta.cachedInputTokens = tokens.cachedInputTokens
  if (tokens.outputTokens !== undefined) meta.outputTokens = tokens.outputTokens
  return meta
}

/** The message's text, quoted, then its tool calls as `name({"arg":…})`, as one line. */
function summaryOf(answer: AIMessageChunk): string {
  const items: string[] = []
  const text = answer.text
  if (text !== '') items.push(JSON.stringify(text))
  for (const call of answer.tool_calls ?? []) items.push(`${call.name}(${JSON.stringify(call.args)})`)
  return items.join(', ')
}

/** The AI message a step answered: the first generation's, or the stream's chunks merged. */
function answerOf(action: Json): AIMessageChunk | undefined {
  const object = asObject(action)
  if (object?.call === 'generate') {
    const first = Array.isArray(object.generations) ? asObject(object.generations[0]) : undefined
    const message = first?.message === undefined ? undefined : revivedMessage(first.message)
    return message !== undefined && langchain.AIMessage.isInstance(message)
      ? (message as unknown as AIMessageChunk)
      : undefined
  }
  if (object?.call === 'stream') {
    const messages = toChunks(action, 'meta').map((chunk) => chunk.message)
    const [first, ...rest] = messages
    if (first === undefined || !langchain.AIMessageChunk.isInstance(first)) return undefined
    return rest.reduce<AIMessageChunk>(
      (merged, next) => (langchain.AIMessageChunk.isInstance(next) ? merged.concat(next) : merged),
      first,
    )
  }
  return undefined
}

/**
 * A message as plain fields. An AI message keeps what the agent reads from it: content, tool calls
 * (a chunk: its tool-call chunks, from which the tool calls are derived again), usage, metadata,
 * id and name. Any other message is recorded as LangChain stores it (`toDict`).
 */
function messageRecord(message: BaseMessage): Record<string, unknown> {
  if (!langchain.AIMessage.isInstance(message) && !langchain.AIMessageChunk.isInstance(message)) {
    return { kind: 'stored', stored: message.toDict() }
  }
  const ai = message as AIMessageChunk
  const isChunk = langchain.AIMessageChunk.isInstance(message)
  const fields: Record<string, unknown> = { content: ai.content }
  if (ai.id !== undefined) fields.id = ai.id
  if (ai.name !== undefined) fields.name = ai.name
  if (Object.keys(ai.additional_kwargs).length > 0) fields.additional_kwargs = ai.additional_kwargs
  if (Object.keys(ai.response_metadata).length > 0) fields.response_metadata = ai.response_metadata
  if (ai.usage_metadata !== undefined) fields.usage_metadata = ai.usage_metadata
  if (isChunk && (ai.tool_call_chunks ?? []).length > 0) {
    fields.tool_call_chunks = ai.tool_call_chunks
  } else {
    if ((ai.tool_calls ?? []).length > 0) fields.tool_calls = ai.tool_calls
    if ((ai.invalid_tool_calls ?? []).length > 0) fields.invalid_tool_calls = ai.invalid_tool_calls
  }
  return { kind: isChunk ? 'ai-chunk' : 'ai', fields }
}

function revivedMessage(json: Json): BaseMessage {
  const record = decodeJson(json) as {
    kind?: string
    fields?: ConstructorParameters<typeof langchain.AIMessageChunk>[0]
    stored?: Parameters<typeof langchain.mapStoredMessageToChatMessage>[0]
  } | null
  if (record?.kind === 'stored' && record.stored !== undefined)
    return langchain.mapStoredMessageToChatMessage(record.stored)
  const fields = record?.fields ?? { content: '' }
  return record?.kind === 'ai-chunk' ? new langchain.AIMessageChunk(fields) : new langchain.AIMessage(fields)
}
