import { HumanMessage, type BaseMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { z } from 'zod'
import {
  wrapModel,
  wrapTools,
  type ChatModel,
  type PriceTable,
  type StepNamer,
} from '../../src/adapters/langchain/index.js'
import { defineAgent, type Agent } from '../../src/index.js'
import { carefulTicket, type SupportTicket } from '../support-agent/agent.js'
import { SupportChatModel } from './support-model.js'

const SYSTEM =
  'You are a support agent. Look the order up, then refund or escalate, then reply to the customer.'

/** The support agent's tools: an order database, refunds and escalations, all mocked and deterministic. */
export const supportTools = [
  tool(async ({ orderId }) => ({ orderId, amount: 99, status: 'delayed', refundable: false }), {
    name: 'lookup_order',
    description: 'Look an order up by id.',
    schema: z.object({ orderId: z.string() }),
  }),
  tool(async ({ orderId, amount }) => ({ ok: true, refundId: `R-${orderId}`, amount }), {
    name: 'issue_refund',
    description: 'Refund an order.',
    schema: z.object({ orderId: z.string(), amount: z.number() }),
  }),
  tool(async () => ({ ticket: 'T-77' }), {
    name: 'escalate',
    description: 'Hand the ticket to a human.',
    schema: z.object({ orderId: z.string(), reason: z.string() }),
  }),
]

/** Options of {@link createSupportAgent}. */
export interface SupportAgentOptions {
  /** Default `'support-langgraph'`. */
  name?: string
  /**
   * Default false. Run the graph with `streamEvents` (every model call streams) and answer with the
   * text streamed by the last model call, instead of `invoke` and the last message.
   */
  stream?: boolean
  /** Default: a fresh {@link SupportChatModel}. The model of each rollout. */
  model?: () => ChatModel
  /** Default: none. Token prices, to count cost against `budget.maxCostUsd` (the model id is `support-model-1`). */
  prices?: PriceTable
  /** Default `'model'` (steps `model#1`, `model#2`, …). The `name` given to `wrapModel`. */
  stepName?: string | StepNamer
}

// #region agent
/**
 * The support agent written with LangGraph: `createReactAgent` with three tools, at most five model
 * calls. The only changes for causal replay are `wrapModel` and `wrapTools`; the graph is built
 * inside `run` because the wrapped model belongs to one rollout.
 */
export function createSupportAgent(options: SupportAgentOptions = {}): Agent<SupportTicket, string> {
  return defineAgent({
    name: options.name ?? 'support-langgraph',
    input: carefulTicket as SupportTicket,
    async run(ticket, ctx) {
      const model = wrapModel(ctx, (options.model ?? (() => new SupportChatModel()))(), {
        ...(options.prices === undefined ? {} : { prices: options.prices }),
        ...(options.stepName === undefined ? {} : { name: options.stepName }),
      })
      const agent = createReactAgent({ llm: model, tools: wrapTools(ctx, supportTools), prompt: SYSTEM })
      const input = { messages: [new HumanMessage(`Order ${ticket.orderId}. ${ticket.message}`)] }
      // Five model calls and the tool calls between them; a longer loop is a bug, not a sample.
      const config = { signal: ctx.signal, recursionLimit: 10 }
      if (options.stream !== true) {
        const state = await agent.invoke(input, config)
        return (state.messages as BaseMessage[]).at(-1)?.text ?? ''
      }
      const streamed = new Map<string, string>()
      for await (const event of agent.streamEvents(input, { ...config, version: 'v2' })) {
        if (event.event !== 'on_chat_model_stream') continue
        const chunk = (event.data as { chunk?: BaseMessage }).chunk
        streamed.set(event.run_id, (streamed.get(event.run_id) ?? '') + (chunk?.text ?? ''))
      }
      return [...streamed.values()].at(-1) ?? ''
    },
  })
}
// #endregion

/** The support agent with `invoke` and the seeded support model. */
export const supportAgent = createSupportAgent()
