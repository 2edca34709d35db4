// vitest-causal-replay/ai-sdk: record and replay agents built on the Vercel AI SDK (`ai` 6.x).
import './sdk.js'

export { judge } from './judge.js'
export { swapModel } from './swap-model.js'
export type { SwapModelOptions } from '../shared/model-call.js'
export type { CallOptions, GenerateResult, LanguageModelV3, StreamPart, StreamResult } from './types.js'
export { wrapModel, type WrapModelOptions } from './wrap-model.js'
export { wrapTools } from './wrap-tools.js'
export * from '../shared/adapter-exports.js'
