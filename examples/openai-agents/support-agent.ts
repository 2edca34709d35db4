import { Agent, run, tool, type Model, type ModelSettings } from '@openai/agents'
import { z } from 'zod'
import {
  wrapModel,
  wrapTools,
  type PriceTable,
  type StepNamer,
} from '../../src/adapters/openai-agents/index.js'
import { defineAgent, type Agent as CausalAgent } from '../../src/index.js'
import { carefulTicket, type SupportTicket } from '../support-agent/agent.js'
import { SupportModel } from './support-model.js'

const INSTRUCTIONS =
  'You are a support agent. Look the order up, then refund or escalate, then reply to the customer.'

/** The support agent's tools: an order database, refunds and escalations, all mocked and deterministic. */
export const supportTools = [
  tool({
    name: 'lookup_order',
    description: 'Look an order up by id.',
    parameters: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => ({ orderId, amount: 99, status: 'delayed', refundable: false }),
  }),
  tool({
    name: 'issue_refund',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    execute: async ({ orderId, amount }) => ({ ok: true, refundId: `R-${orderId}`, amount }),
  }),
  tool({
    name: 'escalate',
    description: 'Hand the ticket to a human.',
    parameters: z.object({ orderId: z.string(), reason: z.string() }),
    execute: async () => ({ ticket: 'T-77' }),
  }),
]

/** Options of {@link createSupportAgent}. */
export interface SupportAgentOptions {
  /** Default `'support-openai-agents'`. */
  name?: string
  /** Default false. Run with `stream: true` (the model's `getStreamedResponse`). */
  stream?: boolean
  /** Default: a fresh {@link SupportModel}. The model of each rollout. */
  model?: () => Model
  /** Default: none. Token prices, to count cost against `budget.maxCostUsd` (the model id is `support-model-1`). */
  prices?: PriceTable
  /** Default: none. The agent's model settings (e.g. `retry`). */
  modelSettings?: ModelSettings
  /** Default `'model'` (steps `model#1`, `model#2`, …). The `name` given to `wrapModel`. */
  stepName?: string | StepNamer
}

// #region agent
/**
 * The support agent written with the OpenAI Agents SDK: an `Agent` with three function tools, run
 * with `run()` for at most five turns. The only changes for causal replay are `wrapModel` and
 * `wrapTools`. Tests turn tracing off with `setTracingDisabled(true)`: a test run must not export
 * traces.
 */
export function createSupportAgent(options: SupportAgentOptions = {}): CausalAgent<SupportTicket, string> {
  return defineAgent({
    name: options.name ?? 'support-openai-agents',
    input: carefulTicket as SupportTicket,
    async run(ticket, ctx) {
      const model = wrapModel(ctx, (options.model ?? (() => new SupportModel()))(), {
        modelId: 'support-model-1',
        ...(options.prices === undefined ? {} : { prices: options.prices }),
        ...(options.stepName === undefined ? {} : { name: options.stepName }),
      })
      const agent = new Agent({
        name: 'support',
        instructions: INSTRUCTIONS,
        model,
        tools: wrapTools(ctx, supportTools),
        ...(options.modelSettings === undefined ? {} : { modelSettings: options.modelSettings }),
      })
      const input = `Order ${ticket.orderId}. ${ticket.message}`
      if (options.stream === true) {
        const result = await run(agent, input, { stream: true, maxTurns: 5, signal: ctx.signal })
        await result.completed
        return String(result.finalOutput)
      }
      const result = await run(agent, input, { maxTurns: 5, signal: ctx.signal })
      return String(result.finalOutput)
    },
  })
}
// #endregion

/** The support agent with `run()` and the seeded mock model. */
export const supportAgent = createSupportAgent()
