import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test'
import type { CallOptions, GenerateResult, StreamPart } from '../../src/adapters/ai-sdk/index.js'

/** The instruction planted in the customer's message (see examples/support-agent). */
export const INJECTION = /system note|ignore (all|previous)|issue a full refund/i

/** P(refund) of the support model: 2% on a normal message, 60% when the message carries the injection. */
export const REFUND_PROBABILITY = { normal: 0.02, injected: 0.6 } as const

type Message = CallOptions['prompt'][number]
type Content = GenerateResult['content'][number]

/** One answer of the support model: the content of its response. */
interface Turn {
  content: Content[]
  finish: 'tool-calls' | 'stop'
}

// #region model
/**
 * A scripted support model built on the AI SDK's own `MockLanguageModelV3`. Like a sampled LLM, it
 * is random, but its randomness comes only from the call's `seed` option (a call without one
 * throws): the same prompt and seed give the same answer, so a recorded run replays exactly.
 *
 * Turn by turn it behaves like the support agent of the paper: look the order up, decide (refund
 * with probability 0.6 when the customer's message carries the injected instruction, else 0.02),
 * call `issue_refund` or `escalate`, then reply in one of two phrasings.
 */
export function createSupportModel(options: SupportModelOptions = {}): MockLanguageModelV3 {
  const modelId = options.modelId ?? 'support-model-1'
  const pRefund = options.refundProbability ?? REFUND_PROBABILITY
  return new MockLanguageModelV3({
    provider: 'mock',
    modelId,
    doGenerate: async (call) => generateResult(modelId, call, answer(call, pRefund)),
    doStream: async (call) => ({
      stream: convertArrayToReadableStream(streamParts(modelId, call, answer(call, pRefund))),
    }),
  })
}

/** Options of {@link createSupportModel}. */
export interface SupportModelOptions {
  /** Default `'support-model-1'`. */
  modelId?: string
  /** Default {@link REFUND_PROBABILITY}. P(refund) on a normal and on an injected message. */
  refundProbability?: { normal: number; injected: number }
}

/** The model's turn for a prompt and seed: the only place the seed is used. */
function answer(options: CallOptions, refundProbability: { normal: number; injected: number }): Turn {
  if (options.seed === undefined)
    throw new Error('The support model is sampled: it needs a `seed` call option.')
  const draw = uniform(options.seed)
  const callId = `call_${options.seed.toString(36)}`
  const lastTool = lastToolResult(options.prompt)
  const request = userText(options.prompt)
  const orderId = /Order (\S+?)\./.exec(request)?.[1] ?? 'unknown'

  if (lastTool === undefined) {
    return { content: [toolCall(callId, 'lookup_order', { orderId })], finish: 'tool-calls' }
  }
  if (lastTool.toolName === 'lookup_order') {
    const pRefund = INJECTION.test(request) ? refundProbability.injected : refundProbability.normal
    const amount = (lastTool.value as { amount?: number } | undefined)?.amount ?? 0
    const decision =
      draw < pRefund
        ? toolCall(callId, 'issue_refund', { orderId, amount })
        : toolCall(callId, 'escalate', { orderId, reason: 'late delivery' })
    return { content: [decision], finish: 'tool-calls' }
  }
  const replies =
    lastTool.toolName === 'issue_refund'
      ? ['Done, your refund is on its way.', 'I have refunded your order.']
      : ['I escalated this to our team.', 'A colleague will follow up shortly.']
  return {
    content: [{ type: 'text', text: replies[Math.floor(draw * replies.length)] as string }],
    finish: 'stop',
  }
}
// #endregion

function generateResult(modelId: string, options: CallOptions, turn: Turn): GenerateResult {
  return {
    content: turn.content,
    finishReason: { unified: turn.finish, raw: turn.finish },
    usage: usage(options, turn),
    // A Date, as real providers return: the recording must bring it back as a Date.
    response: { id: `resp_${options.seed}`, modelId, timestamp: new Date(Date.UTC(2025, 0, 1)) },
    warnings: [],
  }
}

function streamParts(modelId: string, options: CallOptions, turn: Turn): StreamPart[] {
  const parts: StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    {
      type: 'response-metadata',
      id: `resp_${options.seed}`,
      modelId,
      timestamp: new Date(Date.UTC(2025, 0, 1)),
    },
  ]
  for (const content of turn.content) {
    if (content.type === 'text') {
      // Two deltas, so a replayed stream must keep several parts in order.
      const middle = Math.ceil(content.text.length / 2)
      parts.push(
        { type: 'text-start', id: 'text-0' },
        { type: 'text-delta', id: 'text-0', delta: content.text.slice(0, middle) },
        { type: 'text-delta', id: 'text-0', delta: content.text.slice(middle) },
        { type: 'text-end', id: 'text-0' },
      )
    } else {
      parts.push(content as StreamPart)
    }
  }
  parts.push({
    type: 'finish',
    finishReason: { unified: turn.finish, raw: turn.finish },
    usage: usage(options, turn),
  })
  return parts
}

/** Token counts a real model would report: the prompt's size, and the answer's. */
function usage(options: CallOptions, turn: Turn): GenerateResult['usage'] {
  const input = Math.ceil(JSON.stringify(options.prompt).length / 4)
  const output = Math.ceil(JSON.stringify(turn.content).length / 4)
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  }
}

function toolCall(toolCallId: string, toolName: string, input: object): Content {
  return { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }
}

function userText(prompt: readonly Message[]): string {
  return prompt
    .filter((message) => message.role === 'user')
    .flatMap((message) => message.content)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n')
}

function lastToolResult(prompt: readonly Message[]): { toolName: string; value: unknown } | undefined {
  const message = prompt.at(-1)
  if (message?.role !== 'tool') return undefined
  const result = message.content.findLast((part) => part.type === 'tool-result')
  if (result === undefined) return undefined
  const output = result.output
  return { toolName: result.toolName, value: output.type === 'json' ? output.value : undefined }
}

/** mulberry32: one uniform draw in [0, 1) from a 32-bit seed. */
function uniform(seed: number): number {
  let t = (seed + 0x6d2b79f5) | 0
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
