// `vitest-causal-replay/langchain`: record and replay LangChain / LangGraph agents. The adapter lives in src/adapters/langchain; this entry adds
// the types it reaches, by name, as the root exports them (`core.AgentContext`).
export * from '../adapters/langchain/index.js'
export type * as core from '../index.js'
// A wrapped model's `cassette` option takes the `Cassette` of `vitest-causal-replay/cassette`.
export type * as cassette from './cassette.js'
