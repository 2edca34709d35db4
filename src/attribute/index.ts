// The attribution stage: contrastive attribution, Shapley values, and the price of both.
export { contrastive } from './contrastive.js'
export {
  BINARY_SEARCH_ABOVE,
  type ContrastiveOptions,
  type ContrastiveSearch,
} from './contrastive-options.js'
export { shapley } from './shapley.js'
export { EXACT_MAX_STEPS, type ShapleyMethod, type ShapleyOptions } from './shapley-options.js'
export { exactSamplesPerEval } from './shapley-weights.js'
export {
  estimateRollouts,
  type ContrastivePrice,
  type EstimateRolloutsOptions,
  type RolloutPrice,
  type ShapleyPrice,
} from './estimate-rollouts.js'
export type { AttributionOptions } from './options.js'
export {
  ContrastiveResultSchema,
  ContrastiveStepSchema,
  ReplayHandleSchema,
  ShapleyResultSchema,
  ShapleyStepSchema,
  type ContrastiveResult,
  type ContrastiveStep,
  type ReplayHandle,
  type ShapleyResult,
  type ShapleyStep,
} from './schema.js'
