import type { Policy } from '../../agent/types.js'
import { callSignal } from '../shared/model-call.js'
import { passedOnOptions, readCallContext } from './call-context.js'
import { generateAction, streamAction } from './model-action.js'
import type { CallOptions, LanguageModelV3, StreamPart } from './types.js'

/**
 * The policy of a model step: call `model` with the call the step's context describes (edited, if
 * `editContext` edited it) and the step's `seed`, and return the result as a JSON action.
 *
 * `live` is the call the SDK made, when there is one: its abort signal and its options that are
 * not context (headers, `includeRawChunks`) are passed on. A swapped-in policy has no live call
 * and sends neither.
 *
 * A failed call throws out of the policy, so the engine records no step and the next attempt takes
 * the same step index and seed: the AI SDK's own retries (`maxRetries`, for 429s and 5xx) wrap
 * `doGenerate`/`doStream`, and every failed attempt leaves no trace. A stream is read to its end
 * inside the policy, so a stream that breaks halfway is a failed call too (and retried as one).
 */
export function modelPolicy(model: LanguageModelV3, live?: CallOptions): Policy {
  return async (_rng, view) => {
    const { call, options } = readCallContext(view)
    const callOptions: CallOptions = {
      ...(live === undefined ? {} : passedOnOptions(live)),
      ...options,
      seed: view.seed,
      abortSignal: callSignal(live?.abortSignal, view),
    }
    if (call === 'generate') return generateAction(model.modelId, await model.doGenerate(callOptions))
    const result = await model.doStream(callOptions)
    return streamAction(model.modelId, await readAll(result.stream), result.response)
  }
}

async function readAll(stream: ReadableStream<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = []
  const reader = stream.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return parts
      parts.push(value)
    }
  } finally {
    reader.releaseLock()
  }
}
