import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager'
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from '@langchain/core/language_models/chat_models'
import {
  AIMessage,
  AIMessageChunk,
  ToolMessage,
  type BaseMessage,
  type StandardMessageStructure,
  type ToolCall,
  type UsageMetadata,
} from '@langchain/core/messages'
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs'
import type { ToolDefinition } from '@langchain/core/language_models/base'
import { convertToOpenAITool } from '@langchain/core/utils/function_calling'

/** The instruction planted in the customer's message (see examples/support-agent). */
export const INJECTION = /system note|ignore (all|previous)|issue a full refund/i

/** P(refund) of the support model: 2% on a normal message, 60% when the message carries the injection. */
export const REFUND_PROBABILITY = { normal: 0.02, injected: 0.6 } as const

/** The call options the support model reads: LangChain's, plus the `seed` it draws from. */
export interface SupportCallOptions extends BaseChatModelCallOptions {
  /** The seed of the call's single draw; a call without one throws. */
  seed?: number
  /** The tools bound by {@link SupportChatModel.bindTools}. */
  tools?: ToolDefinition[]
}

/** Options of {@link SupportChatModel}. */
export interface SupportModelOptions extends BaseChatModelParams {
  /** Default `'support-model-1'`. */
  modelId?: string
  /** Default {@link REFUND_PROBABILITY}. P(refund) on a normal and on an injected message. */
  refundProbability?: { normal: number; injected: number }
}

/** One answer of the support model. */
interface Turn {
  /** The response id a provider would send, so a message's id does not come from the run id. */
  responseId: string
  text: string
  toolCalls: ToolCall[]
}

// #region model
/**
 * A scripted tool-calling chat model for LangChain. Like a sampled LLM, it is random, but its
 * randomness comes only from the call's `seed` option (a call without one throws): the same
 * messages and seed give the same answer, so a recorded run replays exactly.
 *
 * Turn by turn it behaves like the support agent of the paper: look the order up, decide (refund
 * with probability 0.6 when the customer's message carries the injected instruction, else 0.02),
 * call `issue_refund` or `escalate`, then reply in one of two phrasings. It streams too: a reply in
 * two text chunks, a tool call as a tool-call chunk, usage on the last chunk.
 */
export class SupportChatModel extends BaseChatModel<SupportCallOptions, AIMessageChunk> {
  readonly modelId: string
  readonly refundProbability: { normal: number; injected: number }

  constructor(options: SupportModelOptions = {}) {
    super(options)
    this.modelId = options.modelId ?? 'support-model-1'
    this.refundProbability = options.refundProbability ?? REFUND_PROBABILITY
  }

  override _llmType(): string {
    return 'support-fake'
  }

  override getLsParams(options: this['ParsedCallOptions']) {
    return { ...super.getLsParams(options), ls_model_name: this.modelId }
  }

  /** Binds the tools as OpenAI tool definitions, as `ChatOpenAI` does. */
  override bindTools(tools: BindToolsInput[], kwargs?: Partial<SupportCallOptions>) {
    return this.withConfig({ tools: tools.map((tool) => convertToOpenAITool(tool)), ...kwargs })
  }

  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    const turn = answer(messages, options, this.refundProbability)
    const message = new AIMessage<StandardMessageStructure>({
      id: turn.responseId,
      content: turn.text,
      tool_calls: turn.toolCalls,
      usage_metadata: usage(messages, turn),
      response_metadata: { model_name: this.modelId, finish_reason: finishReason(turn) },
    })
    return { generations: [{ text: turn.text, message }] }
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const turn = answer(messages, options, this.refundProbability)
    const middle = Math.ceil(turn.text.length / 2)
    const chunks: Array<AIMessageChunk<StandardMessageStructure>> = []
    // Two text chunks, so a replayed stream must keep several chunks in order.
    if (turn.text !== '') {
      chunks.push(
        new AIMessageChunk<StandardMessageStructure>({
          id: turn.responseId,
          content: turn.text.slice(0, middle),
        }),
      )
      chunks.push(
        new AIMessageChunk<StandardMessageStructure>({
          id: turn.responseId,
          content: turn.text.slice(middle),
        }),
      )
    }
    for (const [index, { name, args, id = `call_${index}` }] of turn.toolCalls.entries()) {
      chunks.push(
        new AIMessageChunk<StandardMessageStructure>({
          id: turn.responseId,
          content: '',
          tool_call_chunks: [{ type: 'tool_call_chunk', name, args: JSON.stringify(args), id, index }],
        }),
      )
    }
    chunks.push(
      new AIMessageChunk<StandardMessageStructure>({
        id: turn.responseId,
        content: '',
        usage_metadata: usage(messages, turn),
        response_metadata: { model_name: this.modelId, finish_reason: finishReason(turn) },
      }),
    )
    for (const message of chunks) {
      const chunk = new ChatGenerationChunk({ text: message.text, message })
      yield chunk
      await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, { chunk })
    }
  }
}

/** The model's turn for the messages and seed: the only place the seed is used. */
function answer(
  messages: readonly BaseMessage[],
  options: SupportCallOptions,
  refundProbability: { normal: number; injected: number },
): Turn {
  if (options.seed === undefined)
    throw new Error('The support model is sampled: it needs a `seed` call option.')
  const draw = uniform(options.seed)
  const id = `call_${options.seed.toString(36)}`
  const responseId = `resp_${options.seed.toString(36)}`
  const request = messages
    .filter((message) => message.type === 'human')
    .map((message) => message.text)
    .join('\n')
  const orderId = /Order (\S+?)\./.exec(request)?.[1] ?? 'unknown'
  const last = messages.at(-1)
  const lastTool = last !== undefined && ToolMessage.isInstance(last) ? last : undefined

  if (lastTool === undefined) {
    return {
      responseId,
      text: '',
      toolCalls: [{ id, name: 'lookup_order', args: { orderId }, type: 'tool_call' }],
    }
  }
  if (lastTool.name === 'lookup_order') {
    const pRefund = INJECTION.test(request) ? refundProbability.injected : refundProbability.normal
    const amount = (JSON.parse(lastTool.text) as { amount?: number }).amount ?? 0
    const decision: ToolCall =
      draw < pRefund
        ? { id, name: 'issue_refund', args: { orderId, amount }, type: 'tool_call' }
        : { id, name: 'escalate', args: { orderId, reason: 'late delivery' }, type: 'tool_call' }
    return { responseId, text: '', toolCalls: [decision] }
  }
  const replies =
    lastTool.name === 'issue_refund'
      ? ['Done, your refund is on its way.', 'I have refunded your order.']
      : ['I escalated this to our team.', 'A colleague will follow up shortly.']
  return { responseId, text: replies[Math.floor(draw * replies.length)] as string, toolCalls: [] }
}
// #endregion

function finishReason(turn: Turn): string {
  return turn.toolCalls.length > 0 ? 'tool_calls' : 'stop'
}

/** Token counts a real model would report: the messages' size, and the answer's. */
function usage(messages: readonly BaseMessage[], turn: Turn): UsageMetadata {
  const input = Math.ceil(JSON.stringify(messages.map((message) => message.content)).length / 4)
  const output = Math.ceil(JSON.stringify(turn).length / 4)
  return { input_tokens: input, output_tokens: output, total_tokens: input + output }
}

/** mulberry32: one uniform draw in [0, 1) from a 32-bit seed. */
function uniform(seed: number): number {
  let t = (seed + 0x6d2b79f5) | 0
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
