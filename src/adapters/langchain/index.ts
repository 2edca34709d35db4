// vitest-causal-replay/langchain: record and replay agents built on LangChain.js and LangGraph.js
// (`@langchain/core` 1.x chat models and tools; `createReactAgent` and other graphs use them as is).
import './sdk.js'

export { judge, type LangChainJudgeOptions } from './judge.js'
export { swapModel, type SwapModelOptions } from './swap-model.js'
export type { CallOptions, ChatModel } from './types.js'
export { DEFAULT_MODEL_STEP, wrapModel, type WrapModelOptions } from './wrap-model.js'
export { wrapTools } from './wrap-tools.js'
export { CausalReplayError, JudgeError, MissingPeerDependencyError } from '../../errors.js'
export type { StepNamer } from '../../trajectory/step-name.js'
export type { PriceTable, TokenPrice } from '../shared/pricing.js'
export type { WrapToolsOptions } from '../shared/tool-options.js'
export type { Intervention, ObservationSelector } from '../../replay/interventions.js'
export {
  type CalibrateOptions,
  type Judge,
  type JudgeCalibrationReport,
  type JudgeOptions,
  type LabelledTrajectory,
} from '../shared/judge.js'
export type { JudgeAccuracy, JudgeCalibration } from '../../trajectory/judge-calibration.js'
