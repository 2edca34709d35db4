import { swapPolicy, type Intervention } from '../../replay/interventions.js'
import { swappedFamily, type SwapModelOptions } from '../shared/model-call.js'
import { modelPolicy } from './model-policy.js'
import type { LanguageModelV3 } from './types.js'
import { checkModel } from './wrap-model.js'

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
  return swapPolicy(step, { [swappedFamily(options)]: modelPolicy(model) })
}
