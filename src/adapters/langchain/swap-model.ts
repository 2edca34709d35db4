import { z } from 'zod'
import { expecting } from '../../options/fields.js'
import { parseOptions, type DescribesSchema } from '../../options/parse-options.js'
import { swapPolicy, type Intervention } from '../../replay/interventions.js'
import { modelPolicy } from './model-policy.js'
import type { ChatModel } from './types.js'
import { checkModel, DEFAULT_MODEL_STEP, modelIdOf } from './wrap-model.js'

/** Options of {@link swapModel}. */
export interface SwapModelOptions {
  /**
   * Default `'model'`. The step family whose calls `model` answers: the `name` given to
   * `wrapModel` (a swap of `model` reaches `model#1`, `model#2`, …).
   */
  name?: string
}

const SwapModelOptionsSchema = z.strictObject({
  name: expecting(z.string().min(1), 'a non-empty string').optional(),
})
const _options: DescribesSchema<SwapModelOptions, typeof SwapModelOptionsSchema> = true

/**
 * do_policy for LangChain agents: hold the steps before `step`, and from `step` on answer every call
 * of the wrapped model of family `name` with `model` instead, on the same (possibly edited) messages
 * and bound tools, with the step's seed as the `seed` call option. With `prices`, the swapped-in
 * model needs its own entry in the table.
 */
export function swapModel(step: number, model: ChatModel, options: SwapModelOptions = {}): Intervention {
  checkModel(model, 'swapModel')
  const family = parseOptions('swapModel', SwapModelOptionsSchema, options).name ?? DEFAULT_MODEL_STEP
  return swapPolicy(step, { [family]: modelPolicy(model, { modelId: modelIdOf(model), passSeed: true }) })
}
