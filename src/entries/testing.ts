// `vitest-causal-replay/testing`: what the adapters' scripted models share, the script a test writes.
// The models themselves are one subpath per SDK (`/testing/ai-sdk`, `/testing/openai-agents`,
// `/testing/langchain`), so a project loads only the SDK it uses; this entry loads none.
export type {
  Script,
  ScriptedCall,
  ScriptedModelOptions,
  ScriptedToolCall,
  ScriptedToolResult,
  ScriptedTurn,
} from '../adapters/shared/scripted-model.js'
export type { Json, JsonObject } from '../json.js'
