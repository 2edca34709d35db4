// `vitest-causal-replay/attribution`: Causal Agent Replay as functions. Which step caused an
// outcome (contrastive, Shapley), what in that step's context decided it, and what either costs
// in rollouts before it runs.
export { contrastive } from '../attribute/contrastive/contrastive.js'
export type { ContrastiveOptions, ContrastiveSearch } from '../attribute/contrastive/contrastive-options.js'
export { shapley } from '../attribute/shapley/shapley.js'
export type { ShapleyMethod, ShapleyOptions, ShapleyPlan } from '../attribute/shapley/shapley-options.js'
export { contextAttribution } from './context-attribution.js'
export type {
  ContextAblation,
  ContextAttributionOptions,
  CustomContextPart,
} from '../attribute/context/context-options.js'
export type {
  ContextAttributionResult,
  ContextCulprit,
  ContextPart,
  ContextPartKind,
  ContextPath,
  ContextRefinement,
  SpanProbe,
  TextSpan,
} from '../attribute/context-schema.js'
export {
  estimateRollouts,
  type ContrastivePrice,
  type EstimateRolloutsOptions,
  type RolloutPrice,
  type ShapleyPrice,
} from '../attribute/estimate-rollouts.js'
export type { AttributionOptions } from '../attribute/options.js'
export type {
  ContrastiveResult,
  ContrastiveStep,
  ReplayHandle,
  ShapleyResult,
  ShapleyStep,
} from '../attribute/schema.js'
// The types the functions above reach, by name, as the root exports them (`core.Trajectory`).
export type * as core from '../index.js'
