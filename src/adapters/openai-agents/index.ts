// vitest-causal-replay/openai-agents: record and replay agents built on the OpenAI Agents SDK.
import './sdk.js'

export type { SeedOption } from './model-policy.js'
export { judge, type AgentsJudgeOptions } from './judge.js'
export { swapModel, type SwapModelOptions } from './swap-model.js'
export { wrapModel, type WrapModelOptions } from './wrap-model.js'
export { wrapTools } from './wrap-tools.js'
export * from '../shared/adapter-exports.js'
