import { swapPolicy, type Intervention } from '../../replay/interventions.js'
import { swappedFamily, type SwapModelOptions } from '../shared/model-call.js'
import { modelPolicy } from './model-policy.js'
import type { ChatModel } from './types.js'
import { checkModel, modelIdOf } from './wrap-model.js'

/**
 * do_policy for LangChain agents: hold the steps before `step`, and from `step` on answer every call
 * of the wrapped model of family `name` with `model` instead, on the same (possibly edited) messages
 * and bound tools, with the step's seed as the `seed` call option. With `prices`, the swapped-in
 * model needs its own entry in the table.
 */
export function swapModel(step: number, model: ChatModel, options: SwapModelOptions = {}): Intervention {
  checkModel(model, 'swapModel')
  return swapPolicy(step, {
    [swappedFamily(options)]: modelPolicy(model, { modelId: modelIdOf(model), passSeed: true }),
  })
}
