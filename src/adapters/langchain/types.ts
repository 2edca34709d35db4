// The LangChain types this adapter speaks, from `@langchain/core` itself (the peer we declare).
import type { BaseChatModel } from '@langchain/core/language_models/chat_models'

/** A LangChain chat model (`@langchain/core` 1.x): `ChatOpenAI`, `ChatAnthropic`, a `BaseChatModel` subclass. */
export type ChatModel = BaseChatModel
/** What a chat model's `_generate` and `_streamResponseChunks` receive besides the messages. */
export type CallOptions = BaseChatModel['ParsedCallOptions']
// A message of a conversation; one generation of what `_generate` returns, and all of it; one chunk of `_streamResponseChunks`.
export type { BaseMessage } from '@langchain/core/messages'
export type { ChatGeneration, ChatGenerationChunk, ChatResult } from '@langchain/core/outputs'
