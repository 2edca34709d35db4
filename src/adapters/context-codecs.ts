// The context codecs of the adapters, in the order context attribution asks them. A module of its
// own, free of the SDKs: attribution reads a recorded context without loading any of them. The
// layer above hands them to attribution, which imports no adapter.
import type { ContextCodecs } from '../attribute/context/context-codec.js'
import { aiSdkContextCodec } from './ai-sdk/context-codec.js'
import { langchainContextCodec } from './langchain/context-codec.js'
import { openAiAgentsContextCodec } from './openai-agents/context-codec.js'

/**
 * Every adapter's codec, by the adapter's subpath. The AI SDK and LangChain both name their calls
 * `generate` / `stream`, and tell apart by `prompt` vs stored `messages`; the first codec that reads
 * a context lists its parts.
 */
export const CONTEXT_CODECS: ContextCodecs = {
  'ai-sdk': aiSdkContextCodec,
  langchain: langchainContextCodec,
  'openai-agents': openAiAgentsContextCodec,
}
