import { makeJudge, type Judge, type JudgeOptions } from '../shared/judge.js'
import { checkPriceTable, costOption } from '../shared/pricing.js'
import { encodeJson } from '../shared/json-codec.js'
import { actionMeta, answeringModel, tokenCounts, toChatResult } from './model-action.js'
import { modelPolicy } from './model-policy.js'
import type { ChatModel } from './types.js'
import { checkModel, modelIdOf } from './wrap-model.js'

/** Options of LangChain's {@link judge}: the shared ones; `temperature` is the chat model's own setting there. */
export type LangChainJudgeOptions = Omit<JudgeOptions, 'temperature'>

/**
 * A judge predicate: asks `model` (a LangChain chat model) whether `rubric` holds for a run, and is
 * true when it answers YES. The call is a `_generate` of the shape a wrapped model's step records:
 * through the agent's cassette, counted in the verdict's cost, its `seed` from the run's own judge
 * stream (see the AI SDK adapter's `judge`). A call that throws, runs past `timeoutMs` or answers
 * neither YES nor NO is an error outcome of the run. The sampling temperature is the chat model's
 * own (LangChain sets it on the model, not per call).
 */
export function judge(model: ChatModel, rubric: string, options?: LangChainJudgeOptions): Judge {
  checkModel(model, 'judge')
  const modelId = modelIdOf(model)
  if (options?.prices !== undefined) checkPriceTable(options.prices, modelId, 'judge')
  return makeJudge('judge', modelId, rubric, options, (prompt, settings) => {
    const context = encodeJson(
      {
        call: 'generate',
        messages: [
          { type: 'system', data: { content: prompt.system } },
          { type: 'human', data: { content: prompt.user } },
        ],
      },
      'The messages of a judge call',
    )
    return {
      policy: modelPolicy(model, { modelId, passSeed: true }),
      options: {
        context,
        model: modelId,
        meta: actionMeta,
        ...costOption(settings.prices, 'judge', answeringModel, tokenCounts),
      },
      text: (action, name) =>
        toChatResult(action, name)
          .generations.map((generation) => generation.text)
          .join(''),
    }
  })
}
