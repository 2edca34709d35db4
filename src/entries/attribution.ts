// `vitest-causal-replay/attribution`: Causal Agent Replay as functions. Which step caused an
// outcome (contrastive, Shapley), what in that step's context decided it, and what either costs
// in rollouts before it runs.
export {
  contextAttribution,
  contrastive,
  estimateRollouts,
  shapley,
  type AttributionOptions,
  type ContextAblation,
  type ContextAttributionOptions,
  type ContextAttributionResult,
  type ContextCulprit,
  type ContextPart,
  type ContextPartKind,
  type ContextPath,
  type ContextRefinement,
  type ContrastiveOptions,
  type ContrastivePrice,
  type ContrastiveResult,
  type ContrastiveSearch,
  type ContrastiveStep,
  type CustomContextPart,
  type EstimateRolloutsOptions,
  type ReplayHandle,
  type RolloutPrice,
  type ShapleyMethod,
  type ShapleyOptions,
  type ShapleyPrice,
  type ShapleyResult,
  type ShapleyStep,
  type SpanProbe,
  type TextSpan,
} from '../attribute/index.js'
export type { ShapleyPlan } from '../attribute/shapley/shapley-options.js'
// The types the functions above reach, by name, as the root exports them (`core.Trajectory`).
export type * as core from '../index.js'
