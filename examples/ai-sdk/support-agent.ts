import { generateText, stepCountIs, streamText, tool } from 'ai'
import { z } from 'zod'
import {
  wrapModel,
  wrapTools,
  type LanguageModelV3,
  type PriceTable,
  type StepNamer,
} from '../../src/adapters/ai-sdk/index.js'
import { defineAgent, type Agent } from '../../src/index.js'
import { carefulTicket, type SupportTicket } from '../support-agent/agent.js'
import { createSupportModel } from './support-model.js'

const SYSTEM =
  'You are a support agent. Look the order up, then refund or escalate, then reply to the customer.'

/** The support agent's tools: an order database, refunds and escalations, all mocked and deterministic. */
export const supportTools = {
  lookup_order: tool({
    description: 'Look an order up by id.',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => ({ orderId, amount: 99, status: 'delayed', refundable: false }),
  }),
  issue_refund: tool({
    description: 'Refund an order.',
    inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
    execute: async ({ orderId, amount }) => ({ ok: true, refundId: `R-${orderId}`, amount }),
  }),
  escalate: tool({
    description: 'Hand the ticket to a human.',
    inputSchema: z.object({ orderId: z.string(), reason: z.string() }),
    execute: async () => ({ ticket: 'T-77' }),
  }),
}

/** Options of {@link createSupportAgent}. */
export interface SupportAgentOptions {
  /** Default `'support-ai-sdk'`. */
  name?: string
  /** Default false. Use `streamText` instead of `generateText`. */
  stream?: boolean
  /** Default: a fresh {@link createSupportModel}. The model of each rollout. */
  model?: () => LanguageModelV3
  /** Default: none. Token prices, to count cost against `budget.maxCostUsd`. */
  prices?: PriceTable
  /** Default 2 (the AI SDK's own default). Passed to generateText/streamText. */
  maxRetries?: number
  /** Default `'model'` (steps `model#1`, `model#2`, …). The `name` given to `wrapModel`. */
  stepName?: string | StepNamer
}

// #region agent
/**
 * The support agent written with the AI SDK: one `generateText` (or `streamText`) tool loop of at
 * most five model calls. The only changes for causal replay are `wrapModel` and `wrapTools`.
 */
export function createSupportAgent(options: SupportAgentOptions = {}): Agent<SupportTicket, string> {
  return defineAgent({
    name: options.name ?? 'support-ai-sdk',
    input: carefulTicket as SupportTicket,
    async run(ticket, ctx) {
      const model = wrapModel(ctx, (options.model ?? createSupportModel)(), {
        ...(options.prices === undefined ? {} : { prices: options.prices }),
        ...(options.stepName === undefined ? {} : { name: options.stepName }),
      })
      const settings = {
        model,
        tools: wrapTools(ctx, supportTools),
        system: SYSTEM,
        prompt: `Order ${ticket.orderId}. ${ticket.message}`,
        stopWhen: stepCountIs(5),
        maxRetries: options.maxRetries ?? 2,
        abortSignal: ctx.signal,
      }
      if (options.stream === true) {
        // streamText reports a failed model call as a stream error and may still resolve the text
        // of the steps before it. A failed call fails the run (an error outcome), with its own
        // message rather than "No output generated".
        let streamError: unknown
        const result = streamText({ ...settings, onError: ({ error }) => void (streamError ??= error) })
        let text: string
        try {
          text = await result.text
        } catch (error) {
          throw streamError ?? error
        }
        if (streamError !== undefined) throw streamError
        return text
      }
      const result = await generateText(settings)
      return result.text
    },
  })
}
// #endregion

/** The support agent with `generateText` and the seeded mock model. */
export const supportAgent = createSupportAgent()
