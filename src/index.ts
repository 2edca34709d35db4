// The public API of vitest-causal-replay. Everything here runs without Vitest.
export { defineAgent, isAgent, isScenario, type AgentOrScenario } from './agent/define-agent.js'
export type {
  Agent,
  AgentContext,
  AgentDefinition,
  Policy,
  RolloutInfo,
  Scenario,
  StepOptions,
  StepView,
} from './agent/types.js'
export {
  BudgetExceededError,
  CausalReplayError,
  InvalidOptionError,
  InvalidTrajectoryError,
  MaxStepsExceededError,
  NotJsonError,
  ReplayDivergenceError,
  RolloutAbortedError,
  RolloutTimeoutError,
  isCausalReplayError,
} from './errors.js'
export { canonicalJson, contextDigest, type Json, type JsonObject } from './json.js'
export { deriveSeed, providerSeed, stepStream, type Rng } from './random/streams.js'
export {
  describeIntervention,
  editContext,
  forceAction,
  hold,
  replaceObservation,
  resample,
  swapPolicy,
  type Intervention,
  type ObservationSelector,
} from './replay/interventions.js'
export type { ToolMode } from './replay/plan.js'
export { record, replay, type RecordOptions, type ReplayOptions } from './replay/replay.js'
export { Budget, type BudgetLimits } from './rollout/budget.js'
export type { RolloutOptions, RolloutProgress } from './rollout/options.js'
export { RolloutSet, type RolloutFailure, type ScoredOutcome, type Scorer } from './rollout/rollout-set.js'
export { runRollouts } from './rollout/run-rollouts.js'
export { readTrajectory, writeTrajectory } from './trajectory/file.js'
export { allObservations, calledTool, findStep, findSteps, type Predicate } from './trajectory/queries.js'
export {
  TRAJECTORY_SCHEMA,
  TrajectorySchema,
  type Observation,
  type RolloutError,
  type Step,
  type StepSource,
  type Trajectory,
} from './trajectory/schema.js'
export {
  contrastive,
  estimateRollouts,
  shapley,
  ContrastiveResultSchema,
  ShapleyResultSchema,
  type AttributionOptions,
  type ContrastiveOptions,
  type ContrastiveResult,
  type ContrastiveStep,
  type EstimateRolloutsOptions,
  type ReplayHandle,
  type RolloutPrice,
  type ShapleyOptions,
  type ShapleyResult,
  type ShapleyStep,
} from './attribute/index.js'
export {
  clopperPearson,
  confidenceSequence,
  holm,
  meanScoreInterval,
  newcombe,
  sequentialRateTest,
  tango,
  wilson,
  type Estimate,
  type Interval,
  type IntervalMethod,
  type MeanScoreOptions,
  type PairedTable,
  type SequentialRateResult,
} from './stats/index.js'
