// `vitest-causal-replay/types`: every type the root's functions reach that a test rarely writes
// down (the options of each part of the pipeline, what a result holds, the claims table the matcher
// types are made from), by name. The root re-exports them as the namespace `types`.
export type { RolloutInfo, StepView } from '../agent/types.js'
export type { JsonObject } from '../json.js'
export type { Rng } from '../random/streams.js'
export type { AnyTrajectory, TrajectoryPredicate } from '../trajectory/queries.js'
export type { TrajectoryMatchMode } from '../trajectory/tool-calls.js'
export type { RolloutError, StepSource } from '../trajectory/schema.js'
export type {
  ClaimBuilder,
  KnownOrJson,
  OptionsArgument,
  PredicateFor,
  RateClaim,
  ScoreClaim,
  ScorerFor,
} from '../check/claims.js'
export type {
  CLAIMS,
  ClaimArguments,
  ClaimKind,
  ClaimKindOfGate,
  ClaimKindTaking,
  ClaimOptionTypes,
  ClaimRow,
  ClaimTable,
  GateFamily,
} from '../verdict/claim-table.js'
export type { ReportFiles } from '../check/report-files.js'
export type { ModelSpend } from '../rollout/budget.js'
export type { ModelRateLimit, RateLimitOptions } from '../rollout/rate-limit.js'
export type {
  AttributeOptions,
  BaselineOptions,
  CommonMatcherOptions,
  ContextAttributeOptions,
  SequentialGateOptions,
} from '../verdict/options.js'
export type { UpdateState } from '../verdict/baseline-file.js'
export type { ContrastiveResult } from '../attribute/schema.js'
export type { ContextAttributionResult } from '../attribute/context-schema.js'
export type { CassetteMode } from '../cassette/mode.js'
export type { CassettePart, CassetteRedact, CassetteRedactor } from '../cassette/redact.js'
export type {
  ContextAblation,
  ContextAttributionOptions,
  CustomContextPart,
} from '../attribute/context/context-options.js'
export type { RolloutProgress } from '../rollout/options.js'
export type { ToolMode } from '../replay/plan.js'
export type { MatcherSignature } from '../vitest/rate-matchers.js'
export type { AttributionOptions } from '../attribute/options.js'
// The types a test names less often than the root's (what an agent is built from, the options of
// each claim, a step of a run), then the root's own types these reach in turn, and the results'
// types (`formats.SequentialVerdict`, with their schemas at `vitest-causal-replay/schemas`).
export type { AgentOrScenario } from '../agent/define-agent.js'
export type {
  Agent,
  AgentContext,
  AgentDefinition,
  DatasetScenario,
  Policy,
  Scenario,
  StepOptions,
  ToolOptions,
} from '../agent/types.js'
export type { DatasetOptions, DatasetSource } from '../dataset/define-dataset.js'
export type { Dataset, DatasetCase, DatasetRow } from '../dataset/schema.js'
export type { StepExpectation } from '../trajectory/step-matches.js'
export type { CalledToolsOptions, ToolCallPattern } from '../trajectory/tool-calls.js'
export type { CheckResult } from '../check/check.js'
export type { CheckOptions } from '../check/check-options.js'
export type { Claim } from '../check/claims.js'
export type { RateMatchers } from '../vitest/rate-matchers.js'
export type { ContextPath } from '../attribute/context-schema.js'
export type { Json } from '../json.js'
export type { Budget, BudgetLimits } from '../rollout/budget.js'
export type { SubAccountOptions } from '../rollout/budget-account.js'
export type { Predicate } from '../trajectory/queries.js'
export type { TrajectoryScorer } from '../trajectory/score-result.js'
export type { Observation, Step, Trajectory } from '../trajectory/schema.js'
export type {
  BaselineClaimOptions,
  NoWorseThanOptions,
  RarelyOptions,
  ScoreOptions,
  UsuallyOptions,
  ZeroToleranceOptions,
} from '../verdict/options.js'
export type { Verdict } from '../verdict/schema.js'
export type * as formats from './schemas.js'
