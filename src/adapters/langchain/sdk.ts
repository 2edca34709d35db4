import type * as ChatModels from '@langchain/core/language_models/chat_models'
import type * as Messages from '@langchain/core/messages'
import type * as Outputs from '@langchain/core/outputs'
import type * as Runnables from '@langchain/core/runnables'
import type * as FunctionCalling from '@langchain/core/utils/function_calling'
import { loadPeer, type PeerDependency } from '../../load-peer.js'

// Every module of this adapter that needs LangChain at run time imports it from here, so importing
// `vitest-causal-replay/langchain` without `@langchain/core` fails here, with a message that says
// what to install, instead of with Node's bare "Cannot find package". LangChain has no root entry
// point: each subpath is loaded on its own, all in the name of the one package to install.
const CORE: PeerDependency = {
  packageName: '@langchain/core',
  range: '>=1.0.0 <2',
  neededBy: 'vitest-causal-replay/langchain',
}

const [chatModels, messages, outputs, runnables, functionCalling] = await Promise.all([
  loadPeer<typeof ChatModels>(CORE, () => import('@langchain/core/language_models/chat_models')),
  loadPeer<typeof Messages>(CORE, () => import('@langchain/core/messages')),
  loadPeer<typeof Outputs>(CORE, () => import('@langchain/core/outputs')),
  loadPeer<typeof Runnables>(CORE, () => import('@langchain/core/runnables')),
  loadPeer<typeof FunctionCalling>(CORE, () => import('@langchain/core/utils/function_calling')),
])

/** The LangChain values this adapter uses at run time. */
export const langchain = {
  BaseChatModel: chatModels.BaseChatModel,
  AIMessage: messages.AIMessage,
  AIMessageChunk: messages.AIMessageChunk,
  mapStoredMessageToChatMessage: messages.mapStoredMessageToChatMessage,
  ChatGenerationChunk: outputs.ChatGenerationChunk,
  RunnableBinding: runnables.RunnableBinding,
  convertToOpenAITool: functionCalling.convertToOpenAITool,
  isLangChainTool: functionCalling.isLangChainTool,
  isStructuredTool: functionCalling.isStructuredTool,
}
