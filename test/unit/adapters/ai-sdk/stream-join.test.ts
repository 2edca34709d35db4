import { simulateReadableStream, stepCountIs, streamText, tool } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { expect, test } from 'vitest'
import { z } from 'zod'
import {
  wrapModel,
  wrapTools,
  type LanguageModelV3,
  type StreamPart,
} from '../../../../src/adapters/ai-sdk/index.js'
import { joinToolInputDeltas } from '../../../../src/adapters/ai-sdk/stream-join.js'
import type { Json } from '../../../../src/entries/types.js'
import { defineAgent } from '../../../../src/index.js'
import { ARGUMENT_PIECES, ARGUMENTS, KEY_PIECES, recordThroughCassette } from '../stream-redaction.js'

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
}

/** A model that streams a `charge` call, its arguments in two deltas cut inside the key, then a reply. */
function chargingModel(): LanguageModelV3 {
  return new MockLanguageModelV3({
    modelId: 'stream-model-1',
    doStream: async ({ prompt }) => {
      const replied = prompt.some((message) => message.role === 'tool')
      const chunks: StreamPart[] = replied
        ? [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'Charged.' },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE },
          ]
        : [
            { type: 'stream-start', warnings: [] },
            { type: 'tool-input-start', id: 'call_1', toolName: 'charge' },
            { type: 'tool-input-delta', id: 'call_1', delta: ARGUMENT_PIECES[0] },
            { type: 'tool-input-delta', id: 'call_1', delta: ARGUMENT_PIECES[1] },
            { type: 'tool-input-end', id: 'call_1' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'charge', input: ARGUMENTS },
            { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: USAGE },
          ]
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) }
    },
  })
}

/** A `streamText` agent that charges once, and the arguments its tool was given, by run. */
function chargingAgent(seen: unknown[]) {
  return defineAgent({
    name: 'streamed charge',
    input: null,
    async run(_input, ctx) {
      const result = streamText({
        model: wrapModel(ctx, chargingModel()),
        prompt: 'Charge the card.',
        tools: wrapTools(ctx, {
          charge: tool({
            inputSchema: z.object({ apiKey: z.string(), amount: z.number() }),
            execute: async (args) => {
              seen.push(args)
              return { charged: true }
            },
          }),
        }),
        stopWhen: stepCountIs(2),
      })
      return await result.text
    },
  })
}

function toolInputDeltas(action: Json): string[] {
  const parts = (action as { parts: Array<{ type: string; delta?: string }> }).parts
  return parts.filter((part) => part.type === 'tool-input-delta').map((part) => String(part.delta))
}

test('a redacting cassette stores a streamed tool call as one delta, redacted, and replays it as a stream', async () => {
  const seen: unknown[] = []
  const run = await recordThroughCassette(chargingAgent(seen), true)
  try {
    // The run itself streamed the real key in two pieces, and the tool got it.
    expect(run.trajectory.output).toBe('Charged.')
    expect(toolInputDeltas(run.trajectory.steps[0]!.action)).toEqual([...ARGUMENT_PIECES])
    expect(seen).toEqual([{ apiKey: 'sk-STREAM-91e0c4d7a2', amount: 5 }])

    for (const piece of KEY_PIECES) expect(run.text).not.toContain(piece)
    expect(run.actions).toHaveLength(2)
    expect(toolInputDeltas(run.actions[0]!)).toEqual(['{"apiKey":"[redacted]","amount":5}'])

    // A warm run streams the stored call: the agent's tool gets its whole (redacted) arguments. The
    // reply's request now quotes them redacted, so it is another call than the one recorded.
    const warm = await run.warm()
    expect(warm.steps.map((step) => step.cassette)).toEqual(['hit', 'miss'])
    expect(warm.output).toBe('Charged.')
    expect(seen[1]).toEqual({ apiKey: '[redacted]', amount: 5 })
  } finally {
    await run.remove()
  }
})

test('a cassette that does not redact stores the deltas as they streamed', async () => {
  const run = await recordThroughCassette(chargingAgent([]), false)
  try {
    expect(toolInputDeltas(run.actions[0]!)).toEqual([...ARGUMENT_PIECES])
  } finally {
    await run.remove()
  }
})

test('joins the deltas of each call by id, and leaves other actions as they are', () => {
  const parts = [
    { type: 'tool-input-start', id: 'a', toolName: 'x' },
    { type: 'tool-input-start', id: 'b', toolName: 'y' },
    { type: 'tool-input-delta', id: 'a', delta: '{"k":' },
    { type: 'tool-input-delta', id: 'b', delta: '{"j":' },
    { type: 'tool-input-delta', id: 'a', delta: '1}' },
    { type: 'tool-input-delta', id: 'b', delta: '2}' },
    { type: 'tool-input-end', id: 'a' },
    { type: 'tool-input-end', id: 'b' },
  ]
  const joined = joinToolInputDeltas({ call: 'stream', modelId: 'm', parts }) as { parts: unknown[] }
  expect(joined.parts).toEqual([
    parts[0],
    parts[1],
    { type: 'tool-input-delta', id: 'a', delta: '{"k":1}' },
    { type: 'tool-input-delta', id: 'b', delta: '{"j":2}' },
    parts[6],
    parts[7],
  ])
  const oneDelta: Json = { call: 'stream', modelId: 'm', parts: parts.filter((_, i) => i !== 4 && i !== 5) }
  expect(joinToolInputDeltas(oneDelta)).toBe(oneDelta)
  const generated: Json = { call: 'generate', modelId: 'm', result: { content: [] } }
  expect(joinToolInputDeltas(generated)).toBe(generated)
})
