import type { Model } from '@openai/agents'
import { z } from 'zod'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import { swapPolicy, type Intervention } from '../../replay/interventions.js'
import { modelPolicy } from './model-policy.js'
import { SwappedFamilyField } from '../shared/model-call.js'
import { checkModel, ModelIdField, SeedOptionField } from './wrap-model.js'

const swapModelOptionsFields = {
  /**
   * Default `'model'`. The family of the steps `model` answers: the `name` given to `wrapModel`,
   * so `'model'` reaches `model#1`, `model#2`, … (an exact step name reaches that step only).
   */
  name: SwappedFamilyField,
  /** Default: none. The swapped-in model's id, for `meta` and its entry in `prices`. */
  modelId: ModelIdField,
  /** Default `'auto'`. How the step's seed reaches the model: see `SeedOption`. */
  seed: SeedOptionField,
}
/** The options of the Agents SDK's {@link swapModel}. */
export const AgentsSwapModelOptionsSchema: StrictOptions<typeof swapModelOptionsFields> =
  z.strictObject(swapModelOptionsFields)

/** Options of {@link swapModel}. */
export type SwapModelOptions = z.input<typeof AgentsSwapModelOptionsSchema>

/**
 * do_policy for Agents SDK agents: hold the steps before `step`, and from `step` on answer every
 * call of the wrapped model (each step of the family `name`: `model#2`, `model#3`, …) with
 * `model` instead, on the same (possibly edited) request and the step's seed. A swapped call runs
 * with the rollout's abort signal, untraced.
 */
export function swapModel(step: number, model: Model, options: SwapModelOptions = {}): Intervention {
  checkModel(model, 'swapModel')
  const { name, modelId, seed } = parseOptions('swapModel', AgentsSwapModelOptionsSchema, options)
  return swapPolicy(step, { [name]: modelPolicy(model, { modelId, seed }) })
}
