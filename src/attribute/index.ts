// The attribution stage: contrastive attribution, Shapley values, and the price of both.
export { contrastive } from './contrastive/contrastive.js'
export {
  BINARY_SEARCH_ABOVE,
  type ContrastiveOptions,
  type ContrastiveSearch,
} from './contrastive/contrastive-options.js'
export { shapley } from './shapley/shapley.js'
export { contextAttribution } from './context/context-attribution.js'
export {
  DEFAULT_PLACEHOLDER,
  type ContextAblation,
  type ContextAttributionOptions,
  type CustomContextPart,
} from './context/context-options.js'
export {
  ContextAttributionResultSchema,
  type ContextAttributionResult,
  type ContextCulprit,
  type ContextPart,
  type ContextPartKind,
  type ContextPath,
  type ContextRefinement,
  type SpanProbe,
  type TextSpan,
} from './context-schema.js'
export { EXACT_MAX_STEPS, type ShapleyMethod, type ShapleyOptions } from './shapley/shapley-options.js'
export { exactSamplesPerEval } from './shapley/shapley-weights.js'
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
