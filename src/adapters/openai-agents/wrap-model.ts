import type { Model, ModelRequest } from '@openai/agents'
import { z } from 'zod'
import type { AgentContext, StepOptions } from '../../agent/types.js'
import { InvalidOptionError } from '../../errors.js'
import type { Json } from '../../json.js'
import { expecting, oneOf } from '../../options/fields.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import { describeReceived } from '../../options/received.js'
import { DEFAULT_MODEL_STEP, modelStepNames, ModelStepNameField } from '../shared/model-call.js'
import { checkPriceTable, priceOf, PriceTableField, tokenCost, type PriceTable } from '../shared/pricing.js'
import { actionMeta, answeringModel, tokenCounts, toModelResponse, toStreamEvents } from './model-action.js'
import { modelPolicy, type ModelPolicySettings, type SeedOption } from './model-policy.js'
import { requestContext, type ModelCall } from './request-context.js'
import { joinArgumentDeltas } from './stream-join.js'

/** The `model` of a wrapped model's steps when no `modelId` was given. */
const UNNAMED_MODEL = 'openai-agents model'

const NonEmptyStringField = expecting(z.string().min(1), 'a non-empty string')

/** The `modelId` of `wrapModel`, `swapModel` and `judge`: the Agents SDK's `Model` does not say which model it calls. */
export const ModelIdField = NonEmptyStringField.optional()

/** How the step's seed reaches the model (see {@link SeedOption}). */
export const SeedOptionField = oneOf([
  'auto',
  'providerData',
  'none',
] as const satisfies readonly SeedOption[]).default('auto')

const wrapModelOptionsFields = {
  /**
   * Default `'model'`. How this model's calls are named as steps: a family, whose n-th call in a
   * rollout is the step `family#n` (`model#1`, `model#2`, …), so a message names the call rather
   * than a run of `model` rows to count; or a function `({ ordinal }) => name` (1-based ordinal).
   * `swapModel` swaps by family (`name`, or for a function, the names it returns without `#n`).
   */
  name: ModelStepNameField.default(DEFAULT_MODEL_STEP),
  /**
   * Default: none. The model's id, recorded in each step's `meta` and used to find its price. The
   * Agents SDK's `Model` does not expose its model name, so `prices` needs this.
   */
  modelId: ModelIdField,
  /** Default `'auto'`. How the step's seed reaches the model: see {@link SeedOption}. */
  seed: SeedOptionField,
  /**
   * Default: none (no cost recorded). USD per million tokens by model id (needs `modelId`). Each
   * call's usage is priced with the entry of the model that answered and counts against
   * `budget.maxCostUsd`; a swapped-in model needs its own `modelId` and entry.
   */
  prices: PriceTableField.optional(),
}
/** The options of {@link wrapModel}. */
export const WrapModelOptionsSchema: StrictOptions<typeof wrapModelOptionsFields> =
  z.strictObject(wrapModelOptionsFields)
/** Options of {@link wrapModel}. */
export type WrapModelOptions = z.input<typeof WrapModelOptionsSchema>

/**
 * Wraps an Agents SDK `Model` so that every `getResponse` and `getStreamedResponse` call is one
 * step of the rollout: pass the result as `new Agent({ model })` and `run()` as usual. Call it
 * inside the agent's `run`: the steps are numbered per wrapped model, `model#1`, `model#2`, … (see
 * `name`), and a replay of the run makes the same calls in the same order, so the names of held
 * steps match the recording's.
 *
 * - context: `{ call: 'response' | 'stream', systemInstructions, input, modelSettings, tools, … }`
 *   as JSON; `editContext` edits it and the model sees the edited request;
 * - action: the response, tool calls included (a stream: all its events), as JSON that comes back
 *   as the same values (`usage` is a `Usage` again) when a held step replays it; a streamed call
 *   replays as the recorded events;
 * - seed: the step's seed, sent as `modelSettings.providerData.seed` (see {@link SeedOption});
 * - meta: a one-line `summary` (a function call as `name(args)`, or the text's start), token usage
 *   and `modelId`; cost from `prices`, if given;
 * - retries: a failed attempt records no step, so retries never add steps (see `modelPolicy`).
 *
 * Streams are buffered: the first event arrives once the model's stream has ended.
 */
export function wrapModel(ctx: AgentContext, model: Model, options: WrapModelOptions = {}): Model {
  checkModel(model, 'wrapModel')
  const parsed = parseOptions('wrapModel', WrapModelOptionsSchema, options)
  // One counter per wrapModel call: the agent wraps its model once per rollout, inside `run`.
  const stepNames = modelStepNames(parsed.name, 'wrapModel')
  const settings: ModelPolicySettings = { modelId: parsed.modelId, seed: parsed.seed }
  const prices = parsed.prices
  if (prices !== undefined) checkPricedModel(prices, settings.modelId, 'wrapModel')

  const stepOptions = (call: ModelCall, request: ModelRequest): StepOptions<Json> => ({
    context: requestContext(call, request),
    // Marks the step as a model call: cacheable, counted, rate-limited. The Agents SDK does not say
    // which model a `Model` calls: without `modelId` the key cannot tell two models apart.
    model: settings.modelId ?? UNNAMED_MODEL,
    meta: actionMeta,
    joinStreamed: joinArgumentDeltas,
    ...(prices === undefined ? {} : { costUsd: (action: Json) => costOf(prices, action) }),
  })

  const wrapped: Model = {
    async getResponse(request) {
      const { stepName, action } = await stepNames.step((name) =>
        ctx.step(name, modelPolicy(model, settings, request), stepOptions('response', request)),
      )
      return toModelResponse(action, stepName)
    },
    async *getStreamedResponse(request) {
      const { stepName, action } = await stepNames.step((name) =>
        ctx.step(name, modelPolicy(model, settings, request), stepOptions('stream', request)),
      )
      yield* toStreamEvents(action, stepName)
    },
  }
  // Optional members pass through, so the runner treats the wrapped model like the original.
  const retryAdvice = model.getRetryAdvice
  if (retryAdvice !== undefined) wrapped.getRetryAdvice = (args) => retryAdvice.call(model, args)
  if (model.supportsPromptModelSelection !== undefined) {
    Object.defineProperty(wrapped, 'supportsPromptModelSelection', {
      value: model.supportsPromptModelSelection,
    })
  }
  return wrapped
}

function costOf(prices: PriceTable, action: Json): number {
  const modelId = answeringModel(action)
  if (modelId === undefined) {
    // The wrapped model has its id (checked by wrapModel): an unnamed answer is a swapped-in model's.
    throw new InvalidOptionError({
      caller: 'swapModel',
      option: 'modelId',
      expected: "the model's id (the key of its entry in `prices`) when the wrapped model has `prices`",
      received: 'undefined',
      hint: 'Its calls cannot be priced without it.',
    })
  }
  return tokenCost(priceOf(prices, modelId, 'wrapModel'), tokenCounts(action))
}

/** Checks a price table, and the model id it must price: the Agents SDK does not tell which model a `Model` calls. */
export function checkPricedModel(prices: PriceTable, modelId: string | undefined, caller: string): void {
  if (modelId === undefined) {
    throw new InvalidOptionError({
      caller,
      option: 'modelId',
      expected: "the model's id (the key of its entry in `prices`) when `prices` is given",
      received: 'undefined',
      hint: 'The Agents SDK does not tell which model a `Model` calls.',
    })
  }
  checkPriceTable(prices, modelId, caller)
}

/** Rejects what is not a `Model` with a message that says what to pass instead. */
export function checkModel(model: Model, caller: string): void {
  const candidate = model as Partial<Model> | null | undefined
  if (typeof candidate?.getResponse !== 'function' || typeof candidate.getStreamedResponse !== 'function') {
    throw new InvalidOptionError({
      caller,
      option: 'model',
      expected: 'an Agents SDK Model (an object with getResponse and getStreamedResponse)',
      received: describeReceived(model),
      ...(typeof model === 'string'
        ? { hint: 'Resolve a model name first, e.g. await new OpenAIProvider().getModel(name).' }
        : {}),
    })
  }
}
