// The provider types this adapter speaks, derived from `ai` itself. `ai` does not re-export them,
// and importing `@ai-sdk/provider` would make our published types depend on a package the user
// never installed directly (a strict package manager hides it): `ai` is the peer we declare.
import type { LanguageModel } from 'ai'

/** A model of the AI SDK's language model specification v3 (`ai` 6.x), e.g. `MockLanguageModelV3`. */
export type LanguageModelV3 = Extract<LanguageModel, { readonly specificationVersion: 'v3' }>
/** What `generateText` / `streamText` pass to `doGenerate` / `doStream`. */
export type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0]
/** What `doGenerate` returns. */
export type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>
/** What `doStream` returns. */
export type StreamResult = Awaited<ReturnType<LanguageModelV3['doStream']>>
/** One part of a `doStream` stream. */
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never
