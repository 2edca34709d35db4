import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager'
import { AIMessageChunk, type BaseMessage, type OpenAIToolCall } from '@langchain/core/messages'
import { ChatGenerationChunk } from '@langchain/core/outputs'
import { FakeStreamingChatModel } from '@langchain/core/utils/testing'
import { expect, test } from 'vitest'
import { wrapModel } from '../../../../src/adapters/langchain/index.js'
import { joinToolCallChunks } from '../../../../src/adapters/langchain/stream-join.js'
import type { Json } from '../../../../src/entries/types.js'
import { defineAgent } from '../../../../src/index.js'
import { ARGUMENT_PIECES, KEY_PIECES, recordThroughCassette } from '../stream-redaction.js'

/**
 * LangChain's fake streaming model, streaming a `charge` call as ChatOpenAI does: each chunk holds
 * a piece of the arguments as a tool-call chunk and as the provider's raw tool call, the pieces cut
 * inside the key. (The fake model's own stream rebuilds each chunk from its content, tool calls and
 * kwargs, which drops tool-call chunks: this one yields its chunks as they are.)
 */
class ChargingModel extends FakeStreamingChatModel {
  constructor() {
    super({
      chunks: ARGUMENT_PIECES.map((args, i) => {
        const head = i === 0 ? { id: 'call_1', name: 'charge' } : {}
        return new AIMessageChunk({
          content: '',
          tool_call_chunks: [{ type: 'tool_call_chunk', index: 0, args, ...head }],
          additional_kwargs: {
            // ChatOpenAI's raw pieces: only the first has the call's id and name.
            tool_calls: [
              {
                index: 0,
                ...(i === 0 ? { id: 'call_1', type: 'function' } : {}),
                function: { arguments: args, ...(i === 0 ? { name: 'charge' } : {}) },
              } as OpenAIToolCall,
            ],
          },
        })
      }),
    })
  }

  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this['ParsedCallOptions'],
    _runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    for (const message of this.chunks) yield new ChatGenerationChunk({ message, text: '' })
  }
}

/** An agent that streams the model and reads the merged tool call; `seen` gets its arguments. */
function chargingAgent(seen: unknown[]) {
  return defineAgent({
    name: 'streamed charge',
    input: null,
    async run(_input, ctx) {
      let merged: AIMessageChunk | undefined
      for await (const chunk of await wrapModel(ctx, new ChargingModel()).stream('Charge the card.'))
        merged = merged === undefined ? chunk : merged.concat(chunk)
      const args = merged?.tool_calls?.[0]?.args
      seen.push(args)
      return String(args?.['apiKey'])
    },
  })
}

/** The argument pieces of each kind a stream action's chunks hold. */
function pieces(action: Json): { chunks: string[]; raw: string[] } {
  type Fields = {
    tool_call_chunks?: Array<{ args: string }>
    additional_kwargs?: { tool_calls?: Array<{ function: { arguments: string } }> }
  }
  const chunks = (action as { chunks: Array<{ message: { fields: Fields } }> }).chunks
  return {
    chunks: chunks.flatMap((chunk) => (chunk.message.fields.tool_call_chunks ?? []).map((call) => call.args)),
    raw: chunks.flatMap((chunk) =>
      (chunk.message.fields.additional_kwargs?.tool_calls ?? []).map((call) => call.function.arguments),
    ),
  }
}

test('a redacting cassette stores a streamed tool call as one piece, redacted, and replays it', async () => {
  const seen: unknown[] = []
  const recorded = await recordThroughCassette(chargingAgent(seen), true)
  try {
    expect(recorded.trajectory.output).toBe('sk-STREAM-91e0c4d7a2')
    expect(pieces(recorded.trajectory.steps[0]!.action)).toEqual({
      chunks: [...ARGUMENT_PIECES],
      raw: [...ARGUMENT_PIECES],
    })

    for (const piece of KEY_PIECES) expect(recorded.text).not.toContain(piece)
    expect(recorded.actions).toHaveLength(1)
    const whole = '{"apiKey":"[redacted]","amount":5}'
    expect(pieces(recorded.actions[0]!)).toEqual({ chunks: [whole], raw: [whole] })

    // The replayed chunks merge into the same tool call, its arguments redacted.
    const warm = await recorded.warm()
    expect(warm.steps[0]?.cassette).toBe('hit')
    expect(seen[1]).toEqual({ apiKey: '[redacted]', amount: 5 })
  } finally {
    await recorded.remove()
  }
})

test('a cassette that does not redact stores the pieces as they streamed', async () => {
  const recorded = await recordThroughCassette(chargingAgent([]), false)
  try {
    expect(pieces(recorded.actions[0]!).chunks).toEqual([...ARGUMENT_PIECES])
  } finally {
    await recorded.remove()
  }
})

test('leaves an action without split pieces as it is', () => {
  const generated: Json = { call: 'generate', modelId: 'm', generations: [] }
  expect(joinToolCallChunks(generated)).toBe(generated)
  const whole: Json = {
    call: 'stream',
    modelId: 'm',
    chunks: [
      {
        text: '',
        message: { kind: 'ai-chunk', fields: { content: '', tool_call_chunks: [{ index: 0, args: '{}' }] } },
      },
    ],
  }
  expect(joinToolCallChunks(whole)).toBe(whole)
})
