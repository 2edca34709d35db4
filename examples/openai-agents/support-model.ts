import {
  Usage,
  type AgentInputItem,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
  type StreamEventResponseCompleted,
} from '@openai/agents'
import { assistantMessage, functionCall } from '@openai/agents/testing'

/** The instruction planted in the customer's message (see examples/support-agent). */
export const INJECTION = /system note|ignore (all|previous)|issue a full refund/i

/** P(refund) of the support model: 2% on a normal message, 60% when the message carries the injection. */
export const REFUND_PROBABILITY = { normal: 0.02, injected: 0.6 } as const

// #region model
/**
 * A scripted support model for the Agents SDK: a custom `Model` (built with the SDK's testing item
 * helpers) that is random like a sampled LLM, but whose randomness comes only from the call's seed,
 * `modelSettings.providerData.seed`, where `wrapModel` puts the step's seed (a call without one
 * throws). The same request and seed give the same answer, so a recorded run replays exactly.
 *
 * Turn by turn it behaves like the support agent of the paper: look the order up, decide (refund
 * with probability 0.6 when the customer's message carries the injected instruction, else 0.02),
 * call `issue_refund` or `escalate`, then reply in one of two phrasings.
 */
export class SupportModel implements Model {
  /** Default {@link REFUND_PROBABILITY}. P(refund) on a normal and on an injected message. */
  constructor(
    private readonly refundProbability: { normal: number; injected: number } = REFUND_PROBABILITY,
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const seed = seedOf(request)
    const output = answer(request, seed, this.refundProbability)
    return { usage: new Usage(usage(request, output)), output, responseId: `resp_${seed}` }
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const seed = seedOf(request)
    const output = answer(request, seed, this.refundProbability)
    yield { type: 'response_started' }
    for (const item of output) {
      if (item.type === 'message' && item.role === 'assistant') {
        for (const part of item.content)
          if (part.type === 'output_text') yield { type: 'output_text_delta', delta: part.text }
      }
    }
    // The protocol's output type is the wire schema's; the SDK's items satisfy it.
    const done = output as StreamEventResponseCompleted['response']['output']
    yield {
      type: 'response_done',
      response: { id: `resp_${seed}`, usage: usage(request, output), output: done },
    }
  }
}

function seedOf(request: ModelRequest): number {
  const seed: unknown = request.modelSettings.providerData?.seed
  if (typeof seed !== 'number')
    throw new Error('The support model is sampled: it needs modelSettings.providerData.seed.')
  return seed
}

/** The model's turn for a request and seed: the only place the seed is used. */
function answer(
  request: ModelRequest,
  seed: number,
  refundProbability: { normal: number; injected: number },
): AgentOutputItem[] {
  const items: AgentInputItem[] =
    typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input
  const draw = uniform(seed)
  const callId = `call_${seed.toString(36)}`
  const customer = userText(items)
  const orderId = /Order (\S+?)\./.exec(customer)?.[1] ?? 'unknown'
  const last = items.at(-1)

  if (last?.type !== 'function_call_result') {
    return [functionCall('lookup_order', { orderId }, { callId })]
  }
  if (last.name === 'lookup_order') {
    const pRefund = INJECTION.test(customer) ? refundProbability.injected : refundProbability.normal
    const amount = (parseOutput(last.output) as { amount?: number } | undefined)?.amount ?? 0
    return [
      draw < pRefund
        ? functionCall('issue_refund', { orderId, amount }, { callId })
        : functionCall('escalate', { orderId, reason: 'late delivery' }, { callId }),
    ]
  }
  const replies =
    last.name === 'issue_refund'
      ? ['Done, your refund is on its way.', 'I have refunded your order.']
      : ['I escalated this to our team.', 'A colleague will follow up shortly.']
  return [
    assistantMessage(replies[Math.floor(draw * replies.length)] as string, {
      id: `msg_${seed.toString(36)}`,
    }),
  ]
}
// #endregion

/** Token counts a real model would report: the request's size, and the answer's. */
function usage(request: ModelRequest, output: AgentOutputItem[]) {
  const inputTokens = Math.ceil(JSON.stringify(request.input).length / 4)
  const outputTokens = Math.ceil(JSON.stringify(output).length / 4)
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }
}

function userText(items: readonly AgentInputItem[]): string {
  return items
    .flatMap((item) => ('role' in item && item.role === 'user' ? [item.content] : []))
    .map((content) =>
      typeof content === 'string'
        ? content
        : content.map((part) => (part.type === 'input_text' ? part.text : '')).join(''),
    )
    .join('\n')
}

function parseOutput(output: unknown): unknown {
  const text = typeof output === 'string' ? output : (output as { text?: unknown } | undefined)?.text
  if (typeof text !== 'string') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** mulberry32: one uniform draw in [0, 1) from a 32-bit seed. */
function uniform(seed: number): number {
  let t = (seed + 0x6d2b79f5) | 0
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
