import type {
  AgentInputItem,
  AgentOutputItem,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
  StreamEventResponseCompleted,
} from '@openai/agents'
import {
  DEFAULT_SCRIPTED_MODEL_ID,
  runScript,
  scriptedId,
  scriptedUsage,
  toolResultValue,
  type Script,
  type ScriptedModelOptions,
  type ScriptedToolResult,
} from '../shared/scripted-model.js'
import { Usage } from './sdk.js'

/**
 * A seeded, scripted Agents SDK `Model` for tests: `script` decides each answer from the request,
 * drawing every random choice from the call's seed, `modelSettings.providerData.seed` (where
 * `wrapModel` puts the step's seed), so a run is random like a sampled model's and replays exactly.
 * It answers `getResponse` and `getStreamedResponse` alike, reports token usage (a token per four
 * characters), and throws when a call carries no seed.
 */
export function scriptedModel(script: Script, options: ScriptedModelOptions = {}): Model {
  const modelId = options.modelId ?? DEFAULT_SCRIPTED_MODEL_ID
  const respond = (request: ModelRequest) => {
    const items: AgentInputItem[] =
      typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input
    const seed = request.modelSettings.providerData?.['seed'] as unknown
    const turn = runScript(
      script,
      modelId,
      { userText: userText(items), lastToolResult: lastToolResult(items) },
      seed,
      'modelSettings.providerData.seed',
    )
    const at = seed as number
    const output: AgentOutputItem[] = [
      'toolCall' in turn
        ? {
            type: 'function_call',
            id: scriptedId('call', at),
            callId: scriptedId('call', at),
            name: turn.toolCall.name,
            arguments: JSON.stringify(turn.toolCall.input),
            status: 'completed',
          }
        : {
            type: 'message',
            id: scriptedId('msg', at),
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: turn.reply }],
          },
    ]
    const tokens = scriptedUsage(request.input, turn)
    const usage = {
      inputTokens: tokens.input,
      outputTokens: tokens.output,
      totalTokens: tokens.input + tokens.output,
    }
    return { output, usage, responseId: scriptedId('resp', at) }
  }
  return {
    async getResponse(request): Promise<ModelResponse> {
      const { output, usage, responseId } = respond(request)
      return { output, usage: new Usage(usage), responseId }
    },
    async *getStreamedResponse(request): AsyncIterable<StreamEvent> {
      const { output, usage, responseId } = respond(request)
      yield { type: 'response_started' }
      for (const item of output) {
        if (item.type !== 'message' || item.role !== 'assistant') continue
        for (const part of item.content) {
          if (part.type === 'output_text') yield { type: 'output_text_delta', delta: part.text }
        }
      }
      // The protocol's output type is the wire schema's; the SDK's items satisfy it.
      const done = output as StreamEventResponseCompleted['response']['output']
      yield { type: 'response_done', response: { id: responseId, usage, output: done } }
    },
  }
}

function userText(items: readonly AgentInputItem[]): string {
  return items
    .flatMap((item) => ('role' in item && item.role === 'user' ? [item.content] : []))
    .map((content) =>
      typeof content === 'string'
        ? content
        : content.flatMap((part) => (part.type === 'input_text' ? [part.text] : [])).join(''),
    )
    .join('\n')
}

function lastToolResult(items: readonly AgentInputItem[]): ScriptedToolResult | undefined {
  const last = items.at(-1)
  if (last?.type !== 'function_call_result') return undefined
  const { output } = last
  // A function tool's result is its return value as text; other outputs (images, files) are shown as JSON.
  const text =
    typeof output === 'string'
      ? output
      : !Array.isArray(output) && output.type === 'text'
        ? output.text
        : JSON.stringify(output)
  return { toolName: last.name, value: toolResultValue(text) }
}
