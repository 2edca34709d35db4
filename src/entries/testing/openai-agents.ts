// `vitest-causal-replay/testing/openai-agents`: a seeded, scripted model of the OpenAI Agents SDK (`@openai/agents`) for tests.
// It loads the SDK the way `vitest-causal-replay/openai-agents` does: without it, the import fails with a
// message that names the package to install.
export { scriptedModel } from '../../adapters/openai-agents/scripted-model.js'
export type * from '../testing.js'
