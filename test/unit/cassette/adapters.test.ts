import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BaseMessage } from '@langchain/core/messages'
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createSupportAgent as createAiSdkAgent } from '../../../examples/ai-sdk/support-agent.js'
import { createSupportModel } from '../../../examples/ai-sdk/support-model.js'
import { createSupportAgent as createLangGraphAgent } from '../../../examples/langgraph/support-agent.js'
import { SupportChatModel } from '../../../examples/langgraph/support-model.js'
import { createSupportAgent as createOpenAiAgent } from '../../../examples/openai-agents/support-agent.js'
import { SupportModel } from '../../../examples/openai-agents/support-model.js'
import { injectedTicket } from '../../../examples/support-agent/agent.js'
import type { Agent, Trajectory } from '../../../src/index.js'
import { runRollouts } from '../../../src/entries/replay.js'
import { openCassette, withCassette, type Cassette } from '../../../src/entries/cassette.js'

// Every adapter, generate and stream: a warm run makes no model call and gives the agent the same
// responses (a streamed call replays as a stream: the streaming agents answer with streamed text).

/** A call counter shared by a model factory. */
interface Counter {
  calls: number
}

function aiSdk(stream: boolean, counter: Counter): Agent<unknown, string> {
  return createAiSdkAgent({
    stream,
    model: () => {
      const inner = createSupportModel()
      return new MockLanguageModelV3({
        modelId: inner.modelId,
        doGenerate: async (options) => {
          counter.calls++
          return inner.doGenerate(options)
        },
        doStream: async (options) => {
          counter.calls++
          return inner.doStream(options)
        },
      })
    },
  }) as Agent<unknown, string>
}

class CountedChatModel extends SupportChatModel {
  constructor(private readonly counter: Counter) {
    super()
  }
  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']) {
    this.counter.calls++
    return super._generate(messages, options)
  }
  override async *_streamResponseChunks(messages: BaseMessage[], options: this['ParsedCallOptions']) {
    this.counter.calls++
    yield* super._streamResponseChunks(messages, options)
  }
}

function langGraph(stream: boolean, counter: Counter): Agent<unknown, string> {
  return createLangGraphAgent({ stream, model: () => new CountedChatModel(counter) }) as Agent<
    unknown,
    string
  >
}

class CountedModel implements Model {
  private readonly inner = new SupportModel()
  constructor(private readonly counter: Counter) {}
  getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.counter.calls++
    return this.inner.getResponse(request)
  }
  getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    this.counter.calls++
    return this.inner.getStreamedResponse(request)
  }
}

function openAi(stream: boolean, counter: Counter): Agent<unknown, string> {
  return createOpenAiAgent({ stream, model: () => new CountedModel(counter) }) as Agent<unknown, string>
}

let dir: string
beforeAll(async () => {
  // The modes under test are set here, whatever the environment running the suite says: not the
  // repository's CAUSAL_REPLAY_CACHE=off, and not CI, where a cassette writes nothing by default.
  vi.stubEnv('CAUSAL_REPLAY_CACHE', '')
  vi.stubEnv('CI', '')
  dir = await mkdtemp(join(tmpdir(), 'cassette-adapters-'))
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await rm(dir, { recursive: true, force: true })
})

/** A trajectory without what a cassette changes (the cassette mark, cost vs saved cost). */
function comparable(trajectory: Trajectory): unknown {
  const { costUsd: _cost, ...rest } = trajectory
  return {
    ...rest,
    steps: trajectory.steps.map(({ cassette: _mark, costUsd: _spent, savedUsd: _saved, ...step }) => step),
  }
}

describe.each([
  { adapter: 'ai-sdk', make: aiSdk },
  { adapter: 'langgraph', make: langGraph },
  { adapter: 'openai-agents', make: openAi },
])('a cassette under the $adapter adapter', ({ adapter, make }) => {
  test.each([false, true])(
    'stream: %s — a warm run calls no model and replays the same responses',
    async (stream) => {
      const counter: Counter = { calls: 0 }
      const agent = make(stream, counter).on(injectedTicket)
      const file = join(dir, `${adapter}-${stream}.cassette.json`)
      const run = async (cassette: Cassette | null) =>
        (await runRollouts(withCassette(agent, cassette), { rollouts: 6, seed: 5, concurrency: 3 }))
          .trajectories

      const cold = await openCassette(file)
      const first = await run(cold)
      const coldCalls = counter.calls
      expect(coldCalls).toBeGreaterThan(0)
      expect(first.flatMap((t) => t.steps).length).toBeGreaterThan(0)
      expect(first.flatMap((t) => t.steps).every((step) => step.cassette === 'miss')).toBe(true)
      await cold?.save()

      counter.calls = 0
      const warm = await openCassette(file)
      const second = await run(warm)
      expect(counter.calls).toBe(0)
      expect(warm?.counts).toEqual({ hits: coldCalls, reused: 0, misses: 0 })
      expect(second.flatMap((t) => t.steps)).toHaveLength(first.flatMap((t) => t.steps).length)
      expect(second.flatMap((t) => t.steps).every((step) => step.cassette === 'hit')).toBe(true)
      // The streaming agents answer with the text streamed by the last call: a hit streamed it again.
      expect(second.map((t) => t.output)).toEqual(first.map((t) => t.output))
      expect(second.map(comparable)).toEqual(first.map(comparable))
    },
  )
})

describe.each([
  { adapter: 'ai-sdk', make: aiSdk },
  { adapter: 'langgraph', make: langGraph },
  { adapter: 'openai-agents', make: openAi },
])('a redacting cassette under the $adapter adapter', ({ adapter, make }) => {
  test.each([false, true])(
    'stream: %s — a key of the tool calls’ arguments is redacted in the actions and in the summaries',
    async (stream) => {
      const agent = make(stream, { calls: 0 }).on(injectedTicket)
      const file = join(dir, `${adapter}-${stream}-redacted.cassette.json`)
      const cassette = await openCassette(file, { redact: ['orderId'] })
      const set = await runRollouts(withCassette(agent, cassette), { rollouts: 3, seed: 5 })
      await cassette?.save()
      // The run called tools with the order id as an argument, and as JSON text (the AI SDK's
      // `input`, the Agents SDK's `arguments`) or an object (LangChain's `args`).
      const summaries = set.trajectories.flatMap((t) => t.steps.map((step) => String(step.meta?.['summary'])))
      expect(summaries.filter((summary) => summary.includes('"orderId":"A-1001"')).length).toBeGreaterThan(0)
      const text = await readFile(file, 'utf8')
      // Anywhere, at any depth of JSON text: the key never maps to the id (the id itself stays in
      // the ticket's prose, where no key names it).
      expect(text).not.toMatch(/orderId(\\)*"\s*:\s*(\\)*"A-1001/)
      expect(text).toMatch(/lookup_order\(\{(\\)*"orderId(\\)*":(\\)*"\[redacted\]/)
    },
  )
})
