// What every adapter entry exports beside its own functions: the errors it throws and the types
// its options, interventions and judges reach.
export { CausalReplayError, JudgeError, MissingPeerDependencyError } from '../../errors.js'
export type { Intervention, ObservationSelector } from '../../replay/interventions.js'
export { DEFAULT_MODEL_STEP } from './model-call.js'
export type { JudgeAccuracy, JudgeCalibration } from '../../trajectory/judge-calibration.js'
export type { StepNamer } from '../../trajectory/step-name.js'
export type {
  CalibrateOptions,
  Judge,
  JudgeCalibrationReport,
  JudgeOptions,
  LabelledTrajectory,
} from './judge.js'
export type { PriceTable, TokenPrice } from './pricing.js'
export type { WrapToolsOptions } from './tool-options.js'
