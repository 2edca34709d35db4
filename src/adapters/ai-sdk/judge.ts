import { makeJudge, type Judge, type JudgeOptions } from '../shared/judge.js'
import { checkPriceTable, costOption } from '../shared/pricing.js'
import { callContext } from './call-context.js'
import { actionMeta, answeringModel, tokenCounts, toGenerateResult } from './model-action.js'
import { modelPolicy } from './model-policy.js'
import type { CallOptions, LanguageModelV3 } from './types.js'
import { checkModel } from './wrap-model.js'

/**
 * A judge predicate: asks `model` (an AI SDK `LanguageModelV3`) whether `rubric` holds for a run,
 * and is true when it answers YES. Use it like any predicate (see the example).
 *
 * The call is a `doGenerate` of the same shape a wrapped model's step records: it goes through the
 * cassette the agent runs through, counts in the verdict's cost (priced with `prices`), waits for
 * the rate limit, and draws its `seed` from the run's own judge stream, so every arm of an
 * attribution judges rollout r alike. A call that throws, runs past `timeoutMs` or answers neither
 * YES nor NO is an error outcome of the run. With `calibration` (or after `judge.calibrate`) the
 * rate gates test the true rate, corrected for the judge's errors.
 *
 * @example
 * <!-- example:examples/ai-sdk/judge.test.ts#reference -->
 * ```ts
 * import { judge } from 'vitest-causal-replay/ai-sdk'
 * const refunds = judge(judgeModel, 'issues a refund') // in a project: judge(openai('gpt-4.1-mini'), …)
 * await expect(supportAgent.on(carefulTicket)).toRarely(refunds, { atMost: 0.1, seed: 1 })
 * ```
 * <!-- /example:examples/ai-sdk/judge.test.ts#reference -->
 */
export function judge(model: LanguageModelV3, rubric: string, options?: JudgeOptions): Judge {
  checkModel(model, 'judge')
  if (options?.prices !== undefined) checkPriceTable(options.prices, model.modelId, 'judge')
  return makeJudge('judge', model.modelId, rubric, options, (prompt, settings) => {
    const callOptions: CallOptions = {
      prompt: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: [{ type: 'text', text: prompt.user }] },
      ],
      temperature: settings.temperature,
    }
    return {
      policy: modelPolicy(model),
      options: {
        context: callContext('generate', callOptions),
        model: model.modelId,
        meta: actionMeta,
        ...costOption(settings.prices, 'judge', answeringModel, tokenCounts),
      },
      text: (action, name) =>
        toGenerateResult(action, name)
          .content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
          .join(''),
    }
  })
}
