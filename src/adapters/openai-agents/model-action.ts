import type { ModelResponse, StreamEvent, Usage } from '@openai/agents'
import type { Json, JsonObject } from '../../json.js'
import { decodeJson, encodeJson } from '../shared/json-codec.js'
import { asObject, recordedModelCall } from '../shared/model-call.js'
import type { TokenCounts } from '../shared/pricing.js'
import type { ModelCall } from './request-context.js'
import { SDK_CLASSES } from './sdk.js'

/** What usually changed when a held model step was recorded as the other kind of call. */
const MODE_HINT = 'run with or without stream: true?'

const CODEC = { classes: SDK_CLASSES }

/**
 * The action of a model step, as recorded:
 * - `{ call: 'response', modelId?, response }`: the `getResponse` result (output items with their
 *   tool calls, usage as a revivable `Usage`, response id, provider data);
 * - `{ call: 'stream', modelId?, events }`: every event of `getStreamedResponse`, in order.
 *
 * `modelId` is the id given to `wrapModel`/`swapModel` for the model that answered: it picks the price.
 */
export function responseAction(modelId: string | undefined, response: ModelResponse): Json {
  const action: JsonObject = { call: 'response' }
  if (modelId !== undefined) action.modelId = modelId
  action.response = encodeJson(response, 'The response of an Agents SDK model', CODEC)
  return action
}

/** The action of a streamed call: see {@link responseAction}. */
export function streamAction(modelId: string | undefined, events: readonly StreamEvent[]): Json {
  const action: JsonObject = { call: 'stream' }
  if (modelId !== undefined) action.modelId = modelId
  action.events = encodeJson(events, 'The stream of an Agents SDK model', CODEC)
  return action
}

/** The `getResponse` result a response action stands for, revived (`usage` is a `Usage` again). */
export function toModelResponse(action: Json, stepName: string): ModelResponse {
  return decodeJson(
    recordedModelCall<ModelCall>(action, 'response', stepName, MODE_HINT).response ?? null,
    CODEC,
  ) as ModelResponse
}

/** The events a stream action stands for, revived. */
export function toStreamEvents(action: Json, stepName: string): StreamEvent[] {
  return decodeJson(
    recordedModelCall<ModelCall>(action, 'stream', stepName, MODE_HINT).events ?? [],
    CODEC,
  ) as StreamEvent[]
}

/** The model id an action records, if `wrapModel` was given one. */
export function answeringModel(action: Json): string | undefined {
  const modelId = asObject(action)?.modelId
  return typeof modelId === 'string' ? modelId : undefined
}

/** Token counts of a model step: the response's usage, or that of the stream's `response_done` event. */
export function tokenCounts(action: Json): TokenCounts {
  const usage = responseOf(action)?.usage
  if (usage === undefined)
    return { inputTokens: undefined, cachedInputTokens: undefined, outputTokens: undefined }
  const details = usage.inputTokensDetails
  const cached = (Array.isArray(details) ? details : details === undefined ? [] : [details]).reduce(
    (sum, entry) => sum + (typeof entry.cached_tokens === 'number' ? entry.cached_tokens : 0),
    0,
  )
  return { inputTokens: usage.inputTokens, cachedInputTokens: cached, outputTokens: usage.outputTokens }
}

/**
 * What a model step records in `meta`: a one-line `summary` of what the model did (its function
 * calls as `name(arguments)`, its messages quoted), the call, the model id, token usage.
 */
export function actionMeta(action: Json): JsonObject {
  const meta: JsonObject = {}
  const summary = summaryOf(responseOf(action)?.output ?? [])
  if (summary !== '') meta.summary = summary
  const call = asObject(action)?.call
  if (typeof call === 'string') meta.call = call
  const modelId = answeringModel(action)
  if (modelId !== undefined) meta.modelId = modelId
  const tokens = tokenCounts(action)
  if (tokens.inputTokens !== undefined) meta.inputTokens = tokens.inputTokens
  if (tokens.cachedInputTokens !== undefined) meta.cachedInputTokens = tokens.cachedInputTokens
  if (tokens.outputTokens !== undefined) meta.outputTokens = tokens.outputTokens
  return meta
}

/** The response a step answered: `getResponse`'s, or that of the stream's `response_done` event. */
function responseOf(action: Json): { output?: readonly unknown[]; usage?: UsageFields } | undefined {
  const object = asObject(action)
  if (object?.call === 'response') {
    return (decodeJson(object.response ?? null, CODEC) as Partial<ModelResponse> | null) ?? undefined
  }
  if (object?.call === 'stream') {
    const events = decodeJson(object.events ?? [], CODEC) as StreamEvent[]
    const done = events.findLast((event) => event.type === 'response_done')
    return done?.type === 'response_done' ? done.response : undefined
  }
  return undefined
}

function summaryOf(output: readonly unknown[]): string {
  const items: string[] = []
  for (const item of output as Array<Record<string, unknown>>) {
    if (item.type === 'function_call') items.push(`${String(item.name)}(${String(item.arguments)})`)
    else if (item.role === 'assistant' && Array.isArray(item.content)) {
      const text = (item.content as Array<Record<string, unknown>>)
        .map((part) =>
          part.type === 'output_text'
            ? String(part.text)
            : part.type === 'refusal'
              ? String(part.refusal)
              : '',
        )
        .join('')
      items.push(JSON.stringify(text))
    }
  }
  return items.join(', ')
}

type UsageFields = Pick<Usage, 'inputTokens' | 'outputTokens'> & {
  inputTokensDetails?: Record<string, number> | Array<Record<string, number>> | undefined
}
