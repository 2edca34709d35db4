// vitest-causal-replay/langchain: record and replay agents built on LangChain.js and LangGraph.js
// (`@langchain/core` 1.x chat models and tools; `createReactAgent` and other graphs use them as is).
import './sdk.js'

export { judge, type LangChainJudgeOptions } from './judge.js'
export { swapModel } from './swap-model.js'
export type { SwapModelOptions } from '../shared/model-call.js'
export type { CallOptions, ChatModel } from './types.js'
export { wrapModel, type WrapModelOptions } from './wrap-model.js'
export { wrapTools } from './wrap-tools.js'
export * from '../shared/adapter-exports.js'
