// `vitest-causal-replay/ai-sdk`: record and replay agents built on the Vercel AI SDK (`ai` 6.x). The adapter lives in src/adapters/ai-sdk; this entry adds
// the types it reaches, by name, as the root exports them (`core.AgentContext`).
export * from '../adapters/ai-sdk/index.js'
export type * as core from '../index.js'
