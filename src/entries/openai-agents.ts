// `vitest-causal-replay/openai-agents`: record and replay agents built on the OpenAI Agents SDK. The adapter lives in src/adapters/openai-agents; this entry adds
// the types it reaches, by name, as the root exports them (`core.AgentContext`).
export * from '../adapters/openai-agents/index.js'
export type * as core from '../index.js'
// A wrapped model's `cassette` option takes the `Cassette` of `vitest-causal-replay/cassette`.
export type * as cassette from './cassette.js'
