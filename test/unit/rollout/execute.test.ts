// Agents that misbehave: every failure is a counted error outcome with its message, never a crash
// and never a good or bad outcome.
import { describe, expect, it, vi } from 'vitest'
import { defineAgent } from '../../../src/index.js'
import type { Json } from '../../../src/entries/types.js'
import { runRollouts, type RolloutSet } from '../../../src/entries/replay.js'

/** The rate of "returned bad" must ignore error outcomes; this checks the bookkeeping of a set. */
function expectErrorsKeptApart(set: RolloutSet, rollouts: number): void {
  const estimate = set.rate((t) => t.output === 'bad')
  expect(estimate.n).toBe(rollouts - set.errors.length)
  expect(set.completed.length + set.errors.length).toBe(rollouts)
  expect(set.trajectories).toHaveLength(rollouts)
}

describe('a throwing agent', () => {
  it('becomes counted errors with its message; the other rollouts are rated', async () => {
    const agent = defineAgent({
      name: 'sometimes-throws',
      input: null,
      async run(_input, ctx) {
        const draw = await ctx.step('draw', (rng) => rng())
        if (draw < 0.4) throw new TypeError(`cannot read the order (draw ${draw.toFixed(3)})`)
        return draw < 0.7 ? 'bad' : 'good'
      },
    })
    const set = await runRollouts(agent, { rollouts: 60, seed: 8, concurrency: 8 })
    expect(set.errors.length).toBeGreaterThan(10)
    expect(set.errors.length).toBeLessThan(40)
    for (const { rollout, error } of set.errors) {
      expect(error).toEqual({
        kind: 'threw',
        name: 'TypeError',
        message: expect.stringMatching(/^cannot read the order/),
      })
      const trajectory = set.trajectories[rollout]!
      expect(trajectory.output).toBeUndefined()
      // The steps before the throw are kept: they show where it happened.
      expect(trajectory.steps.map((s) => s.name)).toEqual(['draw'])
    }
    expectErrorsKeptApart(set, 60)
  })

  it('keeps a thrown non-Error value and a synchronous throw in run', async () => {
    const agent = defineAgent({
      name: 'throws-values',
      input: null,
      run(_input, ctx) {
        if (ctx.rollout.index === 0) throw new Error('thrown synchronously')
        if (ctx.rollout.index === 1) return Promise.reject({ code: 42 })
        return 'fine'
      },
    })
    const set = await runRollouts(agent, { rollouts: 3, seed: 1 })
    expect(set.errors).toEqual([
      { rollout: 0, error: { kind: 'threw', name: 'Error', message: 'thrown synchronously' } },
      {
        rollout: 1,
        error: { kind: 'threw', name: 'object', message: '{"code":42} (thrown value, not an Error)' },
      },
    ])
    expect(set.completed.map((t) => t.output)).toEqual(['fine'])
  })

  it('records an error thrown by a policy; a policy error the agent catches does not use up a step index', async () => {
    const agent = defineAgent({
      name: 'policy-throws',
      input: null,
      async run(_input, ctx) {
        try {
          await ctx.step('flaky', () => {
            throw new Error('model overloaded')
          })
        } catch {
          // retry
        }
        return ctx.step('retry', (rng) => rng())
      },
    })
    const [trajectory] = (await runRollouts(agent, { rollouts: 1, seed: 2 })).trajectories
    expect(trajectory!.error).toBeUndefined()
    expect(trajectory!.steps.map((s) => [s.index, s.name])).toEqual([[0, 'retry']])
  })
})

describe('a hanging agent', () => {
  it('becomes a timeout error, whether it hangs in run, in a policy or in a tool', async () => {
    const never = new Promise<never>(() => {})
    const agent = defineAgent({
      name: 'hangs',
      input: null,
      async run(_input, ctx) {
        const where = await ctx.step(
          'where',
          () => ['run', 'policy', 'tool', 'nowhere'][ctx.rollout.index % 4] as string,
        )
        if (where === 'run') await never
        if (where === 'policy') await ctx.step('think', () => never)
        if (where === 'tool') await ctx.tool('slow', null, () => never)
        return 'done'
      },
    })
    const set = await runRollouts(agent, { rollouts: 8, seed: 1, concurrency: 8, timeoutMs: 200 })
    expect(set.errors.map((e) => e.rollout)).toEqual([0, 1, 2, 4, 5, 6])
    expect(set.errors.length).toBeGreaterThan(0)
    for (const { error } of set.errors) {
      expect(error).toEqual({
        kind: 'timeout',
        name: 'RolloutTimeoutError',
        message: 'The rollout exceeded timeoutMs (200 ms).',
      })
    }
    // The hung tool call is on record, marked as unfinished; the hung step is not recorded.
    expect(set.trajectories[2]!.steps[0]!.observations).toEqual([
      {
        tool: 'slow',
        args: null,
        error: 'The rollout ended before this tool call returned.',
        source: 'live',
      },
    ])
    expect(set.trajectories[1]!.steps.map((s) => s.name)).toEqual(['where'])
    expect(set.completed.map((t) => t.output)).toEqual(['done', 'done'])
    expectErrorsKeptApart(set, 8)
  })

  it('takes a timeout too long for setTimeout (over 2^31 − 1 ms) as a very long one, not as 1 ms', async () => {
    const agent = defineAgent({
      name: 'patient',
      input: null,
      async run(_input, ctx) {
        await ctx.tool(
          'wait',
          null,
          () => new Promise<null>((resolve) => setTimeout(() => resolve(null), 20)),
        )
        return 'done'
      },
    })
    const set = await runRollouts(agent, { rollouts: 2, seed: 1, timeoutMs: 1e10 })
    expect(set.errors).toEqual([])
  })

  it('never times out under timeoutMs: Infinity, and its deadline checks read no clock', async () => {
    const agent = defineAgent({
      name: 'many-steps',
      input: null,
      async run(_input, ctx) {
        for (let i = 0; i < 20; i++) await ctx.step(`s${i}`, (rng) => (rng() < 0.5 ? 'a' : 'b'))
        return 'done'
      },
    })
    const now = vi.spyOn(performance, 'now')
    try {
      const set = await runRollouts(agent, { rollouts: 3, seed: 1, timeoutMs: Infinity })
      expect(set.errors).toEqual([])
      expect(set.trajectories.map((t) => t.steps.length)).toEqual([20, 20, 20])
      const finite = await runRollouts(agent, { rollouts: 1, seed: 1, timeoutMs: 1e10 })
      expect(finite.errors).toEqual([])
      // The finite run reads the clock (its deadline and each step's check); the infinite one did not.
      const reads = now.mock.calls.length
      expect(reads).toBeGreaterThanOrEqual(21)
      now.mockClear()
      await runRollouts(agent, { rollouts: 3, seed: 1, timeoutMs: Infinity })
      expect(now.mock.calls.length).toBe(0)
    } finally {
      now.mockRestore()
    }
  })

  it('aborts the signal of a timed-out rollout, so I/O that listens to it stops', async () => {
    let abortedWith: unknown
    const agent = defineAgent({
      name: 'listens',
      input: null,
      async run(_input, ctx) {
        await ctx.tool(
          'fetch',
          null,
          () =>
            new Promise<null>((_, reject) =>
              ctx.signal.addEventListener('abort', () => {
                abortedWith = ctx.signal.reason
                reject(ctx.signal.reason as Error)
              }),
            ),
        )
      },
    })
    const set = await runRollouts(agent, { rollouts: 1, seed: 1, timeoutMs: 30 })
    expect(set.errors[0]!.error.kind).toBe('timeout')
    expect((abortedWith as Error).name).toBe('RolloutTimeoutError')
  })

  it('makes ctx calls of an agent that keeps running after its rollout ended throw, and leaves the record alone', async () => {
    let lateError: unknown
    let resumeLate: () => void = () => {}
    const agent = defineAgent({
      name: 'leftover',
      input: null,
      async run(_input, ctx) {
        await ctx.step('first', () => 1)
        // Fire and forget: this keeps going after run returns.
        void new Promise<void>((resolve) => (resumeLate = resolve)).then(async () => {
          try {
            await ctx.step('late', () => 2)
          } catch (error) {
            lateError = error
          }
        })
        return 'returned'
      },
    })
    const set = await runRollouts(agent, { rollouts: 1, seed: 1 })
    const before = JSON.stringify(set)
    resumeLate()
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect((lateError as Error).name).toBe('RolloutAbortedError')
    expect((lateError as Error).message).toBe('The rollout has ended.')
    expect(JSON.stringify(set)).toBe(before)
  })
})

describe('a looping agent', () => {
  it('a loop of steps becomes a max-steps error naming the limit and the step', async () => {
    const agent = defineAgent({
      name: 'step-loop',
      input: null,
      async run(_input, ctx) {
        for (;;) await ctx.step('think', (rng) => rng())
      },
    })
    const set = await runRollouts(agent, { rollouts: 3, seed: 1, maxSteps: 25 })
    expect(set.errors).toHaveLength(3)
    expect(set.errors[0]!.error).toEqual({
      kind: 'max-steps',
      name: 'MaxStepsExceededError',
      message: 'The rollout took more than maxSteps (25) steps; the agent seems to loop (last step "think").',
    })
    expect(set.trajectories[0]!.steps).toHaveLength(25)
  })

  it('a loop of tool calls becomes a max-steps error naming the tool', async () => {
    const agent = defineAgent({
      name: 'tool-loop',
      input: null,
      async run(_input, ctx) {
        await ctx.step('plan', () => 'poll')
        for (;;) await ctx.tool('poll', null, () => ({ ready: false }))
      },
    })
    const set = await runRollouts(agent, { rollouts: 2, seed: 1 })
    expect(set.errors.map((e) => e.error)).toEqual(
      Array(2).fill({
        kind: 'max-steps',
        name: 'MaxStepsExceededError',
        message:
          'The rollout made more than maxSteps (100) tool calls; the agent seems to loop (last tool "poll").',
      }),
    )
    expect(set.trajectories[0]!.steps[0]!.observations).toHaveLength(100)
  })

  it.each([
    [
      'steps',
      async (ctx: { step: (n: string, p: () => Json) => Promise<Json> }) => {
        for (;;) await ctx.step('spin', () => 0)
      },
    ],
    [
      'tool calls',
      async (ctx: { tool: (n: string, a: Json, i: () => Json) => Promise<Json> }) => {
        for (;;) await ctx.tool('spin', null, () => 0)
      },
    ],
  ])(
    'a tight loop of %s that never yields to timers is caught by the deadline check',
    async (_kind, loop) => {
      // maxSteps is out of reach, and the loop only awaits settled promises, so the timeout timer
      // cannot fire until the loop ends: the deadline check inside ctx.step / ctx.tool must end it.
      const agent = defineAgent({ name: 'tight-loop', input: null, run: (_input, ctx) => loop(ctx) })
      const set = await runRollouts(agent, { rollouts: 2, seed: 1, maxSteps: 1_000_000_000, timeoutMs: 25 })
      expect(set.errors.map((e) => e.error)).toEqual(
        Array(2).fill({
          kind: 'timeout',
          name: 'RolloutTimeoutError',
          message: 'The rollout exceeded timeoutMs (25 ms).',
        }),
      )
    },
  )
})

describe('values that are not JSON', () => {
  class Money {
    constructor(readonly cents: number) {}
  }
  const cases: Array<[string, () => unknown, string]> = [
    ['a Date', () => new Date(0), 'a Date instance'],
    ['undefined', () => undefined, 'undefined'],
    ['a function', () => () => 1, 'function'],
    ['NaN', () => Number.NaN, 'NaN is not a finite number'],
    [
      'Infinity inside an object',
      () => ({ score: [1, Infinity] }),
      'Infinity is not a finite number at .score[1]',
    ],
    ['a class instance', () => new Money(5), 'a Money instance (convert it to plain JSON first)'],
    ['a bigint', () => 10n, 'bigint'],
    ['a Map', () => new Map(), 'a Map instance'],
  ]

  it.each(cases)(
    'an action that is %s is a not-json error naming the step',
    async (_label, make, problem) => {
      const agent = defineAgent({
        name: 'bad-action',
        input: null,
        async run(_input, ctx) {
          await ctx.step('lookup', () => 'ok')
          await ctx.step('decide', () => make() as Json)
          return 'unreachable'
        },
      })
      const set = await runRollouts(agent, { rollouts: 2, seed: 1 })
      expect(set.errors).toHaveLength(2)
      expect(set.errors[0]!.error.kind).toBe('not-json')
      expect(set.errors[0]!.error.name).toBe('NotJsonError')
      expect(set.errors[0]!.error.message).toContain('The action of step 1 "decide" is not a JSON value: ')
      expect(set.errors[0]!.error.message).toContain(problem)
      expect(set.trajectories[0]!.steps.map((s) => s.name)).toEqual(['lookup'])
    },
  )

  it.each(cases.filter(([label]) => label !== 'undefined'))(
    'a tool result that is %s is a not-json error naming the tool',
    async (_label, make, problem) => {
      const agent = defineAgent({
        name: 'bad-tool',
        input: null,
        async run(_input, ctx) {
          await ctx.step('go', () => 'go')
          await ctx.tool('lookup_order', { id: 1 }, () => make() as Json)
        },
      })
      const set = await runRollouts(agent, { rollouts: 1, seed: 1 })
      expect(set.errors[0]!.error.kind).toBe('not-json')
      expect(set.errors[0]!.error.message).toContain(
        'The result of tool call "lookup_order" is not a JSON value: ',
      )
      expect(set.errors[0]!.error.message).toContain(problem)
    },
  )

  it('a tool that returns undefined is fine (no result on record)', async () => {
    const agent = defineAgent({
      name: 'void-tool',
      input: null,
      async run(_input, ctx) {
        await ctx.tool('notify', { to: 'ops' }, () => undefined)
      },
    })
    const set = await runRollouts(agent, { rollouts: 1, seed: 1 })
    expect(set.errors).toEqual([])
    expect(set.trajectories[0]!.preamble).toEqual([{ tool: 'notify', args: { to: 'ops' }, source: 'live' }])
  })

  it('non-JSON contexts, tool arguments, outputs and meta are errors that say which', async () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const variants: Record<
      string,
      (ctx: Parameters<Parameters<typeof defineAgent>[0]['run']>[1]) => Promise<unknown>
    > = {
      context: (ctx) => ctx.step('plan', () => 1, { context: { messages: [cyclic] } as unknown as Json }),
      args: (ctx) => ctx.tool('search', { when: new Date(0) } as unknown as Json, () => null),
      output: async () => ({ at: new Date(0) }),
      meta: (ctx) =>
        ctx.step('plan', () => 1, { meta: () => ({ model: undefined }) as unknown as { model: Json } }),
    }
    const messages: Record<string, string> = {}
    for (const [variant, body] of Object.entries(variants)) {
      const agent = defineAgent({ name: `bad-${variant}`, input: null, run: (_input, ctx) => body(ctx) })
      const set = await runRollouts(agent, { rollouts: 1, seed: 1 })
      expect(set.errors[0]!.error.kind).toBe('not-json')
      messages[variant] = set.errors[0]!.error.message
    }
    expect(messages).toEqual({
      context: 'The context of step 0 "plan" is not a JSON value: circular reference at .messages[0].self.',
      args: 'The arguments of tool call "search" is not a JSON value: a Date instance at .when (convert it to plain JSON first).',
      output:
        'The output of agent "bad-output" is not a JSON value: a Date instance at .at (convert it to plain JSON first).',
      meta: 'The meta of step 0 "plan" is not a JSON value: undefined at .model.',
    })
  })
})

describe('steps and tool calls in parallel', () => {
  it('take their index at the call, so results do not depend on which finishes first', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    const agent = defineAgent({
      name: 'parallel',
      input: null,
      async run(_input, ctx) {
        const [a, b] = await Promise.all([
          ctx.step('a', async (rng) => {
            await sleep(Math.random() * 4)
            return rng()
          }),
          ctx.step('b', async (rng) => {
            await sleep(Math.random() * 4)
            return rng()
          }),
        ])
        const results = await Promise.all(
          ['x', 'y', 'z'].map((tool) =>
            ctx.tool(tool, null, async () => {
              await sleep(Math.random() * 4)
              return tool.toUpperCase()
            }),
          ),
        )
        return [a, b, ...results]
      },
    })
    const first = await runRollouts(agent, { rollouts: 12, seed: 3, concurrency: 6 })
    const second = await runRollouts(agent, { rollouts: 12, seed: 3, concurrency: 1 })
    expect(JSON.stringify(second)).toBe(JSON.stringify(first))
    expect(first.trajectories).toHaveLength(12)
    for (const trajectory of first.trajectories) {
      expect(trajectory.steps.map((s) => [s.index, s.name])).toEqual([
        [0, 'a'],
        [1, 'b'],
      ])
      // Two parallel steps draw from two streams, not the same one twice.
      expect(trajectory.steps[0]!.action).not.toBe(trajectory.steps[1]!.action)
      expect(trajectory.steps[1]!.observations.map((o) => [o.tool, o.result])).toEqual([
        ['x', 'X'],
        ['y', 'Y'],
        ['z', 'Z'],
      ])
    }
  })

  it('a step that fails while a later one completes makes the rollout an error, not a trajectory with a gap', async () => {
    const agent = defineAgent({
      name: 'gap',
      input: null,
      async run(_input, ctx) {
        const results = await Promise.allSettled([
          ctx.step('fails', async () => {
            await new Promise((resolve) => setTimeout(resolve, 2))
            throw new Error('model overloaded')
          }),
          ctx.step('works', () => 'ok'),
        ])
        return results.map((r) => r.status)
      },
    })
    const set = await runRollouts(agent, { rollouts: 1, seed: 1 })
    expect(set.errors[0]!.error.message).toBe(
      'The rollout ended but step 0 "fails" failed (model overloaded) while later steps completed; a trajectory cannot have a gap (await each ctx.step).',
    )
    expect(set.trajectories[0]!.steps).toEqual([])
  })
})
