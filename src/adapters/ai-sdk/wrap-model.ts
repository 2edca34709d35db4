import { z } from 'zod'
import type { AgentContext, StepOptions } from '../../agent/types.js'
import { InvalidOptionError } from '../../errors.js'
import type { Json } from '../../json.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import { describeReceived } from '../../options/received.js'
import { DEFAULT_MODEL_STEP, modelStepNames, ModelStepNameField } from '../shared/model-call.js'
import { checkPriceTable, PriceTableField, costOption } from '../shared/pricing.js'
import { callContext, type ModelCall } from './call-context.js'
import { actionMeta, answeringModel, tokenCounts, toGenerateResult, toStreamResult } from './model-action.js'
import { modelPolicy } from './model-policy.js'
import { joinToolInputDeltas } from './stream-join.js'
import type { CallOptions, LanguageModelV3 } from './types.js'

const wrapModelOptionFields = {
  /**
   * Default `'model'`. How this model's calls are named as steps: a family, whose n-th call in a
   * rollout is the step `family#n` (`model#1`, `model#2`, …), so a message names the call rather
   * than a run of `model` rows to count; or a function `({ ordinal }) => name` (1-based ordinal).
   * `swapModel` swaps by family (`name`, or for a function, the names it returns without `#n`).
   */
  name: ModelStepNameField.optional(),
  /**
   * Default: none (no cost recorded). USD per million tokens by model id. Each call's usage is
   * priced with the entry of the model that answered and counts against `budget.maxCostUsd`. The
   * wrapped model must have an entry; a swapped-in model without one ends its rollout with an error.
   */
  prices: PriceTableField.optional(),
}
const WrapModelOptionsSchema: StrictOptions<typeof wrapModelOptionFields> =
  z.strictObject(wrapModelOptionFields)

/** Options of {@link wrapModel}. */
export type WrapModelOptions = z.input<typeof WrapModelOptionsSchema>

/**
 * Wraps an AI SDK model (LanguageModelV3) so that every `doGenerate` and `doStream` call is one
 * step of the rollout: use the result with `generateText`, `streamText` and the rest as usual.
 * Call it inside the agent's `run`: the steps are numbered per wrapped model, `model#1`, `model#2`,
 * … (see `name`), and a replay of the run makes the same calls in the same order, so the names
 * of held steps match the recording's.
 *
 * - context: `{ call: 'generate' | 'stream', prompt, tools, toolChoice, temperature, … }` as JSON;
 *   `editContext` edits it and the model sees the edited prompt;
 * - action: the result, tool calls included (a stream: all its parts), as JSON that comes back
 *   as the same values (dates, bytes) when a held step replays it; a streamed call replays as a
 *   stream of the recorded parts;
 * - seed: the call's `seed` option is the step's seed (a `seed` given to `generateText` is
 *   replaced), so a seeded model draws the same answer for the same step of the same rollout;
 * - meta: a one-line `summary` (a tool call as `name(args)`, or the text's start), token usage,
 *   finish reason, answering model id; cost from `prices`, if given;
 * - retries: a failed attempt records no step, so `maxRetries` never adds steps (see `modelPolicy`).
 *
 * Streams are buffered: the wrapped `doStream` resolves once the model's stream has ended.
 */
export function wrapModel(
  ctx: AgentContext,
  model: LanguageModelV3,
  options: WrapModelOptions = {},
): LanguageModelV3 {
  checkModel(model, 'wrapModel')
  const parsed = parseOptions('wrapModel', WrapModelOptionsSchema, options)
  // One counter per wrapModel call: the agent wraps its model once per rollout, inside `run`.
  const stepNames = modelStepNames(parsed.name ?? DEFAULT_MODEL_STEP, 'wrapModel')
  const prices = parsed.prices
  if (prices !== undefined) checkPriceTable(prices, model.modelId, 'wrapModel')

  const stepOptions = (call: ModelCall, callOptions: CallOptions): StepOptions<Json> => ({
    context: callContext(call, callOptions),
    // Marks the step as a model call: cacheable, counted, rate-limited.
    model: model.modelId,
    meta: actionMeta,
    joinStreamed: joinToolInputDeltas,
    ...costOption(prices, 'wrapModel', answeringModel, tokenCounts),
  })

  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls
    },
    async doGenerate(callOptions) {
      const { stepName, action } = await stepNames.step((name) =>
        ctx.step(name, modelPolicy(model, callOptions), stepOptions('generate', callOptions)),
      )
      return toGenerateResult(action, stepName)
    },
    async doStream(callOptions) {
      const { stepName, action } = await stepNames.step((name) =>
        ctx.step(name, modelPolicy(model, callOptions), stepOptions('stream', callOptions)),
      )
      return toStreamResult(action, stepName)
    },
  }
}

/** Rejects what is not a LanguageModelV3 with a message that says what it is instead. */
export function checkModel(model: LanguageModelV3, caller: string): void {
  if (typeof model !== 'object' || model === null) {
    throw new InvalidOptionError({
      caller,
      option: 'model',
      expected: "an AI SDK model object (LanguageModelV3, e.g. openai('gpt-4.1') or MockLanguageModelV3)",
      received: describeReceived(model),
      ...(typeof model === 'string'
        ? { hint: 'Model id strings are not supported: resolve the model first.' }
        : {}),
    })
  }
  const version = (model as { specificationVersion?: unknown }).specificationVersion
  if (version !== 'v3') {
    throw new InvalidOptionError({
      caller,
      option: 'model.specificationVersion',
      expected: "'v3' (ai 6.x)",
      received: describeReceived(version),
      hint: 'Upgrade the provider package.',
    })
  }
}
