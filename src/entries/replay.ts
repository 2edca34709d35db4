// `vitest-causal-replay/replay`: running an agent outside a claim. Rollouts under a budget,
// recordings on disk, and replays of a recording with an intervention (hold, force, resample, edit
// a context, replace an observation, swap a policy).
export { isAgent, isScenario } from '../agent/define-agent.js'
export {
  editContext,
  forceAction,
  hold,
  replaceObservation,
  resample,
  swapPolicy,
  type Intervention,
  type ObservationSelector,
} from '../replay/interventions.js'
export type { ToolMode } from '../replay/plan.js'
export { record, replay, type RecordOptions, type ReplayOptions } from '../replay/replay.js'
export type { RolloutOptions, RolloutProgress } from '../rollout/options.js'
export { RolloutSet, type RolloutFailure, type ScoredOutcome, type Scorer } from '../rollout/rollout-set.js'
export { runRollouts } from '../rollout/run-rollouts.js'
export { readTrajectory, writeTrajectory } from '../trajectory/file.js'
export type { MeanScoreOptions } from '../stats/index.js'
// The types the functions above reach, by name, as the root exports them (`core.Trajectory`).
export type * as core from '../index.js'
