import { z } from 'zod'
import { expecting } from '../../options/fields.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import { swapPolicy, type Intervention } from '../../replay/interventions.js'
import { modelPolicy } from './model-policy.js'
import type { ChatModel } from './types.js'
import { checkModel, DEFAULT_MODEL_STEP, modelIdOf } from './wrap-model.js'

const swapModelOptionFields = {
  /**
   * Default `'model'`. The step family whose calls `model` answers: the `name` given to
   * `wrapModel` (a swap of `model` reaches `model#1`, `model#2`, …).
   */
  name: expecting(z.string().min(1), 'a non-empty string').optional(),
}
const SwapModelOptionsSchema: StrictOptions<typeof swapModelOptionFields> =
  z.strictObject(swapModelOptionFields)

/** Options of {@link swapModel}. */
export type SwapModelOptions = z.input<typeof SwapModelOptionsSchema>

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
