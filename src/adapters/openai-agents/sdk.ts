import type * as AgentsSdk from '@openai/agents'
import type { ClassCodec } from '../shared/json-codec.js'
import { loadPeer } from '../../load-peer.js'

// Every module of this adapter that needs the SDK at run time imports it from here, so importing
// `vitest-causal-replay/openai-agents` without `@openai/agents` fails here, with a message that
// says what to install, instead of with Node's bare "Cannot find package".
const sdk = await loadPeer<typeof AgentsSdk>({
  packageName: '@openai/agents',
  range: '>=0.20.0 <1',
  neededBy: 'vitest-causal-replay/openai-agents',
})

/** The SDK's data classes that model responses carry: revived by prototype after a JSON round trip. */
export const SDK_CLASSES: readonly ClassCodec[] = [
  // RequestUsage first: an entry of `Usage.requestUsageEntries` must not match a broader class.
  { name: 'RequestUsage', ctor: sdk.RequestUsage },
  { name: 'Usage', ctor: sdk.Usage },
]

/** The SDK's `Usage` class, which a model response's `usage` must be (the runner adds them up). */
export const Usage = sdk.Usage

/** True for the SDK's Responses API model, whose API rejects a `seed` parameter. */
export function isResponsesApiModel(model: object): boolean {
  return model instanceof sdk.OpenAIResponsesModel
}
