import type { Json, JsonObject } from '../../json.js'
import { decodeJson, encodeJson } from '../shared/json-codec.js'
import { asObject, recordedModelCall } from '../shared/model-call.js'
import type { TokenCounts } from '../shared/pricing.js'
import type { GenerateResult, StreamPart, StreamResult } from './types.js'
import type { ModelCall } from './call-context.js'

/** What usually changed when a held model step was recorded as the other kind of call. */
const MODE_HINT = 'generateText vs streamText?'

/**
 * The action of a model step, as recorded:
 * - `{ call: 'generate', modelId, result }`: the `doGenerate` result (content with its tool calls,
 *   finish reason, usage, provider metadata, response id/timestamp/model id/headers, warnings);
 * - `{ call: 'stream', modelId, parts, response? }`: every part of the `doStream` stream, in order.
 *
 * `modelId` is the model that answered (after `swapModel`, the swapped-in one): it picks the price.
 * Request and response *bodies* are not recorded: they repeat the prompt and the result in the
 * provider's wire format, and would double a recording's size.
 */
export function generateAction(modelId: string, result: GenerateResult): Json {
  const { request: _request, response, ...rest } = result
  const recorded: Record<string, unknown> = { ...rest }
  if (response !== undefined) {
    const { body: _body, ...metadata } = response
    recorded.response = metadata
  }
  return { call: 'generate', modelId, result: encodeJson(recorded, `The result of model "${modelId}"`) }
}

/** The action of a streamed call: see {@link generateAction}. */
export function streamAction(
  modelId: string,
  parts: readonly StreamPart[],
  response: StreamResult['response'],
): Json {
  const action: JsonObject = {
    call: 'stream',
    modelId,
    parts: encodeJson(parts, `The stream of model "${modelId}"`),
  }
  if (response !== undefined) action.response = encodeJson(response, `The response of model "${modelId}"`)
  return action
}

/** The `doGenerate` result a generate action stands for, revived (dates, bytes, …). */
export function toGenerateResult(action: Json, stepName: string): GenerateResult {
  const recorded = recordedModelCall<ModelCall>(action, 'generate', stepName, MODE_HINT)
  return decodeJson(recorded.result ?? null) as GenerateResult
}

/** The `doStream` result a stream action stands for: a fresh stream of the recorded parts. */
export function toStreamResult(action: Json, stepName: string): StreamResult {
  const recorded = recordedModelCall<ModelCall>(action, 'stream', stepName, MODE_HINT)
  const parts = decodeJson(recorded.parts ?? []) as StreamPart[]
  const stream = new ReadableStream<StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part)
      controller.close()
    },
  })
  if (recorded.response === undefined) return { stream }
  return { stream, response: decodeJson(recorded.response) as NonNullable<StreamResult['response']> }
}

/** The model id an action records (the model that answered). */
export function answeringModel(action: Json): string {
  const modelId = asObject(action)?.modelId
  return typeof modelId === 'string' ? modelId : 'unknown'
}

/** Token counts of a model step: the result's usage, or the usage of the stream's `finish` part. */
export function tokenCounts(action: Json): TokenCounts {
  const usage = asObject(usageOf(action))
  const input = asObject(usage?.inputTokens)
  const output = asObject(usage?.outputTokens)
  return {
    inputTokens: numberOrUndefined(input?.total),
    cachedInputTokens: numberOrUndefined(input?.cacheRead),
    outputTokens: numberOrUndefined(output?.total),
  }
}

/**
 * What a model step records in `meta`: a one-line `summary` of what the model did (its tool calls
 * as `name(input)`, its text quoted), the call, the answering model, the finish reason, token usage.
 */
export function actionMeta(action: Json): JsonObject {
  const object = asObject(action)
  const meta: JsonObject = {}
  const summary = summaryOf(object)
  if (summary !== '') meta.summary = summary
  if (typeof object?.call === 'string') meta.call = object.call
  meta.modelId = answeringModel(action)
  const finish = asObject(finishOf(action))
  if (typeof finish?.unified === 'string') meta.finishReason = finish.unified
  const tokens = tokenCounts(action)
  if (tokens.inputTokens !== undefined) meta.inputTokens = tokens.inputTokens
  if (tokens.cachedInputTokens !== undefined) meta.cachedInputTokens = tokens.cachedInputTokens
  if (tokens.outputTokens !== undefined) meta.outputTokens = tokens.outputTokens
  return meta
}

/** The tool calls and text of a result (or of a stream's parts), in order, as one line. */
function summaryOf(object: JsonObject | undefined): string {
  const list = object?.call === 'generate' ? asObject(object.result)?.content : object?.parts
  if (!Array.isArray(list)) return ''
  // A text is whole in a result; in a stream its deltas, by text id, build it.
  const items: Array<{ call: string } | { text: string }> = []
  const texts = new Map<string, { text: string }>()
  for (const entry of list) {
    const part = asObject(entry)
    if (part?.type === 'tool-call') items.push({ call: `${String(part.toolName)}(${String(part.input)})` })
    else if (part?.type === 'text' && typeof part.text === 'string') items.push({ text: part.text })
    else if (part?.type === 'text-delta' && typeof part.delta === 'string') {
      const text = texts.get(String(part.id))
      if (text !== undefined) text.text += part.delta
      else {
        const started = { text: part.delta }
        texts.set(String(part.id), started)
        items.push(started)
      }
    }
  }
  return items.map((item) => ('call' in item ? item.call : JSON.stringify(item.text))).join(', ')
}

function usageOf(action: Json): Json | undefined {
  const object = asObject(action)
  if (object?.call === 'generate') return asObject(object.result)?.usage
  return finishPart(object)?.usage
}

function finishOf(action: Json): Json | undefined {
  const object = asObject(action)
  if (object?.call === 'generate') return asObject(object.result)?.finishReason
  return finishPart(object)?.finishReason
}

function finishPart(object: JsonObject | undefined): JsonObject | undefined {
  const parts = object?.parts
  if (!Array.isArray(parts)) return undefined
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = asObject(parts[i])
    if (part?.type === 'finish') return part
  }
  return undefined
}

function numberOrUndefined(json: Json | undefined): number | undefined {
  return typeof json === 'number' ? json : undefined
}
