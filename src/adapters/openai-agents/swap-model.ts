import type { Model } from '@openai/agents'
import { swapPolicy, type Intervention } from '../../replay/interventions.js'
import { modelPolicy, type SeedOption } from './model-policy.js'
import { swappedFamily } from '../shared/model-call.js'
import { checkModel, policySettings } from './wrap-model.js'

/** Options of {@link swapModel}. */
export interface SwapModelOptions {
  /**
   * Default `'model'`. The family of the steps `model` answers: the `name` given to `wrapModel`,
   * so `'model'` reaches `model#1`, `model#2`, … (an exact step name reaches that step only).
   */
  name?: string
  /** Default: none. The swapped-in model's id, for `meta` and its entry in `prices`. */
  modelId?: string
  /** Default `'auto'`. How the step's seed reaches the model: see {@link SeedOption}. */
  seed?: SeedOption
}

/**
 * do_policy for Agents SDK agents: hold the steps before `step`, and from `step` on answer every
 * call of the wrapped model (each step of the family `name`: `model#2`, `model#3`, …) with
 * `model` instead, on the same (possibly edited) request and the step's seed. A swapped call runs
 * with the rollout's abort signal, untraced.
 */
export function swapModel(step: number, model: Model, options: SwapModelOptions = {}): Intervention {
  checkModel(model, 'swapModel')
  const name = swappedFamily({ name: options.name })
  return swapPolicy(step, { [name]: modelPolicy(model, policySettings(options, 'swapModel')) })
}
