// `vitest-causal-replay/errors`: what the library throws. Tell them apart by `name` (or
// `isCausalReplayError`): `instanceof` fails across Vitest's worker and reporter boundary.
export {
  BudgetExceededError,
  CausalReplayError,
  InvalidDatasetError,
  InvalidFileError,
  InvalidOptionError,
  InvalidTrajectoryError,
  JudgeError,
  MaxStepsExceededError,
  MissingPeerDependencyError,
  NotJsonError,
  RateLimitStoreError,
  ReplayDivergenceError,
  RolloutAbortedError,
  RolloutTimeoutError,
  isCausalReplayError,
} from '../errors.js'
export { CassetteMissError } from '../cassette/miss-error.js'
export { CassetteTooLargeError } from '../cassette/too-large-error.js'
export type { DatasetProblem, InvalidOption } from '../errors.js'
