import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager'
import type { Runnable } from '@langchain/core/runnables'
import { z } from 'zod'
import type { AgentContext, StepOptions } from '../../agent/types.js'
import { InvalidOptionError } from '../../errors.js'
import type { Json } from '../../json.js'
import { BooleanField } from '../../options/fields.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import { describeReceived } from '../../options/received.js'
import {
  DEFAULT_MODEL_STEP,
  modelStepNames,
  ModelStepNameField,
  type ModelStepNames,
} from '../shared/model-call.js'
import { checkPriceTable, PriceTableField, type PriceTable, costOption } from '../shared/pricing.js'
import { callContext, type ModelCall } from './call-context.js'
import { actionMeta, answeringModel, tokenCounts, toChatResult, toChunks } from './model-action.js'
import { modelPolicy, streamsNatively, type ModelPolicySettings } from './model-policy.js'
import { langchain } from './sdk.js'
import { joinToolCallChunks } from './stream-join.js'
import type { BaseMessage, CallOptions, ChatModel } from './types.js'

const wrapModelOptionFields = {
  /**
   * Default `'model'`. The family of this model's steps, named `model#1`, `model#2`, … per rollout
   * (`swapModel` swaps a family); or a function `({ ordinal }) => name` that names each call's step.
   */
  name: ModelStepNameField.optional(),
  /**
   * Default: none (no cost recorded). USD per million tokens by model id (LangChain's
   * `ls_model_name`, e.g. `gpt-4.1-mini`). Each call's `usage_metadata` is priced with the entry of
   * the model that answered and counts against `budget.maxCostUsd`. The wrapped model must have an
   * entry; a swapped-in model without one ends its rollout with an error.
   */
  prices: PriceTableField.optional(),
  /**
   * Default `true`: the step's seed is the call's `seed` option (a `seed` bound to the model is
   * replaced), so a seeded model draws the same answer for the same step of the same rollout.
   * `false` leaves the call's own `seed`, for a provider that rejects one; held steps still replay
   * from the recording, but a step drawn afresh is not reproducible.
   */
  seed: BooleanField.optional(),
}
const WrapModelOptionsSchema: StrictOptions<typeof wrapModelOptionFields> =
  z.strictObject(wrapModelOptionFields)

/** Options of {@link wrapModel}. */
export type WrapModelOptions = z.input<typeof WrapModelOptionsSchema>

/** What every recorded copy of one wrapped model shares: the rollout, the step counter, the settings. */
interface Recorder {
  ctx: AgentContext
  stepNames: ModelStepNames
  passSeed: boolean
  prices: PriceTable | undefined
}

/**
 * Wraps a LangChain chat model so that every generation is one step of the rollout: use the result
 * wherever the model goes (`invoke`, `stream`, `bindTools`, `withConfig`, `withStructuredOutput`,
 * the `llm` of `createReactAgent`).
 *
 * - context: `{ call: 'generate' | 'stream', messages, tools, tool_choice, … }` as JSON (see
 *   `callContext`); `editContext` edits it and the model sees the edited messages;
 * - action: the AI message with its tool calls (a stream: all its chunks), as JSON that a held step
 *   turns back into an equal `AIMessage`; a streamed call replays as a stream of the recorded chunks;
 * - seed: the step's seed, as the `seed` call option (see {@link WrapModelOptions.seed});
 * - meta: a one-line summary, token usage, finish reason, answering model id; cost from `prices`;
 * - retries: a failed attempt records no step, so `maxRetries` never adds steps (see `modelPolicy`).
 *
 * Why a prototype-linked copy rather than a wrapper class: the copy is the model itself for every
 * member (`_llmType`, `invocationParams`, `callKeys`, `bindTools`, the model profile), so LangChain
 * and LangGraph treat it exactly like the original, and only the two methods every generation goes
 * through, `_generate` and `_streamResponseChunks`, are its own. Hooking `invoke`/`stream` instead
 * would miss `batch`, `generate` and the streaming path `streamEvents` takes inside `invoke`.
 * `bindTools` is re-pointed too, because models may bind tools onto a fresh instance (not `this`):
 * the binding it returns is re-made around a recorded copy of whatever it binds. The model's cache
 * is off in the copy: a cached answer would skip the step and shift every later step index.
 *
 * Streams are buffered: the first chunk arrives once the model's stream has ended.
 */
export function wrapModel<Model extends ChatModel>(
  ctx: AgentContext,
  model: Model,
  options: WrapModelOptions = {},
): Model {
  checkModel(model, 'wrapModel')
  const parsed = parseOptions('wrapModel', WrapModelOptionsSchema, options)
  const prices = parsed.prices
  if (prices !== undefined) checkPriceTable(prices, modelIdOf(model), 'wrapModel')
  const name = parsed.name ?? DEFAULT_MODEL_STEP
  return recorded(model, {
    ctx,
    // One counter per wrapModel call: the agent wraps its model once per rollout, inside `run`.
    stepNames: modelStepNames(name, 'wrapModel'),
    passSeed: parsed.seed ?? true,
    prices,
  })
}

function recorded<Model extends ChatModel>(model: Model, recorder: Recorder): Model {
  const { ctx, prices } = recorder
  const settings: ModelPolicySettings = { modelId: modelIdOf(model), passSeed: recorder.passSeed }
  const stepOptions = (
    call: ModelCall,
    messages: BaseMessage[],
    options: CallOptions,
  ): StepOptions<Json> => ({
    context: callContext(call, messages, options),
    // Marks the step as a model call: cacheable, counted, rate-limited.
    model: settings.modelId,
    meta: actionMeta,
    joinStreamed: joinToolCallChunks,
    ...costOption(prices, 'wrapModel', answeringModel, tokenCounts),
  })

  const copy = Object.create(model) as Model
  Object.defineProperty(copy, 'cache', { value: undefined, writable: true, configurable: true })
  copy._generate = async (messages, options) => {
    const { stepName, action } = await recorder.stepNames.step((name) =>
      ctx.step(name, modelPolicy(model, settings, options), stepOptions('generate', messages, options)),
    )
    return toChatResult(action, stepName)
  }
  if (streamsNatively(model)) {
    copy._streamResponseChunks = async function* (
      messages: BaseMessage[],
      options: CallOptions,
      runManager?: CallbackManagerForLLMRun,
    ) {
      const { stepName, action } = await recorder.stepNames.step((name) =>
        ctx.step(name, modelPolicy(model, settings, options), stepOptions('stream', messages, options)),
      )
      for (const chunk of toChunks(action, stepName)) {
        yield chunk
        // The policy calls the model without LangChain's run manager, so tokens are reported here,
        // once, the same for a live and a held step: `streamEvents` sees them either way.
        await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, { chunk })
      }
    }
  }
  const bindTools = model.bindTools
  if (typeof bindTools === 'function') {
    copy.bindTools = (tools, kwargs) => rebind(bindTools.call(model, tools, kwargs), recorder)
  }
  return copy
}

/** The binding `bindTools` returned, around a recorded copy of the model it binds. */
function rebind<Bound extends Runnable>(binding: Bound, recorder: Recorder): Bound {
  if (langchain.RunnableBinding.isRunnableBinding(binding) && isChatModel(binding.bound)) {
    return new langchain.RunnableBinding({
      bound: recorded(binding.bound, recorder),
      config: binding.config,
      kwargs: binding.kwargs ?? {},
      ...(binding.configFactories === undefined ? {} : { configFactories: binding.configFactories }),
    }) as unknown as Bound
  }
  if (isChatModel(binding)) return recorded(binding, recorder) as unknown as Bound
  throw new InvalidOptionError({
    caller: 'wrapModel',
    option: 'model.bindTools',
    expected: 'a method returning the chat model or a binding of it (RunnableBinding)',
    received: describeReceived(binding),
    hint: 'Its calls could not be recorded.',
  })
}

/**
 * The id that prices a model and shows in `meta`: LangChain's `ls_model_name` (the provider's
 * model name, e.g. `gpt-4.1-mini`), else the model type (`_llmType()`, e.g. `openai`).
 */
export function modelIdOf(model: ChatModel): string {
  const name = model.getLsParams({} as CallOptions).ls_model_name
  return typeof name === 'string' && name !== '' ? name : model._llmType()
}

function isChatModel(value: unknown): value is ChatModel {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Partial<ChatModel>
  return (
    typeof candidate._modelType === 'function' &&
    typeof candidate._generate === 'function' &&
    candidate._modelType() === 'base_chat_model'
  )
}

/** Rejects what is not a LangChain chat model with a message that says what to pass instead. */
export function checkModel(model: ChatModel, caller: string): void {
  if (isChatModel(model)) return
  const bound = langchain.RunnableBinding.isRunnableBinding(model)
  throw new InvalidOptionError({
    caller,
    option: 'model',
    expected: 'a LangChain chat model (a BaseChatModel of @langchain/core 1.x, e.g. new ChatOpenAI(…))',
    received: bound ? 'a RunnableBinding' : describeReceived(model),
    ...(typeof model === 'string'
      ? { hint: 'Model name strings are not supported: create the model first.' }
      : bound
        ? {
            hint: 'Wrap the model before bindTools or withConfig: the wrapped model keeps recording through both.',
          }
        : {}),
  })
}
