import type { ModelRequest, ModelResponse } from '@openai/agents'
import { makeJudge, type Judge, type JudgeOptions } from '../shared/judge.js'
import { costOption } from '../shared/pricing.js'
import { actionMeta, answeringModel, tokenCounts, toModelResponse } from './model-action.js'
import { modelPolicy, type SeedOption } from './model-policy.js'
import { requestContext } from './request-context.js'
import { checkModel, checkPricedModel } from './wrap-model.js'
import type { Model } from '@openai/agents'

/** Options of the Agents SDK's {@link judge}: the shared ones, the model's id and how its seed is sent. */
export interface AgentsJudgeOptions extends JudgeOptions {
  /** Default: none. The model's id: the Agents SDK does not say which model a `Model` calls; needed with `prices`. */
  modelId?: string
  /** Default `'auto'`. How the judge's seed reaches the model (see `wrapModel`). */
  seed?: SeedOption
}

const UNNAMED_JUDGE_MODEL = 'openai-agents judge model'

/**
 * A judge predicate: asks `model` (an Agents SDK `Model`) whether `rubric` holds for a run, and is
 * true when it answers YES. The call is a `getResponse` of the shape a wrapped model's step records:
 * through the agent's cassette, counted in the verdict's cost, its seed from the run's own judge
 * stream (see the AI SDK adapter's `judge`). A call that throws, runs past `timeoutMs` or answers
 * neither YES nor NO is an error outcome of the run.
 */
export function judge(model: Model, rubric: string, options?: AgentsJudgeOptions): Judge {
  checkModel(model, 'judge')
  const { modelId, seed, ...shared } = options ?? {}
  if (shared.prices !== undefined) checkPricedModel(shared.prices, modelId, 'judge')
  const id = modelId ?? UNNAMED_JUDGE_MODEL
  return makeJudge('judge', id, rubric, shared, (prompt, settings) => {
    const request = {
      systemInstructions: prompt.system,
      input: prompt.user,
      modelSettings: { temperature: settings.temperature },
      tools: [],
      handoffs: [],
      outputType: 'text',
      tracing: false,
    } as unknown as ModelRequest
    return {
      policy: modelPolicy(model, { modelId, seed: seed ?? 'auto' }),
      options: {
        context: requestContext('response', request),
        model: id,
        meta: actionMeta,
        ...costOption(settings.prices, 'judge', (action) => answeringModel(action) ?? id, tokenCounts),
      },
      text: (action, name) => responseText(toModelResponse(action, name)),
    }
  })
}

/** The text of a response's assistant messages. */
function responseText(response: ModelResponse): string {
  const texts: string[] = []
  for (const item of response.output) {
    if (item.type !== 'message' || !Array.isArray(item.content)) continue
    for (const part of item.content) if (part.type === 'output_text') texts.push(part.text)
  }
  return texts.join('')
}
