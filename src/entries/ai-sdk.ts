// `vitest-causal-replay/ai-sdk`: record and replay agents built on the Vercel AI SDK (`ai` 6.x). The adapter lives in src/adapters/ai-sdk; this entry adds
// the types it reaches, by name, as the root exports them (`core.AgentContext`).
export * from '../adapters/ai-sdk/index.js'
export type * as core from '../index.js'
// A wrapped model's `cassette` option takes the `Cassette` of `vitest-causal-replay/cassette`.
export type * as cassette from './cassette.js'
