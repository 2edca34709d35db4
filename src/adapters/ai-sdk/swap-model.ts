import { z } from 'zod'
import { expecting } from '../../options/fields.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import { swapPolicy, type Intervention } from '../../replay/interventions.js'
import { modelPolicy } from './model-policy.js'
import type { LanguageModelV3 } from './types.js'
import { checkModel, DEFAULT_MODEL_STEP } from './wrap-model.js'

const swapModelOptionFields = {
  /**
   * Default `'model'`. The family of the steps `model` answers: the `name` given to `wrapModel`,
   * so `'model'` reaches `model#1`, `model#2`, … (an exact step name reaches that step only).
   */
  name: expecting(z.string().min(1), 'a non-empty string').optional(),
}
const SwapModelOptionsSchema: StrictOptions<typeof swapModelOptionFields> =
  z.strictObject(swapModelOptionFields)

/** Options of {@link swapModel}. */
export type SwapModelOptions = z.input<typeof SwapModelOptionsSchema>

/**
 * do_policy for AI SDK agents: hold the steps before `step`, and from `step` on answer every call of
 * the wrapped model (each step of the family `name`: `model#2`, `model#3`, …) with `model`
 * instead, on the same (possibly edited) prompt and the step's seed. A swapped call sends no HTTP
 * headers of the original call: the context has none. With `prices`, the swapped-in model needs
 * its own entry in the table.
 */
export function swapModel(
  step: number,
  model: LanguageModelV3,
  options: SwapModelOptions = {},
): Intervention {
  checkModel(model, 'swapModel')
  const family = parseOptions('swapModel', SwapModelOptionsSchema, options).name ?? DEFAULT_MODEL_STEP
  return swapPolicy(step, { [family]: modelPolicy(model) })
}
