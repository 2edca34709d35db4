// `vitest-causal-replay/testing/ai-sdk`: a seeded, scripted model of the Vercel AI SDK (`ai` 6.x) for tests.
// It loads the SDK the way `vitest-causal-replay/ai-sdk` does: without it, the import fails with a
// message that names the package to install.
export { scriptedModel } from '../../adapters/ai-sdk/scripted-model.js'
export type { LanguageModelV3 } from '../../adapters/ai-sdk/types.js'
export type * from '../testing.js'
