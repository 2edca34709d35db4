// vitest-causal-replay: what a test is written with. An agent (`defineAgent`), predicates on its
// runs, claims about their rate or score, and `check`, which decides a claim and returns the
// verdict; the Vitest matchers make the same claims on `expect(agent)`. Everything here runs
// without Vitest. The rest has subpaths named for what it does: `/replay` (rollouts, recordings,
// interventions), `/attribution`, `/cassette`, `/errors`, `/schemas` (the file formats), `/stats`,
// and `/types` (every other type the functions here reach).

// The agent.
export { defineAgent } from './agent/define-agent.js'
export type { Agent, AgentContext } from './agent/types.js'

// The cases an agent runs over (`agent.over(dataset)`).
export { defineDataset } from './entries/define-dataset.js'
export type { Dataset } from './dataset/schema.js'

// Predicates on a run.
export { allObservations, calledTool, findStep, findSteps, type Predicate } from './trajectory/queries.js'
export { and, not, or } from './trajectory/combinators.js'
export { stepMatches } from './trajectory/step-matches.js'
export { calledToolWith, calledTools } from './trajectory/tool-calls.js'
export type { Trajectory } from './trajectory/schema.js'

// Claims, and `check`.
export {
  always,
  matchesBaseline,
  never,
  noWorseThan,
  rarely,
  scoresAtLeast,
  scoresAtMost,
  sometimes,
  usually,
  type Claim,
} from './check/claims.js'
export { check } from './entries/check.js'
export type { CheckResult } from './check/check.js'
export { Budget } from './rollout/budget.js'
export type { Verdict } from './verdict/schema.js'
// Every other type the functions above reach, by name (`types.RarelyOptions`, and the results'
// parts as `types.formats.SequentialVerdict`), also flat at `vitest-causal-replay/types`. One
// namespace rather than thirty names keeps the root to what a test is written with.
export type * as types from './entries/types.js'
// Type-only, so the root still loads nothing of Vitest at run time. Being in the root's .d.ts, it
// also brings the module's augmentation of Vitest's `Matchers` into every program that imports the
// root: `expect(agent).toRarely(…)` type-checks with no `types` entry. Without Vitest installed the
// augmentation is inert (see the module for how it stays free of errors without `skipLibCheck`).
export type { RateMatchers } from './vitest/rate-matchers.js'
