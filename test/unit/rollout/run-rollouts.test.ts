import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defineAgent } from '../../../src/index.js'
import type { Json } from '../../../src/entries/types.js'
import { record, runRollouts, type RolloutProgress } from '../../../src/entries/replay.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'
import { contextDigest } from '../../../src/json.js'
import { chainAgent, jitteryAgent } from '../agents.js'

describe('runRollouts: same seed, same trajectories', () => {
  it('gives byte-identical JSON at concurrency 1, 4 and 16 for an agent whose steps take random time', async () => {
    const runs = await Promise.all(
      [1, 4, 16].map((concurrency) => runRollouts(jitteryAgent, { rollouts: 24, seed: 42, concurrency })),
    )
    const [serial, ...others] = runs.map((set) => JSON.stringify(set))
    for (const other of others) expect(other).toBe(serial)
    // Not vacuous: the rollouts differ from each other, and another seed gives other trajectories.
    const first = runs[0]!
    expect(new Set(first.trajectories.map((t) => JSON.stringify(t.steps))).size).toBeGreaterThan(12)
    const otherSeed = await runRollouts(jitteryAgent, { rollouts: 24, seed: 43, concurrency: 16 })
    expect(JSON.stringify(otherSeed.trajectories)).not.toBe(JSON.stringify(first.trajectories))
  })

  it('gives identical JSON when run twice at the same concurrency', async () => {
    const { agent } = chainAgent()
    const a = await runRollouts(agent, { rollouts: 20, seed: 7, concurrency: 16 })
    const b = await runRollouts(agent, { rollouts: 20, seed: 7, concurrency: 16 })
    expect(JSON.stringify(b)).toBe(JSON.stringify(a))
  })

  it('property: for any seed, rollout count and concurrency, the result equals the serial run', async () => {
    const { agent } = chainAgent()
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 2, max: 16 }),
        fc.integer({ min: 0, max: 5 }),
        async (seed, rollouts, concurrency, steps) => {
          const scenario = agent.on({ steps })
          const serial = await runRollouts(scenario, { rollouts, seed, concurrency: 1 })
          const parallel = await runRollouts(scenario, { rollouts, seed, concurrency })
          expect(JSON.stringify(parallel)).toBe(JSON.stringify(serial))
        },
      ),
      { numRuns: 40, seed: 20240611 },
    )
  })

  it('record(s, { seed, rollout: r }) is rollout r of runRollouts(s, { seed })', async () => {
    const set = await runRollouts(jitteryAgent, { rollouts: 10, seed: 99, concurrency: 4 })
    for (const r of [0, 3, 9]) {
      const recorded = await record(jitteryAgent, { seed: 99, rollout: r })
      expect(JSON.stringify(recorded)).toBe(JSON.stringify(set.trajectories[r]))
    }
  })

  it('rollout r uses the streams (seed, r, j): rollouts differ, and rollout 0 is the record default', async () => {
    const { agent } = chainAgent()
    const set = await runRollouts(agent, { rollouts: 3, seed: 5 })
    expect(set.trajectories.map((t) => t.rollout)).toEqual([0, 1, 2])
    expect(set.trajectories[0]!.output).not.toEqual(set.trajectories[1]!.output)
    expect(await record(agent, { seed: 5 })).toEqual(set.trajectories[0])
  })
})

describe('runRollouts: the recorded trajectory', () => {
  it('records steps, their contexts as snapshots with matching digests, and tool calls in order', async () => {
    const { agent } = chainAgent()
    const set = await runRollouts(agent.on({ steps: 3 }), { rollouts: 4, seed: 11 })
    expect(set.trajectories).toHaveLength(4)
    for (const trajectory of set.trajectories) {
      expect(trajectory).toMatchObject({
        schema: 'vitest-causal-replay/trajectory@1',
        agent: 'chain',
        seed: 11,
      })
      expect(trajectory.input).toEqual({ steps: 3 })
      expect(trajectory.preamble).toEqual([
        { tool: 'config', args: { want: 'greeting' }, result: { greeting: 'hi' }, source: 'live' },
      ])
      expect(trajectory.steps.map((s) => [s.index, s.name, s.source])).toEqual([
        [0, 'think', 'policy'],
        [1, 'act', 'policy'],
        [2, 'think', 'policy'],
      ])
      expect(trajectory.steps.length).toBeGreaterThan(0)
      for (const step of trajectory.steps) {
        // The agent keeps appending to the list it passed as context; the recording must not change.
        expect(step.context).toMatchObject({ turn: step.index })
        expect((step.context as { history: Json[] }).history).toHaveLength(1 + 3 * step.index)
        expect(step.contextDigest).toBe(contextDigest(step.context as Json))
        expect(step.observations.map((o) => o.tool)).toEqual(['echo', 'audit'])
      }
      expect(trajectory.output).toEqual(trajectory.steps.map((s) => (s.action as { value: number }).value))
      expect(trajectory.error).toBeUndefined()
      expect(trajectory.replay).toBeUndefined()
      expect(trajectory.intervention).toBeUndefined()
    }
  })

  it('keeps tool calls made before the first step in the preamble, and later ones on the step before them', async () => {
    const agent = defineAgent({
      name: 'tools',
      input: null,
      async run(_input, ctx) {
        await ctx.tool('a', 1, () => 'A')
        await ctx.tool('b', 2, () => undefined)
        await ctx.step('first', () => 'x')
        await ctx.tool('c', 3, () => 'C')
        await ctx.step('second', () => 'y')
        await ctx.tool('d', 4, () => 'D')
        await ctx.tool('e', 5, () => 'E')
      },
    })
    const [trajectory] = (await runRollouts(agent, { rollouts: 1, seed: 1 })).trajectories
    expect(trajectory!.preamble).toEqual([
      { tool: 'a', args: 1, result: 'A', source: 'live' },
      { tool: 'b', args: 2, source: 'live' },
    ])
    expect(trajectory!.steps.map((s) => s.observations.map((o) => o.tool))).toEqual([['c'], ['d', 'e']])
    expect(trajectory!.output).toBeUndefined()
  })

  it('records a tool that threw with its message, and the agent sees the throw', async () => {
    const agent = defineAgent({
      name: 'flaky-tool',
      input: null,
      async run(_input, ctx) {
        await ctx.step('go', () => 'go')
        try {
          await ctx.tool('flaky', null, () => {
            throw new Error('service unavailable')
          })
        } catch (error) {
          return `caught: ${(error as Error).message}`
        }
        return 'not caught'
      },
    })
    const [trajectory] = (await runRollouts(agent, { rollouts: 1, seed: 1 })).trajectories
    expect(trajectory!.steps[0]!.observations).toEqual([
      { tool: 'flaky', args: null, error: 'service unavailable', source: 'live' },
    ])
    expect(trajectory!.output).toBe('caught: service unavailable')
  })

  it('gives every policy the step view: name, index, context, a 31-bit provider seed, the signal', async () => {
    const views: Array<{ name: string; index: number; context: unknown; seed: number; aborted: boolean }> = []
    const rollouts: unknown[] = []
    const agent = defineAgent({
      name: 'views',
      input: null,
      async run(_input, ctx) {
        for (const name of ['a', 'b']) {
          await ctx.step(
            name,
            (_rng, view) => {
              views.push({ ...view, seed: view.seed, aborted: view.signal.aborted })
              return null
            },
            { context: { name } },
          )
        }
        rollouts.push(ctx.rollout)
      },
    })
    const set = await runRollouts(agent, { rollouts: 2, seed: 3, concurrency: 1 })
    expect(set.errors).toEqual([])
    expect(rollouts).toEqual([
      { seed: 3, index: 0 },
      { seed: 3, index: 1 },
    ])
    expect(views.map(({ name, index, context }) => ({ name, index, context }))).toEqual([
      { name: 'a', index: 0, context: { name: 'a' } },
      { name: 'b', index: 1, context: { name: 'b' } },
      { name: 'a', index: 0, context: { name: 'a' } },
      { name: 'b', index: 1, context: { name: 'b' } },
    ])
    for (const view of views) {
      expect(Number.isInteger(view.seed) && view.seed >= 0 && view.seed < 2 ** 31).toBe(true)
      expect(view.aborted).toBe(false)
    }
    // Seeds follow the step and rollout, not the name.
    expect(new Set(views.map((v) => v.seed)).size).toBe(4)
  })

  it('gives each rollout its own copy of the input, so an agent that mutates it cannot leak into other rollouts', async () => {
    const agent = defineAgent({
      name: 'mutates-input',
      input: { seen: [] as number[] },
      async run(input, ctx) {
        input.seen.push(ctx.rollout.index)
        return ctx.step('count', () => input.seen.length)
      },
    })
    const set = await runRollouts(agent, { rollouts: 5, seed: 1, concurrency: 1 })
    expect(set.trajectories.map((t) => t.output)).toEqual([1, 1, 1, 1, 1])
    expect(set.trajectories.map((t) => t.input)).toEqual(Array(5).fill({ seen: [] }))
    expect(agent.input).toEqual({ seen: [] })
  })

  it('reports progress after every rollout', async () => {
    const progress: RolloutProgress[] = []
    const agent = defineAgent({
      name: 'progress',
      input: null,
      async run(_input, ctx) {
        if ((await ctx.step('x', (rng) => rng())) < 0.3) throw new Error('unlucky')
      },
    })
    const set = await runRollouts(agent, {
      rollouts: 20,
      seed: 4,
      concurrency: 3,
      onProgress: (p) => progress.push(p),
    })
    expect(progress.map((p) => p.completed)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(progress.every((p) => p.total === 20)).toBe(true)
    expect(progress.at(-1)!.errors).toBe(set.errors.length)
    expect(set.errors.length).toBeGreaterThan(0)
  })
})

describe('runRollouts: options', () => {
  const { agent } = chainAgent()

  it.each([
    [{ rollouts: 0 }, 'runRollouts: `rollouts` must be a positive integer, got 0.'],
    [{ rollouts: 2.5 }, 'runRollouts: `rollouts` must be a positive integer, got 2.5.'],
    [{ rollouts: '5' }, 'runRollouts: `rollouts` must be a positive integer, got a string "5".'],
    [{ concurrency: 0 }, 'runRollouts: `concurrency` must be a positive integer, got 0.'],
    [{ seed: 1.5 }, 'runRollouts: `seed` must be a safe integer, e.g. 42, got 1.5.'],
    [{ seed: Number.NaN }, 'runRollouts: `seed` must be a safe integer, e.g. 42, got NaN.'],
    [{ timeoutMs: -1 }, 'runRollouts: `timeoutMs` must be a positive number of milliseconds, got -1.'],
    [{ maxSteps: 0 }, 'runRollouts: `maxSteps` must be a positive integer, got 0.'],
    [{ maxSteps: null }, 'runRollouts: `maxSteps` must be a positive integer, got null.'],
    [{ signal: 'stop' }, 'runRollouts: `signal` must be an AbortSignal, got a string "stop".'],
    [{ onProgress: {} }, 'runRollouts: `onProgress` must be a function, got an empty object.'],
    [
      { budget: { maxRollouts: -1 } },
      'runRollouts: `budget.maxRollouts` must be a non-negative integer, got -1.',
    ],
    [
      { budget: { maxCostUsd: Number.NaN } },
      'runRollouts: `budget.maxCostUsd` must be a non-negative number, got NaN.',
    ],
    [
      { budget: null },
      'runRollouts: `budget` must be a Budget or limits { maxRollouts?, maxCostUsd? }, got null.',
    ],
    [
      { budget: { maxRolouts: 5 } },
      'runRollouts: unknown option `budget.maxRolouts`. It accepts: maxRollouts, maxCostUsd.',
    ],
    [
      { rollout: 5 },
      'runRollouts: unknown option `rollout`. It accepts: rollouts, seed, concurrency, timeoutMs, maxSteps, budget, signal, onProgress.',
    ],
  ])('rejects %j with a message naming the option', async (options, message) => {
    const error = await runRollouts(agent, options as never).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidOptionError)
    expect((error as Error).message).toBe(message)
  })

  it('rejects options that are not an object, and takes none at all', async () => {
    await expect(runRollouts(agent, null as never)).rejects.toThrow(
      'runRollouts: `options` must be an object, got null.',
    )
    await expect(runRollouts(agent)).resolves.toHaveProperty('trajectories.length', 100)
  })

  it('runs without a time limit when timeoutMs is Infinity, and takes limits set to Infinity', async () => {
    const set = await runRollouts(agent, {
      rollouts: 2,
      seed: 1,
      timeoutMs: Infinity,
      budget: { maxRollouts: Infinity, maxCostUsd: Infinity },
    })
    expect(set.trajectories.map((trajectory) => trajectory.error)).toEqual([undefined, undefined])
  })

  it('picks a random seed when none is given and reports it on the result', async () => {
    const set = await runRollouts(agent, { rollouts: 2 })
    expect(Number.isSafeInteger(set.seed)).toBe(true)
    const again = await runRollouts(agent, { rollouts: 2, seed: set.seed })
    expect(JSON.stringify(again)).toBe(JSON.stringify(set))
  })

  it('refuses things that are neither an agent nor a scenario, and agents without a default input', async () => {
    await expect(runRollouts({ name: 'x' } as never)).rejects.toThrow(
      'runRollouts: `target` must be an agent (defineAgent(...)) or a scenario (agent.on(input)), got an object with keys {name}.',
    )
    const noInput = defineAgent({ name: 'no-input', run: () => null })
    await expect(runRollouts(noInput)).rejects.toThrow(
      'runRollouts: `target` must be a scenario (agent.on(input)), or an agent with a default `input`, got agent "no-input" without a default input.',
    )
    await expect(runRollouts(noInput.on(null), { rollouts: 1, seed: 1 })).resolves.toBeDefined()
  })
})
