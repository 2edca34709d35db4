// The adapter's SDK check first: without `ai`, importing this model says what to install.
import './sdk.js'
import {
  DEFAULT_SCRIPTED_MODEL_ID,
  runScript,
  scriptedId,
  scriptedUsage,
  toolResultValue,
  type Script,
  type ScriptedModelOptions,
  type ScriptedToolResult,
  type CheckedTurn,
} from '../shared/scripted-model.js'
import type { CallOptions, GenerateResult, LanguageModelV3, StreamPart } from './types.js'

type Message = CallOptions['prompt'][number]

/**
 * A seeded, scripted AI SDK model (`LanguageModelV3`) for tests: `script` decides each answer from
 * the conversation, drawing every random choice from the call's `seed` (which `wrapModel` sets to
 * the step's seed), so a run is random like a sampled model's and replays exactly. It answers
 * `doGenerate` and `doStream` alike, reports token usage (a token per four characters), and throws
 * when a call carries no seed.
 */
export function scriptedModel(script: Script, options: ScriptedModelOptions = {}): LanguageModelV3 {
  const modelId = options.modelId ?? DEFAULT_SCRIPTED_MODEL_ID
  const answer = (call: CallOptions): CheckedTurn =>
    runScript(
      script,
      modelId,
      { userText: userText(call.prompt), lastToolResult: lastToolResult(call.prompt) },
      call.seed,
      'the `seed` call option',
    )
  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId,
    supportedUrls: {},
    doGenerate: async (call) => generateResult(modelId, call, answer(call)),
    doStream: async (call) => {
      const parts = streamParts(generateResult(modelId, call, answer(call)))
      return {
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part)
            controller.close()
          },
        }),
      }
    },
  }
}

function generateResult(modelId: string, call: CallOptions, turn: CheckedTurn): GenerateResult {
  const seed = call.seed ?? 0
  const finish = 'toolCall' in turn ? 'tool-calls' : 'stop'
  const tokens = scriptedUsage(call.prompt, turn)
  return {
    content:
      'toolCall' in turn
        ? [
            {
              type: 'tool-call',
              toolCallId: scriptedId('call', seed),
              toolName: turn.toolCall.name,
              input: JSON.stringify(turn.toolCall.input),
            },
          ]
        : [{ type: 'text', text: turn.reply }],
    finishReason: { unified: finish, raw: finish },
    usage: {
      inputTokens: { total: tokens.input, noCache: tokens.input, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: tokens.output, text: tokens.output, reasoning: 0 },
    },
    response: { id: scriptedId('resp', seed), modelId },
    warnings: [],
  }
}

/** The stream of a generated result: its text as one delta, its tool call as one part. */
function streamParts(result: GenerateResult): StreamPart[] {
  const parts: StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', ...result.response },
  ]
  for (const content of result.content) {
    if (content.type === 'text') {
      parts.push(
        { type: 'text-start', id: 'text-0' },
        { type: 'text-delta', id: 'text-0', delta: content.text },
        { type: 'text-end', id: 'text-0' },
      )
    } else if (content.type === 'tool-call') parts.push(content)
  }
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage })
  return parts
}

function userText(prompt: readonly Message[]): string {
  return prompt
    .flatMap((message) => (message.role === 'user' ? message.content : []))
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
}

function lastToolResult(prompt: readonly Message[]): ScriptedToolResult | undefined {
  const message = prompt.at(-1)
  if (message?.role !== 'tool') return undefined
  const result = message.content.findLast((part) => part.type === 'tool-result')
  if (result === undefined) return undefined
  const { output } = result
  const value =
    output.type === 'json' || output.type === 'error-json'
      ? output.value
      : output.type === 'text' || output.type === 'error-text'
        ? toolResultValue(output.value)
        : null
  return { toolName: result.toolName, value: value as ScriptedToolResult['value'] }
}
