import type { Model, ModelRequest, StreamEvent } from '@openai/agents'
import type { Policy } from '../../agent/types.js'
import { callSignal } from '../shared/model-call.js'
import { passedOnFields, readRequestContext } from './request-context.js'
import { responseAction, streamAction } from './model-action.js'
import { isResponsesApiModel } from './sdk.js'

/**
 * How the step's seed reaches the model. The Agents SDK has no seed setting, so `'providerData'`
 * sends it as `modelSettings.providerData.seed`, which `OpenAIChatCompletionsModel` forwards as the
 * Chat Completions `seed` parameter (and a custom `Model` can read). `'none'` sends nothing.
 * `'auto'` is `'providerData'` except for `OpenAIResponsesModel`: the Responses API has no seed
 * and rejects unknown parameters.
 */
export type SeedOption = 'auto' | 'providerData' | 'none'

/** What the policy needs besides the model. */
export interface ModelPolicySettings {
  modelId: string | undefined
  seed: SeedOption
}

/**
 * The policy of a model step: call `model` with the request the step's context describes (edited,
 * if `editContext` edited it) and the step's seed, and return the result as a JSON action.
 *
 * `live` is the request the runner made, when there is one: its signal, tracing flag, retry
 * settings and internal fields are passed on. A swapped-in policy has no live request and sends
 * the rollout's signal with tracing off.
 *
 * A failed call throws out of the policy, so the engine records no step and the next attempt takes
 * the same step index and seed: the runner's retries (`modelSettings.retry`) and a provider
 * client's own retries never add steps. A stream is read to its end inside the policy, so a stream
 * that breaks halfway is a failed call too, retried before anything reached the runner.
 */
export function modelPolicy(model: Model, settings: ModelPolicySettings, live?: ModelRequest): Policy {
  const sendSeed =
    settings.seed === 'providerData' || (settings.seed === 'auto' && !isResponsesApiModel(model))
  return async (_rng, view) => {
    const { call, request } = readRequestContext(view)
    const retry = live?.modelSettings.retry
    const modelSettings = { ...request.modelSettings, ...(retry === undefined ? {} : { retry }) }
    if (sendSeed) modelSettings.providerData = { ...modelSettings.providerData, seed: view.seed }
    const callRequest = {
      // Required fields, should an edit have dropped them; a swapped-in call is not traced.
      tools: [],
      handoffs: [],
      outputType: 'text',
      ...(live === undefined ? { tracing: false } : passedOnFields(live)),
      ...request,
      modelSettings,
      signal: callSignal(live?.signal, view),
    } as ModelRequest
    if (call === 'response') return responseAction(settings.modelId, await model.getResponse(callRequest))
    const events: StreamEvent[] = []
    for await (const event of model.getStreamedResponse(callRequest)) events.push(event)
    return streamAction(settings.modelId, events)
  }
}
