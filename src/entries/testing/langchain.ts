// `vitest-causal-replay/testing/langchain`: a seeded, scripted model of LangChain (`@langchain/core` 1.x) for tests.
// It loads the SDK the way `vitest-causal-replay/langchain` does: without it, the import fails with a
// message that names the package to install.
export {
  scriptedModel,
  ScriptedChatModel,
  type ScriptedCallOptions,
} from '../../adapters/langchain/scripted-model.js'
export type * from '../testing.js'
// The class extends the SDK's `BaseChatModel` as loaded at run time, so its declaration names the
// loaded values; exported as a type only, it is part of the surface a reader reviews.
export type { langchain } from '../../adapters/langchain/sdk.js'
