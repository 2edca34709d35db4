import type { Policy } from '../../agent/types.js'
import { callSignal } from '../shared/model-call.js'
import { passedOnOptions, readCallContext } from './call-context.js'
import { generateAction, streamAction } from './model-action.js'
import { langchain } from './sdk.js'
import type { BaseMessage, CallOptions, ChatGenerationChunk, ChatModel } from './types.js'

/** What the policy needs besides the model. */
export interface ModelPolicySettings {
  /** The model's id, recorded with each answer and used to find its price. */
  modelId: string
  /** Whether the step's seed becomes the `seed` call option (see `wrapModel`'s `seed`). */
  passSeed: boolean
}

/**
 * The policy of a model step: call `model` with the messages and options the step's context
 * describes (edited, if `editContext` edited it) and the step's seed, and return the answer as a
 * JSON action.
 *
 * The policy calls the model's own `_generate` / `_streamResponseChunks`, below LangChain's
 * callbacks: the wrapped model around it reports the run, its tokens and its end once, whether the
 * answer came from the model or from the recording. `live` is the call LangChain made, when there
 * is one: its signal and timeout are passed on. A swapped-in policy has no live call and sends the
 * rollout's signal.
 *
 * A failed call throws out of the policy, so the engine records no step and the next attempt takes
 * the same step index and seed: `maxRetries` retries a provider call inside `_generate` and never
 * adds steps. A stream is read to its end inside the policy, so a stream that breaks halfway is a
 * failed call too.
 */
export function modelPolicy(model: ChatModel, settings: ModelPolicySettings, live?: CallOptions): Policy {
  return async (_rng, view) => {
    const { call, messages, options } = readCallContext(view)
    const callOptions = {
      ...(live === undefined ? {} : passedOnOptions(live)),
      ...options,
      signal: callSignal(live?.signal, view),
    } as CallOptions & { seed?: number }
    if (settings.passSeed) callOptions.seed = view.seed
    else if (live !== undefined && 'seed' in live) callOptions.seed = live.seed as number
    if (call === 'generate')
      return generateAction(settings.modelId, await model._generate(messages, callOptions))
    return streamAction(settings.modelId, await readStream(model, messages, callOptions))
  }
}

/**
 * True when `model` implements streaming itself. LangChain streams only such models (others answer
 * `stream()` with one `invoke`), and the wrapped model streams exactly when the original does.
 */
export function streamsNatively(model: ChatModel): boolean {
  return model._streamResponseChunks !== langchain.BaseChatModel.prototype._streamResponseChunks
}

/**
 * Every chunk of the model's stream. A swapped-in model that cannot stream answers a recorded
 * stream call with one chunk holding its whole answer, as LangChain's own `stream()` would.
 */
async function readStream(
  model: ChatModel,
  messages: BaseMessage[],
  options: CallOptions,
): Promise<ChatGenerationChunk[]> {
  if (!streamsNatively(model)) {
    const result = await model._generate(messages, options)
    return result.generations.map((generation) => {
      const { content, additional_kwargs, response_metadata, id, name } = generation.message
      const ai = langchain.AIMessage.isInstance(generation.message) ? generation.message : undefined
      return new langchain.ChatGenerationChunk({
        text: generation.text,
        message: new langchain.AIMessageChunk({
          content,
          additional_kwargs,
          response_metadata,
          ...(id === undefined ? {} : { id }),
          ...(name === undefined ? {} : { name }),
          ...(ai === undefined ? {} : { tool_calls: ai.tool_calls ?? [] }),
          ...(ai?.usage_metadata === undefined ? {} : { usage_metadata: ai.usage_metadata }),
        }),
        ...(generation.generationInfo === undefined ? {} : { generationInfo: generation.generationInfo }),
      })
    })
  }
  const chunks: ChatGenerationChunk[] = []
  for await (const chunk of model._streamResponseChunks(messages, options)) chunks.push(chunk)
  return chunks
}
