import {
  AIMessage,
  AIMessageChunk,
  HumanMessage,
  ToolMessage,
  type BaseMessage,
} from '@langchain/core/messages'
import { FakeStreamingChatModel } from '@langchain/core/utils/testing'
import { describe, expect, test } from 'vitest'
import { createSupportAgent, supportTools } from '../../examples/langgraph/support-agent.js'
import { SupportChatModel, type SupportCallOptions } from '../../examples/langgraph/support-model.js'
import { carefulTicket, injectedTicket } from '../../examples/support-agent/agent.js'
import { swapModel, wrapModel, wrapTools } from '../../src/adapters/langchain/index.js'
import { calledTool, defineAgent, type Trajectory } from '../../src/index.js'
import type { Json } from '../../src/entries/types.js'
import {
  editContext,
  hold,
  record,
  replaceObservation,
  replay,
  runRollouts,
} from '../../src/entries/replay.js'
import { providerSeed } from '../../src/random/streams.js'

const refunded = calledTool('issue_refund')

/** A support model that reports the options of every call it answers (a stream counts once). */
class SpiedSupportModel extends SupportChatModel {
  constructor(readonly calls: SupportCallOptions[]) {
    super()
  }

  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']) {
    this.calls.push(options)
    return super._generate(messages, options)
  }

  override async *_streamResponseChunks(messages: BaseMessage[], options: this['ParsedCallOptions']) {
    this.calls.push(options)
    yield* super._streamResponseChunks(messages, options)
  }
}

describe.each([
  { path: 'invoke (_generate)', stream: false },
  { path: 'streamEvents (_streamResponseChunks)', stream: true },
])('LangChain adapter in a LangGraph ReAct agent, $path', ({ stream }) => {
  const agent = createSupportAgent({ stream })
  const call = stream ? 'stream' : 'generate'

  test('every model call is one numbered step: context = messages and bound tools, action = the AI message, summary in meta', async () => {
    const factual = await record(agent.on(injectedTicket), { seed: 11 })
    expect(factual.error).toBeUndefined()
    expect(factual.steps.map((step) => step.name)).toEqual(['model#1', 'model#2', 'model#3'])
    const [lookup, decide, reply] = factual.steps as [
      Trajectory['steps'][number],
      Trajectory['steps'][number],
      Trajectory['steps'][number],
    ]
    expect(lookup.observations.map((o) => o.tool)).toEqual(['lookup_order'])
    expect(decide.observations.map((o) => o.tool)).toEqual([refunded(factual) ? 'issue_refund' : 'escalate'])
    expect(reply.observations).toEqual([])
    expect(factual.steps.length).toBeGreaterThan(0)
    for (const step of factual.steps) {
      expect(step.context).toMatchObject({ call, messages: expect.any(Array) })
      const tools = (step.context as { tools: Array<{ function: { name: string } }> }).tools
      expect(tools.map((tool) => tool.function.name)).toEqual(['lookup_order', 'issue_refund', 'escalate'])
      expect(step.action).toMatchObject({ call, modelId: 'support-model-1' })
      expect(step.meta).toMatchObject({
        call,
        modelId: 'support-model-1',
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
      })
    }
    // No run ids or LangGraph message ids in a context: the same conversation has the same digest.
    expect(JSON.stringify(decide.context)).not.toMatch(/run-|"id":"[0-9a-f-]{36}"/)
    expect(reply.meta?.finishReason).toBe('stop')
    expect(factual.steps.map((step) => step.meta?.summary)).toEqual([
      'lookup_order({"orderId":"A-1001"})',
      refunded(factual)
        ? 'issue_refund({"orderId":"A-1001","amount":99})'
        : 'escalate({"orderId":"A-1001","reason":"late delivery"})',
      JSON.stringify(factual.output),
    ])
    expect(factual.output).toMatch(/^(Done|I |A colleague)/)
  })

  test("the step's seed is the call's seed option", async () => {
    const calls: SupportCallOptions[] = []
    const spied = createSupportAgent({ stream, model: () => new SpiedSupportModel(calls) })
    const factual = await record(spied.on(carefulTicket), { seed: 5, rollout: 3 })
    expect(calls.map((options) => options.seed)).toEqual(
      factual.steps.map((step) => providerSeed(5, 3, step.index)),
    )
  })

  test('full-hold replay reproduces the run without calling the model: same outputs, streamed text included', async () => {
    const factual = await record(agent.on(injectedTicket), { seed: 3 })
    expect(factual.output).toMatch(/^(Done|I |A colleague)/)
    const calls: SupportCallOptions[] = []
    const spied = createSupportAgent({ stream, model: () => new SpiedSupportModel(calls) })
    const replayed = await replay(spied, factual, hold('all'), { rollouts: 4, seed: 99 })
    expect(replayed.errors).toEqual([])
    expect(calls).toEqual([])
    expect(replayed.actionMatchRate).toBe(1)
    expect(replayed.trajectories).toHaveLength(4)
    for (const trajectory of replayed.trajectories) {
      // With streamEvents the output is the text streamed by the last call: a held step streams it again.
      expect(trajectory.output).toEqual(factual.output)
      expect(trajectory.steps.map((step) => step.source)).toEqual(['held', 'held', 'held'])
      expect(refunded(trajectory)).toBe(refunded(factual))
    }
  })

  test('editContext at a model step changes the messages that call sees', async () => {
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    expect(refunded(factual)).toBe(false)
    const inject = (context: Json | undefined): Json => {
      const edited = structuredClone(context) as {
        messages: Array<{ type: string; data: { content: string } }>
      }
      const human = edited.messages.find((message) => message.type === 'human')
      if (human === undefined) throw new Error('no human message in the recorded context')
      human.data.content = `Order ${injectedTicket.orderId}. ${injectedTicket.message}`
      return edited as unknown as Json
    }
    const edited = await replay(agent, factual, editContext(1, inject), { rollouts: 32, seed: 6 })
    expect(edited.errors).toEqual([])
    expect(edited.trajectories).toHaveLength(32)
    expect(edited.trajectories.every((trajectory) => trajectory.steps[1]?.source === 'edited')).toBe(true)
    // The edit carries the injection's effect: P(refund) 0.6 instead of 0.02.
    expect(edited.rate(refunded).point).toBeGreaterThan(0.3)
  })

  test('swapModel answers the family "model" from the swap on (model#2, model#3)', async () => {
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    const reckless = new SupportChatModel({
      modelId: 'reckless-1',
      refundProbability: { normal: 1, injected: 1 },
    })
    const swapped = await replay(agent, factual, swapModel(1, reckless), { rollouts: 6, seed: 2 })
    expect(swapped.errors).toEqual([])
    expect(swapped.rate(refunded).point).toBe(1)
    expect(swapped.trajectories).toHaveLength(6)
    for (const trajectory of swapped.trajectories) {
      expect(trajectory.steps.map((step) => step.source)).toEqual(['held', 'swapped', 'swapped'])
      expect(trajectory.steps.map((step) => step.name)).toEqual(['model#1', 'model#2', 'model#3'])
      expect(trajectory.steps[1]?.meta?.modelId).toBe('reckless-1')
    }
  })
})

/** An agent that calls a wrapped model directly and keeps the messages it got, for comparison. */
function directAgent(
  answers: BaseMessage[][],
  use: (model: SupportChatModel, input: BaseMessage[]) => Promise<BaseMessage[]>,
  make: () => SupportChatModel = () => new SupportChatModel(),
) {
  return defineAgent({
    name: 'direct',
    input: null,
    async run(_input, ctx) {
      const model = wrapModel(ctx, make())
      const got = await use(model, [new HumanMessage(`Order A-1001. ${injectedTicket.message}`)])
      answers.push(got)
      return got.map((message) => message.text).join('|')
    },
  })
}

async function collect(stream: AsyncIterable<BaseMessage>): Promise<BaseMessage[]> {
  const chunks: BaseMessage[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return chunks
}

describe('LangChain adapter: a wrapped model on its own', () => {
  test('a held step replays to an equal AIMessage, tool calls included, without calling the model', async () => {
    const answers: BaseMessage[][] = []
    const calls: SupportCallOptions[] = []
    const agent = directAgent(
      answers,
      async (model, input) => [await model.bindTools(supportTools).invoke(input)],
      () => new SpiedSupportModel(calls),
    )
    const factual = await record(agent, { seed: 8 })
    expect(calls).toHaveLength(1)
    const replayed = await replay(agent, factual, hold('all'), { rollouts: 1 })
    expect(replayed.actionMatchRate).toBe(1)
    expect(calls).toHaveLength(1)
    const [live, held] = answers.map((got) => got[0]) as [AIMessage, AIMessage]
    expect(held).toBeInstanceOf(AIMessage)
    expect(held.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        name: 'lookup_order',
        args: { orderId: 'A-1001' },
        type: 'tool_call',
      },
    ])
    expect(held).toEqual(live)
  })

  test('model.stream is recorded as one step and a held step streams the recorded chunks again', async () => {
    const answers: BaseMessage[][] = []
    const agent = directAgent(answers, async (model, input) => {
      const bound = model.bindTools(supportTools)
      const [first] = await collect(await bound.stream(input))
      const followUp = [...input, first as AIMessageChunk, toolResult(first as AIMessageChunk)]
      return collect(await bound.stream(followUp))
    })
    const factual = await record(agent, { seed: 8 })
    expect(factual.steps.map((step) => [step.name, step.meta?.call])).toEqual([
      ['model#1', 'stream'],
      ['model#2', 'stream'],
    ])
    const replayed = await replay(agent, factual, hold('all'), { rollouts: 1 })
    expect(replayed.actionMatchRate).toBe(1)
    const [live, held] = answers as [BaseMessage[], BaseMessage[]]
    expect(held.length).toBeGreaterThan(1)
    expect(held.every((chunk) => chunk instanceof AIMessageChunk)).toBe(true)
    expect(held).toEqual(live)
  })

  test('bindTools and withConfig keep recording, and the bound options are context', async () => {
    const answers: BaseMessage[][] = []
    const agent = directAgent(answers, async (model, input) => [
      await model
        .bindTools(supportTools, { tool_choice: 'lookup_order' })
        .withConfig({ tags: ['support'], stop: ['STOP'] })
        .invoke(input),
    ])
    const factual = await record(agent, { seed: 2 })
    expect(factual.steps).toHaveLength(1)
    expect(factual.steps[0]?.context).toMatchObject({
      call: 'generate',
      tool_choice: 'lookup_order',
      stop: ['STOP'],
      tools: [{ function: { name: 'lookup_order' } }, {}, {}],
    })
    expect(factual.steps[0]?.context).not.toHaveProperty('tags')
  })

  test("a model whose bindTools returns a fresh instance (LangChain's FakeStreamingChatModel) is still recorded", async () => {
    const fake = () =>
      new FakeStreamingChatModel({
        sleep: 0,
        chunks: [
          new AIMessageChunk({
            content: '',
            tool_calls: [{ id: 't1', name: 'lookup_order', args: { orderId: 'A-1' }, type: 'tool_call' }],
          }),
        ],
      })
    const agent = defineAgent({
      name: 'fake-streaming',
      input: null,
      async run(_input, ctx) {
        const bound = wrapModel(ctx, fake()).bindTools(supportTools)
        const message = await bound.invoke('look it up')
        const chunks = await collect(await bound.stream('look it up'))
        return [message.text, chunks.length]
      },
    })
    const factual = await record(agent, { seed: 1 })
    expect(factual.error).toBeUndefined()
    expect(factual.steps.map((step) => [step.name, step.meta?.call, step.meta?.summary])).toEqual([
      ['model#1', 'generate', '"look it up", lookup_order({"orderId":"A-1"})'],
      ['model#2', 'stream', 'lookup_order({"orderId":"A-1"})'],
    ])
    expect(factual.steps[0]?.context).toMatchObject({ tools: [{ type: 'function' }, {}, {}] })
  })

  test('a failed attempt that withRetry retries records no step and keeps its name for the retry', async () => {
    /** Fails its first call in each rollout, like a 429 the caller retries. */
    class FlakyOnce extends SupportChatModel {
      private failed = false
      override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']) {
        if (!this.failed) {
          this.failed = true
          throw new Error('429 Too Many Requests')
        }
        return super._generate(messages, options)
      }
    }
    const agent = defineAgent({
      name: 'flaky-once',
      input: null,
      async run(_input, ctx) {
        const model = wrapModel(ctx, new FlakyOnce()).withRetry({ stopAfterAttempt: 2 })
        const first = await model.invoke('My order is late.')
        const second = await model.invoke('And another thing.')
        return [first.text, second.text]
      },
    })
    const factual = await record(agent, { seed: 3 })
    expect(factual.error).toBeUndefined()
    // The failed attempt left no step, so the retry is model#1, as a replay's first call will be.
    expect(factual.steps.map((step) => step.name)).toEqual(['model#1', 'model#2'])
    const replayed = await replay(agent, factual, hold('all'), { rollouts: 1, onDivergence: 'error' })
    expect(replayed.errors).toEqual([])
    expect(replayed.actionMatchRate).toBe(1)
  })

  test('a name function names each step; the family of its names is what swapModel swaps', async () => {
    const agent = createSupportAgent({ stepName: ({ ordinal }) => `support#${ordinal}` })
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    expect(factual.steps.map((step) => step.name)).toEqual(['support#1', 'support#2', 'support#3'])
    const reckless = new SupportChatModel({
      modelId: 'reckless-1',
      refundProbability: { normal: 1, injected: 1 },
    })
    const swapped = await replay(agent, factual, swapModel(1, reckless, { name: 'support' }), { rollouts: 2 })
    expect(swapped.rate(refunded).point).toBe(1)
  })

  test('a held generate step reached from a stream call is reported, not silently reinterpreted', async () => {
    const factual = await record(createSupportAgent().on(injectedTicket), { seed: 17 })
    const replayed = await replay(createSupportAgent({ stream: true }), factual, hold('all'), { rollouts: 1 })
    expect(replayed.actionMatchRate).toBe(0)
    expect(replayed.errors[0]?.error.message).toMatch(
      /is a stream call, but its action records a generate call/,
    )
  })
})

function toolResult(message: AIMessageChunk): BaseMessage {
  const call = message.tool_calls?.[0]
  if (call?.id === undefined) throw new Error('the first answer has no tool call')
  return new ToolMessage({
    tool_call_id: call.id,
    name: call.name,
    content: JSON.stringify({ orderId: 'A-1001', amount: 99 }),
  })
}

describe('LangChain adapter: tools', () => {
  test('tool calls are observations; replay answers held ones from the recording or replaces them', async () => {
    const agent = createSupportAgent()
    const factual = await record(agent.on(injectedTicket), { seed: 3 })
    expect(factual.steps[0]?.observations[0]).toMatchObject({
      tool: 'lookup_order',
      args: { orderId: 'A-1001' },
      result: { orderId: 'A-1001', amount: 99, status: 'delayed', refundable: false },
    })
    const recorded = await replay(agent, factual, hold('all'), { rollouts: 3, tools: 'recorded' })
    expect(recorded.trajectories).toHaveLength(3)
    for (const trajectory of recorded.trajectories) {
      expect(trajectory.steps.flatMap((step) => step.observations.map((o) => o.source))).toEqual([
        'recorded',
        'recorded',
      ])
      expect(trajectory.output).toBe(factual.output)
    }
    // The model's decision (step 1) now sees an order amount of 5: the refund it issues says so.
    const replaced = await replay(
      createSupportAgent({
        model: () => new SupportChatModel({ refundProbability: { normal: 1, injected: 1 } }),
      }),
      factual,
      replaceObservation(0, { orderId: 'A-1001', amount: 5, status: 'delayed', refundable: false }),
      { rollouts: 2 },
    )
    expect(replaced.errors).toEqual([])
    expect(replaced.trajectories).toHaveLength(2)
    for (const trajectory of replaced.trajectories) {
      expect(trajectory.steps[0]?.observations[0]?.source).toBe('replaced')
      expect(trajectory.steps[1]?.observations[0]).toMatchObject({
        tool: 'issue_refund',
        args: { amount: 5 },
      })
    }
  })

  test('what is not a LangChain tool passes through unchanged', () => {
    const ctx = { step: async () => null, tool: async () => undefined } as never
    const definition = { type: 'function', function: { name: 'f', parameters: {} } }
    const [wrapped, passed] = wrapTools(ctx, [supportTools[0], definition] as const)
    expect(passed).toBe(definition)
    expect(wrapped).not.toBe(supportTools[0])
    expect(wrapped).toBeInstanceOf(Object.getPrototypeOf(supportTools[0]).constructor)
    expect((wrapped as (typeof supportTools)[0]).name).toBe('lookup_order')
  })
})

describe('LangChain adapter: cost', () => {
  const prices = { 'support-model-1': { inputPerMTok: 3_000, outputPerMTok: 15_000 } }

  test('usage_metadata is priced with the table, for invoke and for streams', async () => {
    for (const stream of [false, true]) {
      const factual = await record(createSupportAgent({ prices, stream }).on(injectedTicket), { seed: 2 })
      expect(factual.error).toBeUndefined()
      let total = 0
      expect(factual.steps.length).toBeGreaterThan(0)
      for (const step of factual.steps) {
        const meta = step.meta as { inputTokens: number; outputTokens: number }
        const expected = (meta.inputTokens * 3_000 + meta.outputTokens * 15_000) / 1e6
        expect(expected).toBeGreaterThan(0)
        expect(step.costUsd).toBeCloseTo(expected, 12)
        total += expected
      }
      expect(factual.costUsd).toBeCloseTo(total, 12)
    }
  })

  test('a model missing from the price table fails when wrapped, naming it', async () => {
    const set = await runRollouts(createSupportAgent({ prices: { 'gpt-x': prices['support-model-1'] } }), {
      rollouts: 1,
      seed: 1,
    })
    expect(set.errors[0]?.error.message).toMatch(
      /with an entry for model "support-model-1", got entries for "gpt-x" only\./,
    )
  })
})

describe('LangChain adapter: options', () => {
  const ctx = { step: async () => null, tool: async () => undefined } as never

  test('wrapModel rejects what is not a chat model and options it does not know, naming the field', () => {
    expect(() => wrapModel(ctx, 'gpt-4.1' as never)).toThrow(
      /^wrapModel: `model` must be a LangChain chat model \(.*\), got a string "gpt-4\.1"\. Model name strings are not supported: create the model first\.$/,
    )
    expect(() => wrapModel(ctx, new SupportChatModel().bindTools(supportTools) as never)).toThrow(
      /^wrapModel: `model` must be a LangChain chat model .*, got a RunnableBinding\. Wrap the model before bindTools or withConfig/,
    )
    expect(() => wrapModel(ctx, new SupportChatModel(), { name: '' })).toThrow(
      /^wrapModel: `name` must be a non-empty string or a function \(\{ ordinal \}\) => string, got a string ""\.$/,
    )
    expect(() => wrapModel(ctx, new SupportChatModel(), { seed: 'yes' } as never)).toThrow(
      'wrapModel: `seed` must be true or false, got a string "yes".',
    )
    expect(() => wrapModel(ctx, new SupportChatModel(), { prics: {} } as never)).toThrow(
      'wrapModel: unknown option `prics`. It accepts: name, prices, seed.',
    )
    expect(() =>
      wrapModel(ctx, new SupportChatModel(), {
        prices: { 'support-model-1': { inputPerMTok: -1, outputPerMTok: 1 } },
      }),
    ).toThrow(/prices\["support-model-1"\]\.inputPerMTok` must be a non-negative number/)
  })

  test('swapModel checks its model and options the same way', () => {
    expect(() => swapModel(1, {} as never)).toThrow(/^swapModel: `model` must be a LangChain chat model/)
    expect(() => swapModel(1, new SupportChatModel(), { name: 3 } as never)).toThrow(
      'swapModel: `name` must be a non-empty string, got 3.',
    )
    expect(() => swapModel(1, new SupportChatModel(), { seed: true } as never)).toThrow(
      'swapModel: unknown option `seed`. It accepts: name.',
    )
  })

  test('seed: false leaves the call without the step seed (a seeded model then refuses the call)', async () => {
    const agent = defineAgent({
      name: 'unseeded',
      input: null,
      async run(_input, ctx) {
        return (await wrapModel(ctx, new SupportChatModel(), { seed: false }).invoke('hi')).text
      },
    })
    const factual = await record(agent, { seed: 1 })
    expect(factual.error?.message).toMatch(/needs a `seed` call option/)
  })
})
