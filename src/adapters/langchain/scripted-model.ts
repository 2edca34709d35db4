import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager'
import type { ToolDefinition } from '@langchain/core/language_models/base'
import type { BaseChatModelCallOptions, BindToolsInput } from '@langchain/core/language_models/chat_models'
import type {
  AIMessageChunk,
  BaseMessage,
  StandardMessageStructure,
  ToolCall,
  UsageMetadata,
} from '@langchain/core/messages'
import type { ChatGenerationChunk, ChatResult } from '@langchain/core/outputs'
import {
  DEFAULT_SCRIPTED_MODEL_ID,
  runScript,
  scriptedId,
  scriptedUsage,
  toolResultValue,
  type Script,
  type ScriptedModelOptions,
  type CheckedTurn,
} from '../shared/scripted-model.js'
import { langchain } from './sdk.js'

/** The call options a scripted chat model reads: LangChain's, the `seed` it draws from, the bound tools. */
export interface ScriptedCallOptions extends BaseChatModelCallOptions {
  /** The seed of the call's draws, which `wrapModel` sets to the step's seed; a call without one throws. */
  seed?: number
  /** The tools bound by `bindTools`, as OpenAI tool definitions. */
  tools?: ToolDefinition[]
}

/**
 * A seeded, scripted LangChain chat model for tests (what {@link scriptedModel} returns): a
 * `BaseChatModel` that binds tools as `ChatOpenAI` does, so `createReactAgent` and `createAgent`
 * accept it, and that streams (a reply as one text chunk, a tool call as a tool-call chunk, usage on
 * the last chunk).
 */
export class ScriptedChatModel extends langchain.BaseChatModel<ScriptedCallOptions, AIMessageChunk> {
  /** The model id it reports (`ls_model_name`), which cassettes and price tables key on. */
  readonly modelId: string
  readonly #script: Script

  /** Prefer {@link scriptedModel}. */
  constructor(script: Script, options: ScriptedModelOptions = {}) {
    super({})
    this.#script = script
    this.modelId = options.modelId ?? DEFAULT_SCRIPTED_MODEL_ID
  }

  override _llmType(): string {
    return 'scripted'
  }

  override getLsParams(options: this['ParsedCallOptions']) {
    return { ...super.getLsParams(options), ls_model_name: this.modelId }
  }

  /** Binds the tools as OpenAI tool definitions, as `ChatOpenAI` does. */
  override bindTools(tools: BindToolsInput[], kwargs?: Partial<ScriptedCallOptions>) {
    return this.withConfig({ tools: tools.map((tool) => langchain.convertToOpenAITool(tool)), ...kwargs })
  }

  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    const answer = this.#answer(messages, options)
    const message = new langchain.AIMessage<StandardMessageStructure>(answer)
    return { generations: [{ text: message.text, message }] }
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const { id, content, tool_calls, usage_metadata, response_metadata } = this.#answer(messages, options)
    const chunks = [
      ...(content === '' ? [] : [new langchain.AIMessageChunk<StandardMessageStructure>({ id, content })]),
      ...tool_calls.map(
        ({ name, args, id: callId = 'call' }, index) =>
          new langchain.AIMessageChunk<StandardMessageStructure>({
            id,
            content: '',
            tool_call_chunks: [
              { type: 'tool_call_chunk', name, args: JSON.stringify(args), id: callId, index },
            ],
          }),
      ),
      new langchain.AIMessageChunk<StandardMessageStructure>({
        id,
        content: '',
        usage_metadata,
        response_metadata,
      }),
    ]
    for (const message of chunks) {
      const chunk = new langchain.ChatGenerationChunk({ text: message.text, message })
      yield chunk
      await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, { chunk })
    }
  }

  /** The fields of the answer's message: the script's turn for these messages and the call's seed. */
  #answer(messages: readonly BaseMessage[], options: ScriptedCallOptions) {
    const last = messages.at(-1)
    const turn: CheckedTurn = runScript(
      this.#script,
      this.modelId,
      {
        userText: messages
          .filter((message) => message.type === 'human')
          .map((message) => message.text)
          .join('\n'),
        lastToolResult:
          last?.type === 'tool'
            ? { toolName: last.name ?? '', value: toolResultValue(last.text) }
            : undefined,
      },
      options.seed,
      'the `seed` call option',
    )
    const seed = options.seed ?? 0
    const toolCalls: ToolCall[] =
      'toolCall' in turn
        ? [
            {
              type: 'tool_call',
              id: scriptedId('call', seed),
              name: turn.toolCall.name,
              args: turn.toolCall.input,
            },
          ]
        : []
    const tokens = scriptedUsage(
      messages.map((message) => message.content),
      turn,
    )
    const usage: UsageMetadata = {
      input_tokens: tokens.input,
      output_tokens: tokens.output,
      total_tokens: tokens.input + tokens.output,
    }
    return {
      id: scriptedId('resp', seed),
      content: 'reply' in turn ? turn.reply : '',
      tool_calls: toolCalls,
      usage_metadata: usage,
      response_metadata: {
        model_name: this.modelId,
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    }
  }
}

/**
 * A seeded, scripted LangChain chat model for tests: `script` decides each answer from the
 * messages, drawing every random choice from the call's `seed` option (which `wrapModel` sets to
 * the step's seed), so a run is random like a sampled model's and replays exactly. It reports
 * token usage (a token per four characters) and throws when a call carries no seed.
 */
export function scriptedModel(script: Script, options: ScriptedModelOptions = {}): ScriptedChatModel {
  return new ScriptedChatModel(script, options)
}
