import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  Agent,
  OpenAIResponsesModel,
  Runner,
  setTracingDisabled,
  tool,
  Usage,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { createSupportAgent, supportTools } from '../../examples/openai-agents/support-agent.js'
import { SupportModel } from '../../examples/openai-agents/support-model.js'
import { carefulTicket, injectedTicket } from '../../examples/support-agent/agent.js'
import { swapModel, wrapModel, wrapTools } from '../../src/adapters/openai-agents/index.js'
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

// Tests export no traces.
beforeAll(() => setTracingDisabled(true))

const refunded = calledTool('issue_refund')

/** A model that reports every request it receives, then lets `inner` answer. */
class SpyModel implements Model {
  constructor(
    private readonly requests: ModelRequest[],
    private readonly inner: Model = new SupportModel(),
  ) {}
  getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request)
    return this.inner.getResponse(request)
  }
  getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    this.requests.push(request)
    return this.inner.getStreamedResponse(request)
  }
}

const seedOf = (request: ModelRequest): unknown => request.modelSettings.providerData?.seed
const userTextOf = (request: ModelRequest): string =>
  JSON.stringify(
    typeof request.input === 'string'
      ? request.input
      : request.input.filter((item) => 'role' in item && item.role === 'user'),
  )

class RateLimitError extends Error {
  override name = 'RateLimitError'
  readonly status = 429
}

describe.each([
  { path: 'run() (getResponse)', stream: false },
  { path: 'run({ stream: true }) (getStreamedResponse)', stream: true },
])('Agents SDK adapter, $path', ({ stream }) => {
  const agent = createSupportAgent({ stream })

  test('every model call is one step: context = request, action = response with tool calls, usage in meta', async () => {
    const factual = await record(agent.on(injectedTicket), { seed: 11 })
    expect(factual.error).toBeUndefined()
    // The n-th call of the wrapped model is the step `model#n`.
    expect(factual.steps.map((step) => step.name)).toEqual(['model#1', 'model#2', 'model#3'])
    expect(factual.steps.map((step) => step.observations.map((o) => o.tool))).toEqual([
      ['lookup_order'],
      [refunded(factual) ? 'issue_refund' : 'escalate'],
      [],
    ])
    const call = stream ? 'stream' : 'response'
    expect(factual.steps.length).toBeGreaterThan(0)
    for (const step of factual.steps) {
      expect(step.context).toMatchObject({
        call,
        systemInstructions: expect.any(String),
        input: expect.any(Array),
      })
      expect(step.action).toMatchObject({ call, modelId: 'support-model-1' })
      expect(step.meta).toMatchObject({
        call,
        modelId: 'support-model-1',
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
      })
    }
    // A one-line summary of each answer, the same streamed or not.
    expect(factual.steps.map((step) => step.meta?.summary)).toEqual([
      'lookup_order({"orderId":"A-1001"})',
      refunded(factual)
        ? 'issue_refund({"orderId":"A-1001","amount":99})'
        : 'escalate({"orderId":"A-1001","reason":"late delivery"})',
      JSON.stringify(factual.output),
    ])
  })

  test("the step's seed reaches the model as modelSettings.providerData.seed", async () => {
    const requests: ModelRequest[] = []
    const spied = createSupportAgent({ stream, model: () => new SpyModel(requests) })
    const factual = await record(spied.on(carefulTicket), { seed: 5, rollout: 3 })
    expect(requests.map(seedOf)).toEqual(factual.steps.map((step) => providerSeed(5, 3, step.index)))
  })

  test('full-hold replay reproduces the run: action-match rate 1.0, same outputs and tool calls', async () => {
    const factual = await record(agent.on(injectedTicket), { seed: 3 })
    const replayed = await replay(agent, factual, hold('all'), { rollouts: 8, seed: 99 })
    expect(replayed.errors).toEqual([])
    expect(replayed.actionMatchRate).toBe(1)
    expect(replayed.heldSteps).toBe(8 * 3)
    expect(replayed.trajectories).toHaveLength(8)
    for (const trajectory of replayed.trajectories) {
      expect(trajectory.output).toEqual(factual.output)
      expect(trajectory.steps.map((step) => step.action)).toEqual(factual.steps.map((step) => step.action))
      expect(refunded(trajectory)).toBe(refunded(factual))
    }
  })

  test("a 429 then a success is one step under the runner's retry", async () => {
    const seeds: unknown[] = []
    class FlakyModel extends SupportModel {
      private failedOnce = false
      // A rate limit is safe to send again: say so, as OpenAI's own models do.
      getRetryAdvice() {
        return { suggested: true, replaySafety: 'safe' as const }
      }
      override async getResponse(request: ModelRequest) {
        seeds.push(seedOf(request))
        this.failOnce()
        return super.getResponse(request)
      }
      override async *getStreamedResponse(request: ModelRequest) {
        seeds.push(seedOf(request))
        this.failOnce()
        yield* super.getStreamedResponse(request)
      }
      private failOnce() {
        if (this.failedOnce) return
        this.failedOnce = true
        throw new RateLimitError('429 Too Many Requests')
      }
    }
    const flaky = createSupportAgent({
      stream,
      model: () => new FlakyModel(),
      modelSettings: {
        retry: {
          maxRetries: 2,
          policy: () => true,
          backoff: { initialDelayMs: 0, maxDelayMs: 0, jitter: false },
        },
      },
    })
    const factual = await record(flaky, { seed: 8 })
    expect(factual.error).toBeUndefined()
    expect(seeds).toHaveLength(4)
    expect(factual.steps).toHaveLength(3)
    expect(seeds[0]).toBe(seeds[1])
    expect(seeds.slice(1)).toEqual(factual.steps.map((step) => providerSeed(8, 0, step.index)))
    const replayed = await replay(createSupportAgent({ stream }), factual, hold('all'), { rollouts: 2 })
    expect(replayed.actionMatchRate).toBe(1)
  })

  test('a model that throws is a counted error outcome, never a rate sample', async () => {
    const overloaded = (request: ModelRequest) => (seedOf(request) as number) % 4 === 0
    class FragileModel extends SupportModel {
      override async getResponse(request: ModelRequest) {
        if (overloaded(request)) throw new Error('model overloaded')
        return super.getResponse(request)
      }
      override async *getStreamedResponse(request: ModelRequest) {
        if (overloaded(request)) throw new Error('model overloaded')
        yield* super.getStreamedResponse(request)
      }
    }
    const set = await runRollouts(createSupportAgent({ stream, model: () => new FragileModel() }), {
      rollouts: 40,
      seed: 2,
    })
    const expected = Array.from({ length: 40 }, (_, r) => r).filter((r) =>
      [0, 1, 2].some((step) => providerSeed(2, r, step) % 4 === 0),
    )
    expect(expected.length).toBeGreaterThan(0)
    expect(set.errors.map((failure) => failure.rollout)).toEqual(expected)
    expect(
      set.errors.every(
        (failure) => failure.error.kind === 'threw' && /model overloaded/.test(failure.error.message),
      ),
    ).toBe(true)
    expect(set.rate(refunded).n).toBe(40 - expected.length)
  })

  test('editContext at a model step changes the request that model call sees', async () => {
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    expect(refunded(factual)).toBe(false)
    const requests: ModelRequest[] = []
    const injectedText = `Order ${injectedTicket.orderId}. ${injectedTicket.message}`
    const inject = (context: Json | undefined): Json => {
      const edited = structuredClone(context) as { input: Array<{ role?: string; content?: unknown }> }
      const user = edited.input.find((item) => item.role === 'user')
      if (user === undefined) throw new Error('no user message in the recorded input')
      user.content = injectedText
      return edited as unknown as Json
    }
    const edited = await replay(
      createSupportAgent({ stream, model: () => new SpyModel(requests) }),
      factual,
      editContext(1, inject),
      {
        rollouts: 32,
        seed: 6,
      },
    )
    expect(edited.errors).toEqual([])
    expect(requests).toHaveLength(32 * 2) // step 0 is held; steps 1 and 2 call the model
    const decide = requests.filter((request) => Array.isArray(request.input) && request.input.length === 3)
    expect(decide).toHaveLength(32)
    for (const request of decide) expect(userTextOf(request)).toContain('SYSTEM NOTE')
    for (const request of requests.filter((request) => !decide.includes(request))) {
      expect(userTextOf(request)).not.toContain('SYSTEM NOTE')
    }
    expect(edited.trajectories).toHaveLength(32)
    expect(edited.trajectories.every((trajectory) => trajectory.steps[1]?.source === 'edited')).toBe(true)
    expect(edited.rate(refunded).point).toBeGreaterThan(0.3)
  })

  test('swapModel answers the named steps with another model from the swap on', async () => {
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    const reckless = new SupportModel({ normal: 1, injected: 1 })
    // Keyed by the family `model`, the swap reaches `model#2` and `model#3`; the held `model#1`
    // matches the recording, so no rollout diverges.
    const swapped = await replay(agent, factual, swapModel(1, reckless, { modelId: 'reckless-1' }), {
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

describe('Agents SDK adapter: step names', () => {
  const reckless = () => new SupportModel({ normal: 1, injected: 1 })

  test('a family names the calls family#n; a full-hold replay meets them and swapModel swaps them', async () => {
    const agent = createSupportAgent({ stepName: 'support' })
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    expect(factual.steps.map((step) => step.name)).toEqual(['support#1', 'support#2', 'support#3'])
    const held = await replay(agent, factual, hold('all'), { rollouts: 2, onDivergence: 'error' })
    expect(held.errors).toEqual([])
    expect(held.actionMatchRate).toBe(1)
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
  })

  test('a function names each call from its ordinal', async () => {
    const agent = createSupportAgent({
      stepName: ({ ordinal }) => (ordinal === 1 ? 'lookup' : `answer#${ordinal - 1}`),
    })
    const factual = await record(agent.on(carefulTicket), { seed: 4 })
    expect(factual.steps.map((step) => step.name)).toEqual(['lookup', 'answer#1', 'answer#2'])
    const swapped = await replay(agent, factual, swapModel(1, reckless(), { name: 'answer' }), {
      rollouts: 2,
      onDivergence: 'error',
    })
    expect(swapped.errors).toEqual([])
    expect(swapped.rate(refunded).point).toBe(1)
  })

  test('a function that returns no name fails the rollout, naming the option', async () => {
    const set = await runRollouts(createSupportAgent({ stepName: () => 7 as never }), {
      rollouts: 1,
      seed: 1,
    })
    expect(set.errors[0]?.error).toMatchObject({
      name: 'InvalidOptionError',
      message: 'wrapModel: `name` must be a function that returns a non-empty step name (call 1), got 7.',
    })
  })
})

describe('Agents SDK adapter: tools', () => {
  test('function tool calls are observations; replay answers held ones from the recording or replaces them', async () => {
    const factual = await record(createSupportAgent().on(injectedTicket), { seed: 3 })
    expect(factual.steps[0]?.observations[0]).toMatchObject({
      tool: 'lookup_order',
      args: { orderId: 'A-1001' },
      result: { orderId: 'A-1001', amount: 99 },
    })
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
      expect(trajectory.output).toBe(factual.output)
    }
    const replaced = await replay(
      createSupportAgent({ model: () => new SupportModel({ normal: 1, injected: 1 }) }),
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

  test('a tool that throws records the error message the SDK hands the model, and replay hands it again', async () => {
    let calls = 0
    const broken = tool({
      name: 'lookup_order',
      description: 'Look an order up by id.',
      parameters: z.object({ orderId: z.string() }),
      execute: async () => {
        calls++
        throw new Error('database down')
      },
    })
    const model = () => new SupportModel({ normal: 0, injected: 0 })
    const agent = defineAgent({
      name: 'broken-tool',
      input: carefulTicket,
      async run(ticket, ctx) {
        const support = new Agent({
          name: 'support',
          model: wrapModel(ctx, model()),
          tools: wrapTools(ctx, [broken]),
        })
        const result = await new Runner({ tracingDisabled: true }).run(
          support,
          `Order ${ticket.orderId}. ${ticket.message}`,
          { maxTurns: 5 },
        )
        return String(result.finalOutput)
      },
    })
    const factual = await record(agent, { seed: 1 })
    const observation = factual.steps[0]?.observations[0]
    expect(observation?.tool).toBe('lookup_order')
    // The SDK's default error function: the model is told the tool failed (the details are redacted).
    expect(observation?.result).toMatch(/An error occurred while running the tool/)
    calls = 0
    const replayed = await replay(agent, factual, hold('all'), { rollouts: 2, tools: 'recorded' })
    expect(calls).toBe(0)
    expect(replayed.actionMatchRate).toBe(1)
  })
})

describe('Agents SDK adapter: recordings', () => {
  let directory: string
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'causal-replay-agents-'))
  })
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  // Reports what the runner got back: a replayed response must carry a real Usage instance.
  const usageAgent = defineAgent({
    name: 'usage-check',
    input: injectedTicket,
    async run(ticket, ctx) {
      const support = new Agent({
        name: 'support',
        model: wrapModel(ctx, new SupportModel()),
        tools: wrapTools(ctx, supportTools),
      })
      const result = await new Runner({ tracingDisabled: true }).run(
        support,
        `Order ${ticket.orderId}. ${ticket.message}`,
        { maxTurns: 5 },
      )
      return {
        output: String(result.finalOutput),
        usageIsUsage: result.rawResponses.every((response) => response.usage instanceof Usage),
        inputTokens: result.state.usage.inputTokens,
      }
    },
  })

  test('recorded responses survive a JSON file round trip: Usage comes back as a Usage', async () => {
    const factual = await record(usageAgent, { seed: 21 })
    expect(factual.output).toMatchObject({ usageIsUsage: true })
    const file = join(directory, 'usage.json')
    await writeTrajectory(file, factual)
    const read = await readTrajectory(file)
    expect(read).toEqual(factual)
    const replayed = await replay(usageAgent, read, hold('all'), { rollouts: 4, seed: 5, tools: 'recorded' })
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
})

describe('Agents SDK adapter: seed and cost options', () => {
  const ctx = { step: async () => null, tool: async () => undefined } as never

  test("seed 'none' sends no seed; 'auto' sends none to the Responses API model, which rejects it", async () => {
    const requests: ModelRequest[] = []
    // Answers like the support model, with a seed of its own (the turn), whatever it was sent.
    const answering = {
      getResponse: (request: ModelRequest) => new SupportModel().getResponse(withSeed(request)),
      getStreamedResponse: (request: ModelRequest) =>
        new SupportModel().getStreamedResponse(withSeed(request)),
    }
    const withSeed = (request: ModelRequest): ModelRequest => ({
      ...request,
      modelSettings: { ...request.modelSettings, providerData: { seed: request.input.length } },
    })
    class ResponsesSpy extends OpenAIResponsesModel {
      override getResponse(request: ModelRequest) {
        requests.push(request)
        return answering.getResponse(request)
      }
    }
    const responsesModel = new ResponsesSpy({} as never, 'gpt-4.1-mini') // never sends: getResponse is overridden
    const plain = new SpyModel(requests, answering)
    const run = (model: Model, seed?: 'auto' | 'none') =>
      record(
        defineAgent({
          name: 'seed-check',
          input: carefulTicket,
          async run(ticket, ctx) {
            const support = new Agent({
              name: 'support',
              model: wrapModel(ctx, model, seed === undefined ? {} : { seed }),
              tools: wrapTools(ctx, supportTools),
            })
            await new Runner({ tracingDisabled: true }).run(
              support,
              `Order ${ticket.orderId}. ${ticket.message}`,
              { maxTurns: 5 },
            )
          },
        }),
        { seed: 1 },
      )
    await run(plain, 'none')
    expect(requests.map(seedOf)).toEqual([undefined, undefined, undefined])
    requests.length = 0
    await run(responsesModel)
    expect(requests).toHaveLength(3)
    expect(requests.map(seedOf)).toEqual([undefined, undefined, undefined])
    requests.length = 0
    await run(plain)
    expect(requests.map(seedOf)).toEqual([0, 1, 2].map((step) => providerSeed(1, 0, step)))
  })

  test('token usage is priced with the table (by modelId) and counts against budget.maxCostUsd', async () => {
    const prices = { 'support-model-1': { inputPerMTok: 3_000, outputPerMTok: 15_000 } }
    const factual = await record(createSupportAgent({ prices }).on(injectedTicket), { seed: 2 })
    expect(factual.steps.length).toBeGreaterThan(0)
    for (const step of factual.steps) {
      const meta = step.meta as { inputTokens: number; outputTokens: number }
      expect(step.costUsd).toBeCloseTo((meta.inputTokens * 3_000 + meta.outputTokens * 15_000) / 1e6, 12)
    }
    const error = await runRollouts(createSupportAgent({ prices }), {
      rollouts: 50,
      seed: 1,
      concurrency: 1,
      budget: { maxCostUsd: 10 },
    }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(BudgetExceededError)
    expect(
      (error as BudgetExceededError<{ trajectories: Trajectory[] }>).partial.trajectories.length,
    ).toBeLessThan(50)
  })

  test('options are checked when the model is wrapped, naming the option', () => {
    const model = new SupportModel()
    expect(() => wrapModel(ctx, 'gpt-4.1' as never)).toThrow(
      'wrapModel: `model` must be an Agents SDK Model (an object with getResponse and getStreamedResponse), got a string "gpt-4.1". Resolve a model name first, e.g. await new OpenAIProvider().getModel(name).',
    )
    expect(() => wrapModel(ctx, model, { prices: { m: { inputPerMTok: 1, outputPerMTok: 1 } } })).toThrow(
      "wrapModel: `modelId` must be the model's id (the key of its entry in `prices`) when `prices` is given, got undefined. The Agents SDK does not tell which model a `Model` calls.",
    )
    expect(() =>
      wrapModel(ctx, model, { modelId: 'x', prices: { m: { inputPerMTok: 1, outputPerMTok: 1 } } }),
    ).toThrow(/`prices` must be a table with an entry for model "x"/)
    expect(() => wrapModel(ctx, model, { seed: 'always' as never })).toThrow(
      "wrapModel: `seed` must be 'auto', 'providerData' or 'none', got a string \"always\".",
    )
    expect(() => wrapModel(ctx, model, { name: '' })).toThrow(
      'wrapModel: `name` must be a non-empty string or a function ({ ordinal }) => string, got a string "".',
    )
    expect(() => swapModel(1, model, { name: (() => 'model') as never })).toThrow(
      'swapModel: `name` must be a non-empty string, got a function (name).',
    )
    expect(() => wrapModel(ctx, model, { modelId: '' })).toThrow(
      'wrapModel: `modelId` must be a non-empty string, got a string "".',
    )
    expect(() => wrapModel(ctx, model, { prics: {} } as never)).toThrow(
      'wrapModel: unknown option `prics`. It accepts: name, modelId, seed, prices.',
    )
    expect(() => swapModel(1, {} as never)).toThrow(
      'swapModel: `model` must be an Agents SDK Model (an object with getResponse and getStreamedResponse), got an empty object.',
    )
    expect(() => swapModel(1, model, { name: '' })).toThrow(
      'swapModel: `name` must be a non-empty string, got a string "".',
    )
    expect(() => swapModel(1, model, { seed: 'x' as never })).toThrow(/^swapModel: `seed` must be 'auto'/)
  })
})
