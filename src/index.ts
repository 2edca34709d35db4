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
  ToolOptions,
} from './agent/types.js'
export { withCassette } from './cassette/attach.js'
export { Cassette, openCassette, type CassetteCounts, type OpenCassetteOptions } from './cassette/cassette.js'
export { CassetteMissError } from './cassette/miss-error.js'
export type { CassetteMode, CassetteWrite } from './cassette/mode.js'
export { cassettePath } from './cassette/path.js'
export {
  BudgetExceededError,
  CausalReplayError,
  InvalidFileError,
  InvalidOptionError,
  InvalidTrajectoryError,
  JudgeError,
  MaxStepsExceededError,
  MissingPeerDependencyError,
  NotJsonError,
  ReplayDivergenceError,
  RolloutAbortedError,
  RolloutTimeoutError,
  isCausalReplayError,
} from './errors.js'
export type { Json, JsonObject } from './json.js'
// `Policy` takes an `Rng`; the streams themselves are plumbing.
export type { Rng } from './random/streams.js'
export {
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
export { Budget, type BudgetLimits, type ModelSpend } from './rollout/budget.js'
export type { RateLimitOptions } from './rollout/rate-limit.js'
export type { RolloutOptions, RolloutProgress } from './rollout/options.js'
export { RolloutSet, type RolloutFailure, type ScoredOutcome, type Scorer } from './rollout/rollout-set.js'
export { runRollouts } from './rollout/run-rollouts.js'
export { readTrajectory, writeTrajectory } from './trajectory/file.js'
export { allObservations, calledTool, findStep, findSteps, type Predicate } from './trajectory/queries.js'
export { and, not, or } from './trajectory/combinators.js'
export { stepMatches, type StepExpectation } from './trajectory/step-matches.js'
export {
  calledToolWith,
  calledTools,
  type CalledToolsOptions,
  type ToolCallPattern,
  type TrajectoryMatchMode,
} from './trajectory/tool-calls.js'
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
  contextAttribution,
  contrastive,
  estimateRollouts,
  shapley,
  ContextAttributionResultSchema,
  ContrastiveResultSchema,
  ShapleyResultSchema,
  type AttributionOptions,
  type ContextAttributionOptions,
  type ContextAttributionResult,
  type ContextCulprit,
  type ContextPart,
  type ContextRefinement,
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
// Results carry these; the statistics toolkit itself is the `vitest-causal-replay/stats` subpath.
export type { Estimate, Interval, IntervalMethod } from './stats/index.js'
export { check, type CheckResult } from './check/check.js'
// Type-only, so the root still loads nothing of Vitest at run time. Being in the root's .d.ts, it
// also brings the module's augmentation of Vitest's `Matchers` into every program that imports the
// root: `expect(agent).toRarely(…)` type-checks with no `types` entry. Without Vitest installed the
// augmentation is inert (see the module for how it stays free of errors without `skipLibCheck`).
export type { RateMatchers } from './vitest/rate-matchers.js'
export type { CheckOptions } from './check/check-options.js'
export {
  always,
  matchesBaseline,
  never,
  noWorseThan,
  rarely,
  scoresAtLeast,
  scoresAtMost,
  usually,
  type Claim,
  type KnownOrJson,
  type PredicateFor,
  type ScorerFor,
} from './check/claims.js'
export type { TrajectoryScorer } from './trajectory/score-result.js'
export {
  ArtifactSchema,
  ModelCostSchema,
  VerdictSchema,
  type Artifact,
  type ModelCost,
  type BaselineComparison,
  type BaselineVerdict,
  type AgentComparison,
  type ComparisonVerdict,
  type ClaimKind,
  type ScoreStanding,
  type ScoreVerdict,
  type SequentialVerdict,
  type Verdict,
  type ZeroToleranceVerdict,
} from './verdict/schema.js'
export type {
  AttributeOptions,
  BaselineClaimOptions,
  BaselineOptions,
  CommonMatcherOptions,
  ContextAttributeOptions,
  NoWorseThanOptions,
  RarelyOptions,
  ScoreOptions,
  SequentialGateOptions,
  UsuallyOptions,
  ZeroToleranceOptions,
} from './verdict/options.js'
export type { UpdateState } from './verdict/baseline-file.js'
