import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { APICallError, generateText, stepCountIs, tool } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { createSupportAgent } from '../../examples/ai-sdk/support-agent.js'
import { createSupportModel } from '../../examples/ai-sdk/support-model.js'
import { carefulTicket, injectedTicket } from '../../examples/support-agent/agent.js'
import {
  swapModel,
  wrapModel,
  wrapTools,
  type CallOptions,
  type LanguageModelV3,
} from '../../src/adapters/ai-sdk/index.js'
import { calledTool, defineAgent, type Trajectory } from '../../src/index.js'
import type { Json } from '../../src/entries/types.js'
import {
  editContext,
  hold,
  readTrajectory,
  record,
  replaceObservation,
  replay,
  runRollouts,
  writeTrajectory,
} from '../../src/entries/replay.js'
import { BudgetExceededError } from '../../src/entries/errors.js'
import { providerSeed } from '../../src/random/streams.js'

const refunded = calledTool('issue_refund')

/** A support model that reports every call it receives to `calls`. */
function spiedModel(
  calls: CallOptions[],
  make: () => LanguageModelV3 = () => createSupportModel(),
): () => LanguageModelV3 {
  return () => {
    const inner = make()
    return new MockLanguageModelV3({
      modelId: inner.modelId,
      doGenerate: async (options) => {
        calls.push(options)
        return inner.doGenerate(options)
      },
      doStream: async (options) => {
        calls.push(options)
        return inner.doStream(options)
      },
    })
  }
}

function userTextOf(options: CallOptions): string {
  return JSON.stringify(options.prompt.filter((message) => message.role === 'user'))
}

const tooManyRequests = () =>
  new APICallError({
    message: 'Too Many Requests',
    url: 'https://api.example.test/v1/chat',
    requestBodyValues: {},
    statusCode: 429,
    // The SDK waits as long as the provider says: zero, so the test does not sleep.
    responseHeaders: { 'retry-after-ms': '0' },
    isRetryable: true,
  })

describe.each([
  { path: 'generateText (doGenerate)', stream: false },
  { path: 'streamText (doStream)', stream: true },
])('AI SDK adapter, $path', ({ stream }) => {
  const agent = createSupportAgent({ stream })

  test('every model call is one step: context = prompt, action = result with tool calls, usage in meta', async () => {
    const factual = await record(agent.on(injectedTicket), { seed: 11 })
    expect(factual.error).toBeUndefined()
    // The n-th call of the wrapped model is the step `model#n`.
    expect(factual.steps.map((step) => step.name)).toEqual(['model#1', 'model#2', 'model#3'])
    const [lookup, decide, reply] = factual.steps as [
      Trajectory['steps'][number],
      Trajectory['steps'][number],
      Trajectory['steps'][number],
    ]
    expect(lookup.observations.map((o) => o.tool)).toEqual(['lookup_order'])
    expect(decide.observations.map((o) => o.tool)).toEqual([refunded(factual) ? 'issue_refund' : 'escalate'])
    expect(reply.observations).toEqual([])
    const call = stream ? 'stream' : 'generate'
    expect(factual.steps.length).toBeGreaterThan(0)
    for (const step of factual.steps) {
      expect(step.context).toMatchObject({ call, prompt: expect.any(Array), tools: expect.any(Array) })
      expect(step.action).toMatchObject({ call, modelId: 'support-model-1' })
      expect(step.meta).toMatchObject({
        call,
        modelId: 'support-model-1',
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
      })
    }
    expect(JSON.stringify(decide.action)).toContain(refunded(factual) ? 'issue_refund' : 'escalate')
    expect(reply.meta?.finishReason).toBe('stop')
    // A one-line summary of each answer, the same streamed or not.
    expect(factual.steps.map((step) => step.meta?.summary)).toEqual([
      'lookup_order({"orderId":"A-1001"})',
      refunded(factual)
        ? 'issue_refund({"orderId":"A-1001","amount":99})'
        : 'escalate({"orderId":"A-1001","reason":"late delivery"})',
      JSON.stringify(factual.output),
    ])
    expect(factual.output).toEqual(expect.any(String))
  })

  test("the step's seed is the call's seed option", async () => {
    const calls: CallOptions[] = []
    const factual = await record(createSupportAgent({ stream, model: spiedModel(calls) }).on(carefulTicket), {
      seed: 5,
      rollout: 3,
    })
    expect(calls.map((options) => options.seed)).toEqual(
      factual.steps.map((step) => providerSeed(5, 3, step.index)),
    )
  })

  test('full-hold replay reproduces the run: action-match rate 1.0, same outputs and tool calls', async () => {
    const factual = await record(agent.on(injectedTicket), { seed: 3 })
    // A divergence (a held step reached under another name or context) would end a rollout here:
    // the replay makes the same calls in the same order, so `model#n` meets the recorded `model#n`.
    const replayed = await replay(agent, factual, hold('all'), {
      rollouts: 8,
      seed: 99,
      onDivergence: 'error',
    })
    expect(replayed.errors).toEqual([])
    expect(replayed.actionMatchRate).toBe(1)
    expect(replayed.heldSteps).toBe(8 * 3)
    expect(replayed.trajectories).toHaveLength(8)
    for (const trajectory of replayed.trajectories) {
      expect(trajectory.steps.map((step) => [step.name, step.diverged])).toEqual([
        ['model#1', undefined],
        ['model#2', undefined],
        ['model#3', undefined],
      ])
      expect(trajectory.output).toEqual(factual.output)
      expect(trajectory.steps.map((step) => step.source)).toEqual(['held', 'held', 'held'])
      expect(trajectory.steps.map((step) => step.action)).toEqual(factual.steps.map((step) => step.action))
      expect(refunded(trajectory)).toBe(refunded(factual))
    }
  })

  test('a 429 then a success is one step: the retry reuses the step index and seed', async () => {
    const seeds: Array<number | undefined> = []
    const flaky = () => {
      const inner = createSupportModel()
      let failedOnce = false
      const attempt = async <R>(options: CallOptions, call: () => PromiseLike<R>): Promise<R> => {
        seeds.push(options.seed)
        if (!failedOnce) {
          failedOnce = true
          throw tooManyRequests()
        }
        return call()
      }
      return new MockLanguageModelV3({
        modelId: inner.modelId,
        doGenerate: (options) => attempt(options, () => inner.doGenerate(options)),
        doStream: (options) => attempt(options, () => inner.doStream(options)),
      })
    }
    const factual = await record(createSupportAgent({ stream, model: flaky }), { seed: 8 })
    expect(factual.error).toBeUndefined()
    expect(seeds).toHaveLength(4) // four attempts (429, then three answers) …
    expect(factual.steps).toHaveLength(3) // … three steps
    expect(seeds[0]).toBe(seeds[1])
    expect(seeds.slice(1)).toEqual(factual.steps.map((step) => providerSeed(8, 0, step.index)))
    const replayed = await replay(createSupportAgent({ stream }), factual, hold('all'), { rollouts: 2 })
    expect(replayed.actionMatchRate).toBe(1)
  })

  test('a model that keeps failing, or throws, is a counted error outcome, never a rate sample', async () => {
    const rateLimited = createSupportAgent({
      stream,
      model: () =>
        new MockLanguageModelV3({
          doGenerate: async () => Promise.reject(tooManyRequests()),
          doStream: async () => Promise.reject(tooManyRequests()),
        }),
    })
    const limited = await runRollouts(rateLimited, { rollouts: 2, seed: 1 })
    expect(limited.errors).toHaveLength(2)
    expect(limited.errors[0]?.error.message).toMatch(/Too Many Requests/)
    expect(limited.trajectories).toHaveLength(2)
    expect(limited.trajectories.every((trajectory) => trajectory.steps.length === 0)).toBe(true)

    // Throws on a quarter of the seeds: which rollouts fail is known in advance from the seeds.
    const overloaded = (seed: number | undefined) => seed !== undefined && seed % 4 === 0
    const fragile = () => {
      const inner = createSupportModel()
      return new MockLanguageModelV3({
        modelId: inner.modelId,
        doGenerate: async (options) => {
          if (overloaded(options.seed)) throw new Error('model overloaded')
          return inner.doGenerate(options)
        },
        doStream: async (options) => {
          if (overloaded(options.seed)) throw new Error('model overloaded')
          return inner.doStream(options)
        },
      })
    }
    const set = await runRollouts(createSupportAgent({ stream, model: fragile }), { rollouts: 40, seed: 2 })
    const expected = Array.from({ length: 40 }, (_, r) => r).filter((r) =>
      [0, 1, 2].some((step) => overloaded(providerSeed(2, r, step))),
    )
    expect(expected.length).toBeGreaterThan(0)
    expect(set.errors.map((failure) => failure.rollout)).toEqual(expected)
    expect(
      set.errors.every(
        (failure) => failure.error.kind === 'threw' && failure.error.message === 'model overloaded',
      ),
    ).toBe(true)
    expect(set.rate(refunded).n).toBe(40 - expected.length)
  })

  test('editContext at a model step changes the prompt that model call sees', async () => {
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    expect(refunded(factual)).toBe(false)
    const calls: CallOptions[] = []
    const injectedText = `Order ${injectedTicket.orderId}. ${injectedTicket.message}`
    const inject = (context: Json | undefined): Json => {
      const edited = structuredClone(context) as { prompt: Array<{ role: string; content: unknown }> }
      const user = edited.prompt.find((message) => message.role === 'user')
      if (user === undefined) throw new Error('no user message in the recorded prompt')
      user.content = [{ type: 'text', text: injectedText }]
      return edited as unknown as Json
    }
    const edited = await replay(
      createSupportAgent({ stream, model: spiedModel(calls) }),
      factual,
      editContext(1, inject),
      {
        rollouts: 32,
        seed: 6,
      },
    )
    expect(edited.errors).toEqual([])
    // Step 0 is held (no call); step 1 sees the edit; step 2 sees the agent's own history again.
    expect(calls).toHaveLength(32 * 2)
    const decideCalls = calls.filter(
      (options) => options.prompt.some((message) => message.role === 'tool') && options.prompt.length === 4,
    )
    expect(decideCalls).toHaveLength(32)
    for (const options of decideCalls) expect(userTextOf(options)).toContain('SYSTEM NOTE')
    for (const options of calls.filter((options) => !decideCalls.includes(options))) {
      expect(userTextOf(options)).not.toContain('SYSTEM NOTE')
    }
    expect(edited.trajectories).toHaveLength(32)
    expect(edited.trajectories.every((trajectory) => trajectory.steps[1]?.source === 'edited')).toBe(true)
    // The edit carries the injection's effect: P(refund) 0.6 instead of 0.02.
    expect(edited.rate(refunded).point).toBeGreaterThan(0.3)
  })

  test('swapModel answers the named steps with another model from the swap on', async () => {
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    const reckless = createSupportModel({
      modelId: 'reckless-1',
      refundProbability: { normal: 1, injected: 1 },
    })
    // Keyed by the family `model`, the swap reaches `model#2` and `model#3`; the held `model#1`
    // matches the recording, so no rollout diverges.
    const swapped = await replay(agent, factual, swapModel(1, reckless), {
      rollouts: 6,
      seed: 2,
      onDivergence: 'error',
    })
    expect(swapped.errors).toEqual([])
    expect(swapped.rate(refunded).point).toBe(1)
    expect(swapped.trajectories).toHaveLength(6)
    for (const trajectory of swapped.trajectories) {
      expect(trajectory.steps.map((step) => step.name)).toEqual(['model#1', 'model#2', 'model#3'])
      expect(trajectory.steps.map((step) => step.source)).toEqual(['held', 'swapped', 'swapped'])
      expect(trajectory.steps.some((step) => step.diverged === true)).toBe(false)
      expect(trajectory.steps[1]?.meta?.modelId).toBe('reckless-1')
    }
  })
})

describe('AI SDK adapter: step names', () => {
  const reckless = () =>
    createSupportModel({ modelId: 'reckless-1', refundProbability: { normal: 1, injected: 1 } })

  test('a family names the calls family#n, and swapModel swaps that family', async () => {
    const agent = createSupportAgent({ stepName: 'support' })
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    expect(factual.steps.map((step) => step.name)).toEqual(['support#1', 'support#2', 'support#3'])
    const swapped = await replay(agent, factual, swapModel(1, reckless(), { name: 'support' }), {
      rollouts: 4,
      seed: 2,
      onDivergence: 'error',
    })
    expect(swapped.errors).toEqual([])
    expect(swapped.trajectories).toHaveLength(4)
    for (const trajectory of swapped.trajectories) {
      expect(trajectory.steps.map((step) => step.source)).toEqual(['held', 'swapped', 'swapped'])
    }
    // The default family reaches none of them: every step after the held one is sampled as usual.
    const unswapped = await replay(agent, factual, swapModel(1, reckless()), { rollouts: 2, seed: 2 })
    expect(unswapped.trajectories).toHaveLength(2)
    for (const trajectory of unswapped.trajectories) {
      expect(trajectory.steps.map((step) => step.source)).toEqual(['held', 'policy', 'policy'])
    }
  })

  test('a function names each call from its ordinal; replay meets the same names', async () => {
    const agent = createSupportAgent({
      stepName: ({ ordinal }) => (ordinal === 1 ? 'lookup' : `answer#${ordinal - 1}`),
    })
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    expect(factual.steps.map((step) => step.name)).toEqual(['lookup', 'answer#1', 'answer#2'])
    const held = await replay(agent, factual, hold('all'), { rollouts: 2, onDivergence: 'error' })
    expect(held.errors).toEqual([])
    expect(held.actionMatchRate).toBe(1)
    const swapped = await replay(agent, factual, swapModel(1, reckless(), { name: 'answer' }), {
      rollouts: 2,
      onDivergence: 'error',
    })
    expect(swapped.errors).toEqual([])
    expect(swapped.rate(refunded).point).toBe(1)
  })

  test('a function that returns no name fails the rollout, naming the option', async () => {
    const set = await runRollouts(createSupportAgent({ stepName: () => '' }), { rollouts: 1, seed: 1 })
    expect(set.errors[0]?.error).toMatchObject({
      name: 'InvalidOptionError',
      message:
        'wrapModel: `name` must be a function that returns a non-empty step name (call 1), got a string "".',
    })
  })
})

describe('AI SDK adapter: tools', () => {
  test('tool calls are observations; replay answers held ones from the recording or replaces them', async () => {
    const factual = await record(createSupportAgent().on(injectedTicket), { seed: 3 })
    const recorded = await replay(createSupportAgent(), factual, hold('all'), {
      rollouts: 3,
      tools: 'recorded',
    })
    expect(recorded.trajectories).toHaveLength(3)
    for (const trajectory of recorded.trajectories) {
      expect(trajectory.steps.flatMap((step) => step.observations.map((o) => o.source))).toEqual([
        'recorded',
        'recorded',
      ])
    }
    // The model's decision (step 1) now sees an order amount of 5: the refund it issues says so.
    const replaced = await replay(
      createSupportAgent({
        model: () => createSupportModel({ refundProbability: { normal: 1, injected: 1 } }),
      }),
      factual,
      replaceObservation(0, { orderId: 'A-1001', amount: 5, status: 'delayed', refundable: false }),
      { rollouts: 2 },
    )
    expect(replaced.trajectories).toHaveLength(2)
    for (const trajectory of replaced.trajectories) {
      expect(trajectory.steps[0]?.observations[0]?.source).toBe('replaced')
      expect(trajectory.steps[1]?.observations[0]).toMatchObject({
        tool: 'issue_refund',
        args: { amount: 5 },
      })
    }
  })

  test('tool calls of one response are recorded in the order the model listed them, whatever finishes first', async () => {
    let executed = 0
    const finished: string[] = []
    // A turn of the event loop: every promise chain already started settles first (no timing).
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))
    const twoCalls = () =>
      new MockLanguageModelV3({
        doGenerate: async (options) => ({
          content: options.prompt.some((message) => message.role === 'tool')
            ? [{ type: 'text', text: 'done' }]
            : [
                { type: 'tool-call', toolCallId: 'a', toolName: 'slow', input: '{"n":1}' },
                { type: 'tool-call', toolCallId: 'b', toolName: 'fast', input: '{"n":2}' },
              ],
          finishReason: { unified: 'stop', raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
          warnings: [],
        }),
      })
    const parallel = defineAgent({
      name: 'parallel-tools',
      input: null,
      async run(_input, ctx) {
        const tools = wrapTools(ctx, {
          slow: tool({
            inputSchema: z.object({ n: z.number() }),
            execute: async ({ n }) => {
              executed++
              await nextTurn() // the SDK runs both calls at once: this one finishes last
              finished.push('slow')
              return { tool: 'slow', n }
            },
          }),
          fast: tool({
            inputSchema: z.object({ n: z.number() }),
            execute: async ({ n }) => {
              executed++
              finished.push('fast')
              return { tool: 'fast', n }
            },
          }),
        })
        const result = await generateText({
          model: wrapModel(ctx, twoCalls()),
          tools,
          prompt: 'go',
          stopWhen: stepCountIs(3),
        })
        return result.steps[0]?.toolResults.map((r) => r.output) as Json
      },
    })
    const factual = await record(parallel, { seed: 1 })
    expect(finished).toEqual(['fast', 'slow'])
    expect(factual.steps[0]?.observations.map((o) => [o.tool, o.result])).toEqual([
      ['slow', { tool: 'slow', n: 1 }],
      ['fast', { tool: 'fast', n: 2 }],
    ])
    executed = 0
    const replayed = await replay(parallel, factual, hold('all'), { rollouts: 2, tools: 'recorded' })
    expect(executed).toBe(0)
    expect(replayed.trajectories.map((t) => t.output)).toEqual([factual.output, factual.output])
  })

  test('an async-iterable tool result is read to its end; the final value is the observation', async () => {
    const streaming = defineAgent({
      name: 'preliminary-results',
      input: null,
      async run(_input, ctx) {
        const model = new MockLanguageModelV3({
          doGenerate: async (options) => ({
            content: options.prompt.some((message) => message.role === 'tool')
              ? [{ type: 'text', text: JSON.stringify(options.prompt.at(-1)?.content) }]
              : [{ type: 'tool-call', toolCallId: 'p', toolName: 'progress', input: '{}' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: 1, text: 1, reasoning: 0 },
            },
            warnings: [],
          }),
        })
        const tools = wrapTools(ctx, {
          progress: tool({
            inputSchema: z.object({}),
            async *execute() {
              yield { percent: 50 }
              yield { percent: 100, report: 'ready' }
            },
          }),
        })
        const result = await generateText({
          model: wrapModel(ctx, model),
          tools,
          prompt: 'go',
          stopWhen: stepCountIs(3),
        })
        return result.text
      },
    })
    const factual = await record(streaming, { seed: 1 })
    expect(factual.steps[0]?.observations[0]?.result).toEqual({ percent: 100, report: 'ready' })
    expect(factual.output).toContain('"report":"ready"')
  })
})

describe('AI SDK adapter: recordings', () => {
  let directory: string
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'causal-replay-ai-sdk-'))
  })
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  // A model whose results carry a Date, bytes and a URL: what plain JSON would lose.
  const pictureModel = () =>
    new MockLanguageModelV3({
      modelId: 'picture-1',
      doGenerate: async (options) => ({
        content: [
          { type: 'text', text: `seed ${options.seed}` },
          {
            type: 'file',
            mediaType: 'image/png',
            data: new Uint8Array([137, 80, 78, 71, options.seed! % 256]),
          },
        ],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 9, text: 4, reasoning: 0 },
        },
        response: { id: 'r1', modelId: 'picture-1', timestamp: new Date(Date.UTC(2025, 4, 6, 7, 8, 9)) },
        providerMetadata: { mock: { source: 'https://example.test/a.png' } },
        warnings: [],
      }),
    })
  const pictureAgent = defineAgent({
    name: 'pictures',
    input: null,
    async run(_input, ctx) {
      const result = await generateText({ model: wrapModel(ctx, pictureModel()), prompt: 'draw' })
      const timestamp = result.response.timestamp
      return {
        text: result.text,
        timestampIsDate: timestamp instanceof Date,
        timestamp: timestamp.toISOString(),
        bytesAreUint8Array: result.files[0]?.uint8Array instanceof Uint8Array,
        bytes: [...(result.files[0]?.uint8Array ?? [])],
      }
    },
  })

  test('recorded model results survive a JSON file round trip: dates and bytes come back as such', async () => {
    const factual = await record(pictureAgent, { seed: 21 })
    expect(factual.output).toMatchObject({
      timestampIsDate: true,
      bytesAreUint8Array: true,
      timestamp: '2025-05-06T07:08:09.000Z',
    })
    const file = join(directory, 'pictures.json')
    await writeTrajectory(file, factual)
    const read = await readTrajectory(file)
    expect(read).toEqual(factual)
    const replayed = await replay(pictureAgent, read, hold('all'), { rollouts: 4, seed: 5 })
    expect(replayed.actionMatchRate).toBe(1)
    expect(replayed.trajectories.map((trajectory) => trajectory.output)).toEqual(
      Array(4).fill(factual.output),
    )
  })

  test('the support agent replays from a file with action-match rate 1 (both paths)', async () => {
    for (const stream of [false, true]) {
      const agent = createSupportAgent({ stream })
      const file = join(directory, `support-${stream}.json`)
      await writeTrajectory(file, await record(agent.on(injectedTicket), { seed: 17 }))
      const factual = await readTrajectory(file)
      const replayed = await replay(agent, factual, hold('all'), { rollouts: 4, tools: 'recorded' })
      expect(replayed.actionMatchRate).toBe(1)
      expect(replayed.trajectories).toHaveLength(4)
      expect(replayed.trajectories.every((trajectory) => trajectory.output === factual.output)).toBe(true)
    }
  })

  test('a held generate step reached from doStream is reported, not silently reinterpreted', async () => {
    const factual = await record(createSupportAgent().on(injectedTicket), { seed: 17 })
    const replayed = await replay(createSupportAgent({ stream: true }), factual, hold('all'), { rollouts: 1 })
    expect(replayed.actionMatchRate).toBe(0)
    expect(replayed.errors[0]?.error.message).toMatch(
      /is a stream call, but its action records a generate call/,
    )
  })
})

describe('AI SDK adapter: cost', () => {
  const prices = { 'support-model-1': { inputPerMTok: 3_000, outputPerMTok: 15_000 } }

  test('token usage is priced with the table and summed per rollout', async () => {
    const factual = await record(createSupportAgent({ prices }).on(injectedTicket), { seed: 2 })
    let total = 0
    expect(factual.steps.length).toBeGreaterThan(0)
    for (const step of factual.steps) {
      const meta = step.meta as { inputTokens: number; outputTokens: number }
      const expected = (meta.inputTokens * 3_000 + meta.outputTokens * 15_000) / 1e6
      expect(step.costUsd).toBeCloseTo(expected, 12)
      total += expected
    }
    expect(factual.costUsd).toBeCloseTo(total, 12)
    // Held steps are not paid for again.
    const replayed = await replay(createSupportAgent({ prices }), factual, hold('all'), { rollouts: 2 })
    expect(replayed.costUsd).toBe(0)
  })

  test('budget.maxCostUsd stops the run with the finished rollouts as partial work', async () => {
    const run = runRollouts(createSupportAgent({ prices }).on(injectedTicket), {
      rollouts: 50,
      seed: 1,
      concurrency: 1,
      budget: { maxCostUsd: 10 },
    })
    const error = await run.then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(BudgetExceededError)
    const partial = (error as BudgetExceededError<{ trajectories: Trajectory[] }>).partial
    expect(partial.trajectories.length).toBeGreaterThan(0)
    expect(partial.trajectories.length).toBeLessThan(50)
  })

  test('a model missing from the price table fails when wrapped, naming it', async () => {
    const set = await runRollouts(createSupportAgent({ prices: { 'gpt-x': prices['support-model-1'] } }), {
      rollouts: 1,
      seed: 1,
    })
    expect(set.errors[0]?.error).toMatchObject({ name: 'InvalidOptionError' })
    expect(set.errors[0]?.error.message).toMatch(
      /with an entry for model "support-model-1", got entries for "gpt-x" only\./,
    )
  })
})

describe('AI SDK adapter: options', () => {
  const ctx = { step: async () => null, tool: async () => undefined } as never

  test('wrapModel rejects what is not a LanguageModelV3, naming what it got', () => {
    expect(() => wrapModel(ctx, 'openai/gpt-4.1' as never)).toThrow(
      /^wrapModel: `model` must be an AI SDK model object \(LanguageModelV3, .*\), got a string "openai\/gpt-4\.1"\. Model id strings are not supported: resolve the model first\.$/,
    )
    expect(() => wrapModel(ctx, { specificationVersion: 'v2' } as never)).toThrow(
      'wrapModel: `model.specificationVersion` must be \'v3\' (ai 6.x), got a string "v2". Upgrade the provider package.',
    )
    expect(() => wrapModel(ctx, createSupportModel(), { name: '' })).toThrow(
      'wrapModel: `name` must be a non-empty string or a function ({ ordinal }) => string, got a string "".',
    )
    expect(() => wrapModel(ctx, createSupportModel(), { name: 7 as never })).toThrow(
      'wrapModel: `name` must be a non-empty string or a function ({ ordinal }) => string, got 7.',
    )
    expect(() => wrapModel(ctx, createSupportModel(), { prics: {} } as never)).toThrow(
      'wrapModel: unknown option `prics`. It accepts: name, prices.',
    )
    expect(() => wrapModel(ctx, createSupportModel(), null as never)).toThrow(
      'wrapModel: `options` must be an object, got null.',
    )
    expect(() =>
      wrapModel(ctx, createSupportModel(), {
        prices: { 'support-model-1': { inputPerMTok: -1, outputPerMTok: 1 } },
      }),
    ).toThrow(/prices\["support-model-1"\]\.inputPerMTok` must be a non-negative number/)
  })

  test('swapModel rejects a model of another specification', () => {
    expect(() => swapModel(1, { specificationVersion: 'v2' } as never)).toThrow(
      /^swapModel: `model.specificationVersion` must be 'v3'/,
    )
  })

  test('swapModel names an empty family or an unknown option', () => {
    const model = new MockLanguageModelV3()
    expect(() => swapModel(1, model, { name: '' })).toThrow(/^swapModel: `name` must be a non-empty string/)
    expect(() => swapModel(1, model, { nme: 'model' } as never)).toThrow(
      /^swapModel: unknown option `nme`\. It accepts: name\./,
    )
  })
})
