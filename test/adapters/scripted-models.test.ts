// The adapters' scripted models (vitest-causal-replay/testing/<sdk>): each turns its SDK's request
// into what the script reads, draws only from the call's seed, answers a streamed call as it answers
// a plain one, and refuses a call without a seed or a script's malformed answer with a message
// that names the model and the field.
import type { ModelRequest, StreamEvent } from '@openai/agents'
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages'
import { describe, expect, test } from 'vitest'
import { scriptedModel as aiSdkModel } from '../../src/entries/testing/ai-sdk.js'
import { scriptedModel as langchainModel } from '../../src/entries/testing/langchain.js'
import { scriptedModel as agentsModel } from '../../src/entries/testing/openai-agents.js'
import type { CallOptions, StreamPart } from '../../src/entries/ai-sdk.js'
import type { Script, ScriptedCall, ScriptedTurn } from '../../src/entries/testing.js'

/** A script that reports what it saw, and answers with a tool call or a reply drawn from the seed. */
function spyScript(seen: Array<Omit<ScriptedCall, 'random'> & { draws: number[] }>): Script {
  return (call) => {
    const draws = [call.random(), call.random()]
    seen.push({ userText: call.userText, lastToolResult: call.lastToolResult, seed: call.seed, draws })
    return call.lastToolResult === undefined
      ? { toolCall: { name: 'lookup_order', input: { orderId: 'A-1', draw: draws[0] as number } } }
      : { reply: `reply ${(draws[0] as number).toFixed(6)}` }
  }
}

/** The three adapters, each asked the same question through its own SDK: plain and streamed. */
interface Row {
  sdk: string
  /** The turn the model answers to the user's `text` (and a tool's JSON `result`, when given), plain and streamed. */
  ask(script: Script, seed: number | undefined, text: string, result?: object): Promise<ScriptedTurn[]>
}

const rows: Row[] = [
  {
    sdk: 'ai-sdk',
    async ask(script, seed, text, result) {
      const model = aiSdkModel(script)
      const prompt: CallOptions['prompt'] = [{ role: 'user', content: [{ type: 'text', text }] }]
      if (result !== undefined) {
        prompt.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c',
              toolName: 'lookup_order',
              output: { type: 'json', value: result as never },
            },
          ],
        })
      }
      const call: CallOptions = { prompt, ...(seed === undefined ? {} : { seed }) }
      const generated = await model.doGenerate(call)
      const parts: StreamPart[] = []
      const reader = (await model.doStream(call)).stream.getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value)
      const turn = (
        content: Array<{ type: string; text?: string; delta?: string; toolName?: string; input?: string }>,
      ) => {
        const toolCall = content.find((part) => part.type === 'tool-call')
        return toolCall === undefined
          ? { reply: content.map((part) => part.text ?? part.delta ?? '').join('') }
          : { toolCall: { name: toolCall.toolName as string, input: JSON.parse(toolCall.input as string) } }
      }
      return [
        turn(generated.content),
        turn(parts.filter((part) => part.type === 'tool-call' || part.type === 'text-delta') as never),
      ]
    },
  },
  {
    sdk: 'openai-agents',
    async ask(script, seed, text, result) {
      const model = agentsModel(script)
      const input: ModelRequest['input'] = [{ role: 'user', content: text }]
      if (result !== undefined) {
        input.push({
          type: 'function_call_result',
          name: 'lookup_order',
          callId: 'c',
          status: 'completed',
          output: { type: 'text', text: JSON.stringify(result) },
        })
      }
      const request = {
        input,
        modelSettings: seed === undefined ? {} : { providerData: { seed } },
        tools: [],
        handoffs: [],
        outputType: 'text',
        tracing: false,
      } as unknown as ModelRequest
      const turn = (output: ReadonlyArray<Record<string, unknown>>) => {
        const item = output[0] as Record<string, unknown>
        return item['type'] === 'function_call'
          ? { toolCall: { name: item['name'] as string, input: JSON.parse(item['arguments'] as string) } }
          : { reply: (item['content'] as Array<{ text: string }>).map((part) => part.text).join('') }
      }
      const response = await model.getResponse(request)
      const events: StreamEvent[] = []
      for await (const event of model.getStreamedResponse(request)) events.push(event)
      const done = events.find((event) => event.type === 'response_done')
      return [
        turn(response.output as never),
        turn((done as unknown as { response: { output: never } }).response.output),
      ]
    },
  },
  {
    sdk: 'langchain',
    async ask(script, seed, text, result) {
      const model = langchainModel(script)
      const messages: BaseMessage[] = [new HumanMessage(text)]
      if (result !== undefined) {
        messages.push(
          new AIMessage({ content: '', tool_calls: [{ id: 'c', name: 'lookup_order', args: {} }] }),
          new ToolMessage({ content: JSON.stringify(result), tool_call_id: 'c', name: 'lookup_order' }),
        )
      }
      const options = seed === undefined ? {} : { seed }
      const turn = (message: AIMessage) =>
        (message.tool_calls ?? []).length > 0
          ? {
              toolCall: {
                name: message.tool_calls?.[0]?.name as string,
                input: message.tool_calls?.[0]?.args,
              },
            }
          : { reply: message.text }
      const invoked = await model.invoke(messages, options)
      let streamed: AIMessage | undefined
      for await (const chunk of await model.stream(messages, options)) {
        streamed = streamed === undefined ? chunk : (streamed as never as typeof chunk).concat(chunk)
      }
      return [turn(invoked), turn(streamed as AIMessage)]
    },
  },
]

describe.each(rows)('the $sdk scripted model', (row) => {
  test('shows the script the user text and the last tool result as JSON, and answers a stream alike', async () => {
    const seen: Parameters<typeof spyScript>[0] = []
    const first = await row.ask(spyScript(seen), 7, 'Order A-1. Late.')
    const second = await row.ask(spyScript(seen), 7, 'Order A-1. Late.', { amount: 99 })
    expect(seen).toHaveLength(4)
    expect(seen[0]).toMatchObject({ userText: 'Order A-1. Late.', lastToolResult: undefined, seed: 7 })
    expect(seen[2]).toMatchObject({ lastToolResult: { toolName: 'lookup_order', value: { amount: 99 } } })
    const draw = seen[0]?.draws[0] as number
    expect(first).toEqual([
      { toolCall: { name: 'lookup_order', input: { orderId: 'A-1', draw } } },
      { toolCall: { name: 'lookup_order', input: { orderId: 'A-1', draw } } },
    ])
    expect(second).toEqual([{ reply: `reply ${draw.toFixed(6)}` }, { reply: `reply ${draw.toFixed(6)}` }])
  })

  test('draws from the seed alone: the same seed gives the same draws, other seeds others', async () => {
    const seen: Parameters<typeof spyScript>[0] = []
    for (const seed of [1, 2, 1, 3]) await row.ask(spyScript(seen), seed, 'Order A-1.')
    // Two calls (plain and streamed) per question, so eight calls.
    const draws = seen.map((call) => call.draws)
    expect(draws).toHaveLength(8)
    expect(draws[0]).toEqual(draws[1])
    expect(draws[0]).toEqual(draws[4])
    expect(new Set(draws.map((pair) => pair[0])).size).toBe(3)
    expect(draws[0]?.[0]).not.toBe(draws[0]?.[1])
  })

  test('refuses a call without a seed, naming the model and where the seed belongs', async () => {
    await expect(row.ask(() => ({ reply: 'hi' }), undefined, 'Order A-1.')).rejects.toThrow(
      /The scripted model "scripted-model" was called without a seed \(.*seed.*\).*Call it through wrapModel\./,
    )
  })

  test("refuses a script's malformed answer, naming the field", async () => {
    const noName = (() => ({ toolCall: { name: '', input: {} } })) as Script
    await expect(row.ask(noName, 1, 'x')).rejects.toThrow(
      /returned a toolCall without a name \(toolCall\.name\)/,
    )
    const notJson = (() => ({ toolCall: { name: 'f', input: { when: new Date(0) } } })) as unknown as Script
    await expect(row.ask(notJson, 1, 'x')).rejects.toThrow(/toolCall\.input of "f" is not a JSON value/)
    const nothing = (() => ({ answer: 'hi' })) as unknown as Script
    await expect(row.ask(nothing, 1, 'x')).rejects.toThrow(/returned neither \{ reply \} nor \{ toolCall \}/)
  })
})
