// vitest-causal-replay: what a test is written with. An agent (`defineAgent`), predicates on its
// runs, claims about their rate or score, and `check`, which decides a claim and returns the
// verdict; the Vitest matchers make the same claims on `expect(agent)`. Everything here runs
// without Vitest. The rest has subpaths named for what it does: `/replay` (rollouts, recordings,
// interventions), `/attribution`, `/cassette`, `/errors`, `/schemas` (the file formats), `/stats`.

// The agent.
export { defineAgent, type AgentOrScenario } from './agent/define-agent.js'
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
export type { Json, JsonObject } from './json.js'
export type { Rng } from './random/streams.js'

// Predicates on a run.
export {
  allObservations,
  calledTool,
  findStep,
  findSteps,
  type AnyTrajectory,
  type Predicate,
  type TrajectoryPredicate,
} from './trajectory/queries.js'
export { and, not, or } from './trajectory/combinators.js'
export { stepMatches, type StepExpectation } from './trajectory/step-matches.js'
export {
  calledToolWith,
  calledTools,
  type CalledToolsOptions,
  type ToolCallPattern,
  type TrajectoryMatchMode,
} from './trajectory/tool-calls.js'
export type { TrajectoryScorer } from './trajectory/score-result.js'
export type { Observation, RolloutError, Step, StepSource, Trajectory } from './trajectory/schema.js'

// Claims, and `check`.
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
  type ClaimArguments,
  type ClaimKindTaking,
  type ClaimOptionTypes,
  type CLAIMS,
  type KnownOrJson,
  type PredicateFor,
  type RateClaim,
  type ScoreClaim,
  type ScorerFor,
} from './check/claims.js'
export { check, type CheckResult } from './check/check.js'
export type { CheckOptions } from './check/check-options.js'
export type { ReportFiles } from './check/report-files.js'
export { Budget, type BudgetLimits, type ModelSpend } from './rollout/budget.js'
export type { RateLimitOptions } from './rollout/rate-limit.js'
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
export type { Verdict } from './verdict/schema.js'
export type { ContrastiveResult } from './attribute/schema.js'
export type { ContextAttributionResult } from './attribute/context-schema.js'
export type { CassetteMode } from './cassette/mode.js'
export type { CassetteRedact } from './cassette/redact.js'
export type { ModelCallCharge } from './rollout/budget.js'
export type { ModelRateLimit } from './rollout/rate-limit.js'
export type { ContextAttributionOptions } from './attribute/context-options.js'
// Every type a result holds, by name (`formats.SequentialVerdict`); with their zod schemas at
// `vitest-causal-replay/schemas`.
export type { RolloutProgress } from './rollout/options.js'
export type { ToolMode } from './replay/plan.js'
export type * as formats from './entries/schemas.js'
// Type-only, so the root still loads nothing of Vitest at run time. Being in the root's .d.ts, it
// also brings the module's augmentation of Vitest's `Matchers` into every program that imports the
// root: `expect(agent).toRarely(…)` type-checks with no `types` entry. Without Vitest installed the
// augmentation is inert (see the module for how it stays free of errors without `skipLibCheck`).
export type { MatcherSignature, RateMatchers } from './vitest/rate-matchers.js'
export type { AttributionOptions } from './attribute/options.js'
export type { ContextAblation, CustomContextPart } from './attribute/context-options.js'
export type { CassettePart, CassetteRedactor } from './cassette/redact.js'
