import {
  Agent,
  run,
  setTracingDisabled,
  tool,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents'
import { beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { wrapModel, wrapTools } from '../../../../src/adapters/openai-agents/index.js'
import { joinArgumentDeltas } from '../../../../src/adapters/openai-agents/stream-join.js'
import type { Json } from '../../../../src/entries/types.js'
import { defineAgent } from '../../../../src/index.js'
import { ARGUMENT_PIECES, ARGUMENTS, KEY_PIECES, recordThroughCassette } from '../stream-redaction.js'

beforeAll(() => setTracingDisabled(true))

const USAGE = { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }

/** A raw Responses API event as `OpenAIResponsesModel` passes it on. */
function raw(event: Record<string, unknown>): StreamEvent {
  return { type: 'model', event, providerData: { rawModelEventSource: 'openai-responses' } }
}

/**
 * A model that streams as `OpenAIResponsesModel` does: a `charge` function call whose arguments
 * arrive as two `response.function_call_arguments.delta` events cut inside the key, then a reply.
 */
class ChargingModel implements Model {
  getResponse(): Promise<ModelResponse> {
    throw new Error('The test streams.')
  }
  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    yield { type: 'response_started' }
    const replied =
      Array.isArray(request.input) && request.input.some((item) => item.type === 'function_call_result')
    if (replied) {
      yield { type: 'output_text_delta', delta: 'Charged.' }
      yield {
        type: 'response_done',
        response: {
          id: 'resp_2',
          usage: USAGE,
          output: [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'Charged.' }],
            },
          ],
        },
      }
      return
    }
    const item = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'charge', status: 'completed' }
    yield raw({ type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '' } })
    for (const delta of ARGUMENT_PIECES)
      yield raw({ type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta })
    yield raw({
      type: 'response.function_call_arguments.done',
      item_id: 'fc_1',
      output_index: 0,
      arguments: ARGUMENTS,
    })
    yield raw({ type: 'response.output_item.done', output_index: 0, item: { ...item, arguments: ARGUMENTS } })
    yield {
      type: 'response_done',
      response: {
        id: 'resp_1',
        usage: USAGE,
        output: [{ type: 'function_call', callId: 'call_1', name: 'charge', arguments: ARGUMENTS }],
      },
    }
  }
}

/** An Agents SDK agent run with `stream: true` that charges once; `seen` gets the tool's arguments. */
function chargingAgent(seen: unknown[]) {
  return defineAgent({
    name: 'streamed charge',
    input: null,
    async run(_input, ctx) {
      const agent = new Agent({
        name: 'payments',
        model: wrapModel(ctx, new ChargingModel(), { modelId: 'stream-model-1', seed: 'none' }),
        tools: wrapTools(ctx, [
          tool({
            name: 'charge',
            description: 'Charge the card.',
            parameters: z.object({ apiKey: z.string(), amount: z.number() }),
            execute: async (args) => {
              seen.push(args)
              return 'charged'
            },
          }),
        ]),
      })
      const result = await run(agent, 'Charge the card.', { stream: true, maxTurns: 3 })
      await result.completed
      return String(result.finalOutput)
    },
  })
}

function argumentDeltas(action: Json): string[] {
  const events = (action as { events: Array<{ type: string; event?: { type: string; delta?: string } }> })
    .events
  return events
    .filter((event) => event.event?.type === 'response.function_call_arguments.delta')
    .map((event) => String(event.event?.delta))
}

test('a redacting cassette stores a streamed function call as one delta, redacted, and replays it', async () => {
  const seen: unknown[] = []
  const recorded = await recordThroughCassette(chargingAgent(seen), true)
  try {
    expect(recorded.trajectory.output).toBe('Charged.')
    expect(argumentDeltas(recorded.trajectory.steps[0]!.action)).toEqual([...ARGUMENT_PIECES])
    expect(seen).toEqual([{ apiKey: 'sk-STREAM-91e0c4d7a2', amount: 5 }])

    for (const piece of KEY_PIECES) expect(recorded.text).not.toContain(piece)
    expect(recorded.actions).toHaveLength(2)
    expect(argumentDeltas(recorded.actions[0]!)).toEqual(['{"apiKey":"[redacted]","amount":5}'])

    // The runner reads the stored call back: its tool gets the whole (redacted) arguments.
    const warm = await recorded.warm()
    expect(warm.steps[0]?.cassette).toBe('hit')
    expect(warm.output).toBe('Charged.')
    expect(seen[1]).toEqual({ apiKey: '[redacted]', amount: 5 })
  } finally {
    await recorded.remove()
  }
})

test('a cassette that does not redact stores the deltas as they streamed', async () => {
  const recorded = await recordThroughCassette(chargingAgent([]), false)
  try {
    expect(argumentDeltas(recorded.actions[0]!)).toEqual([...ARGUMENT_PIECES])
  } finally {
    await recorded.remove()
  }
})

test('joins Chat Completions chunks by choice and tool-call index, and blanks the copies the SDK makes', () => {
  const chunk = (index: number, piece: string, extra: Record<string, unknown> = {}) => ({
    id: 'chatcmpl-1',
    choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece }, ...extra }] } }],
  })
  const first = chunk(0, '{"apiKey":"sk-', {
    id: 'call_1',
    function: { name: 'charge', arguments: '{"apiKey":"sk-' },
  })
  const events: Json[] = [
    { type: 'response_started', providerData: first },
    { type: 'model', event: first },
    { type: 'model', event: chunk(0, 'secret"}') },
    { type: 'model', event: chunk(1, '{}') },
  ]
  const joined = joinArgumentDeltas({ call: 'stream', events }) as { events: Json[] }
  const pieces = (value: Json | undefined) =>
    (
      value as { choices: Array<{ delta: { tool_calls: Array<{ function: { arguments: string } }> } }> }
    ).choices[0]?.delta.tool_calls.map((call) => call.function.arguments)
  const [started, one, two, other] = joined.events as Array<{ providerData?: Json; event?: Json }>
  expect(pieces(started?.providerData)).toEqual([''])
  expect(pieces(one?.event)).toEqual(['{"apiKey":"sk-secret"}'])
  expect(pieces(two?.event)).toEqual([''])
  expect(pieces(other?.event)).toEqual(['{}'])
  const response: Json = { call: 'response', response: {} }
  expect(joinArgumentDeltas(response)).toBe(response)
})
