import { describe, expect, it } from 'vitest'
import { defineAgent, type AgentContext } from '../../../src/index.js'
import type { Json } from '../../../src/entries/types.js'
import { hold, record, replay, resample, runRollouts } from '../../../src/entries/replay.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'
import { chainAgent } from '../agents.js'

describe('replay(scenario, factual, hold("all"))', () => {
  it('reproduces the factual actions, tool results and output exactly, with actionMatchRate = 1', async () => {
    const { agent } = chainAgent()
    const scenario = agent.on({ steps: 5 })
    const factual = await record(scenario, { seed: 31, rollout: 4 })
    const set = await replay(scenario, factual, hold('all'), { rollouts: 16, seed: 2, concurrency: 4 })
    expect(set.actionMatchRate).toBe(1)
    expect(set.heldSteps).toBe(16 * 5)
    expect(set.matchedSteps).toBe(16 * 5)
    expect(set.intervention).toBe('hold(all)')
    expect(set.trajectories).toHaveLength(16)
    for (const trajectory of set.trajectories) {
      expect(trajectory.steps.map((s) => s.action)).toEqual(factual.steps.map((s) => s.action))
      expect(trajectory.steps.map((s) => s.contextDigest)).toEqual(factual.steps.map((s) => s.contextDigest))
      expect(trajectory.steps.every((s) => s.source === 'held' && s.diverged === undefined)).toBe(true)
      expect(trajectory.steps.map((s) => s.observations)).toEqual(factual.steps.map((s) => s.observations))
      expect(trajectory.output).toEqual(factual.output)
      expect(trajectory.replay).toEqual({ heldSteps: 5, matchedSteps: 5 })
      expect(trajectory.intervention).toBe('hold(all)')
      expect(trajectory.seed).toBe(2)
    }
  })

  it('takes the agent itself as well as a scenario, and replays the recorded input', async () => {
    const { agent } = chainAgent()
    const factual = await record(agent.on({ steps: 2 }), { seed: 1 })
    // The agent's default input has 4 steps; replay must use the recording's input (2 steps).
    const set = await replay(agent, factual, hold('all'), { rollouts: 2, seed: 1 })
    expect(set.trajectories.map((t) => t.steps.length)).toEqual([2, 2])
    expect(set.trajectories[0]!.input).toEqual({ steps: 2 })
  })

  it('derives a default seed from the recording, so a default replay is reproducible', async () => {
    const { agent } = chainAgent()
    const factual = await record(agent, { seed: 77, rollout: 3 })
    const a = await replay(agent, factual, resample(1), { rollouts: 4 })
    const b = await replay(agent, factual, resample(1), { rollouts: 4 })
    expect(a.seed).toBe(b.seed)
    expect(a.seed).not.toBe(77)
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
  })

  it('defaults to 32 rollouts', async () => {
    const { agent } = chainAgent()
    const factual = await record(agent, { seed: 1 })
    expect((await replay(agent, factual, hold('all'))).trajectories).toHaveLength(32)
  })

  it('hands held actions out as copies: an agent that mutates one cannot corrupt the recording or other rollouts', async () => {
    const agent = defineAgent({
      name: 'mutates-actions',
      input: null,
      async run(_input, ctx) {
        const plan = await ctx.step('plan', (rng) => ({ items: [Math.floor(rng() * 100)] }))
        plan.items.push(-1) // mutates the action it got
        return plan.items.length
      },
    })
    const factual = await record(agent, { seed: 1 })
    const before = JSON.stringify(factual)
    const set = await replay(agent, factual, hold('all'), { rollouts: 5, seed: 1, concurrency: 1 })
    expect(set.trajectories.map((t) => t.output)).toEqual([2, 2, 2, 2, 2])
    expect(JSON.stringify(factual)).toBe(before)
    expect(set.trajectories[4]!.steps[0]!.action).toEqual(factual.steps[0]!.action)
  })
})

/** Version 1 of an agent, and two edits made after recording it. */
function versions() {
  const body =
    (variant: 'v1' | 'new-context' | 'renamed') =>
    async (_input: null, ctx: AgentContext): Promise<Json> => {
      const lookup = await ctx.step('lookup', (rng) => (rng() < 0.5 ? 'order' : 'account'), {
        context: ['hi'],
      })
      const context =
        variant === 'new-context' ? { lookup, prompt: 'v2 prompt' } : { lookup, prompt: 'v1 prompt' }
      const decision = await ctx.step(
        variant === 'renamed' ? 'choose' : 'decide',
        (rng) => (rng() < 0.5 ? 'refund' : 'escalate'),
        {
          context,
        },
      )
      const reply = await ctx.step('reply', (rng) => (rng() < 0.5 ? 'Done.' : 'All set.'), {
        context: { lookup },
      })
      return [lookup, decision, reply]
    }
  const make = (variant: 'v1' | 'new-context' | 'renamed') =>
    defineAgent({ name: 'support', input: null, run: body(variant) })
  return { v1: make('v1'), newContext: make('new-context'), renamed: make('renamed') }
}

describe('replay of an agent changed after recording', () => {
  it('counts a held step whose context changed as a divergence: actionMatchRate < 1, diverged: true, action still held', async () => {
    const { v1, newContext } = versions()
    const factual = await record(v1, { seed: 5 })
    const set = await replay(newContext, factual, hold('all'), { rollouts: 8, seed: 1 })
    expect(set.heldSteps).toBe(24)
    expect(set.matchedSteps).toBe(16)
    expect(set.actionMatchRate).toBeCloseTo(2 / 3, 12)
    expect(set.trajectories).toHaveLength(8)
    for (const trajectory of set.trajectories) {
      expect(trajectory.steps.map((s) => s.diverged ?? false)).toEqual([false, true, false])
      expect(trajectory.steps[1]!.source).toBe('held')
      expect(trajectory.steps[1]!.action).toEqual(factual.steps[1]!.action)
      expect(trajectory.replay).toEqual({ heldSteps: 3, matchedSteps: 2 })
    }
    // The same replay of the unchanged agent matches.
    expect((await replay(v1, factual, hold('all'), { rollouts: 8, seed: 1 })).actionMatchRate).toBe(1)
  })

  it('counts a renamed step as a divergence and lets its own policy decide (the recording says nothing about it)', async () => {
    const { v1, renamed } = versions()
    const factual = await record(v1, { seed: 5 })
    const set = await replay(renamed, factual, hold('all'), { rollouts: 40, seed: 1 })
    expect(set.actionMatchRate).toBeCloseTo(2 / 3, 12)
    const decisions = new Set(set.trajectories.map((t) => t.steps[1]!.action))
    expect(decisions).toEqual(new Set(['refund', 'escalate']))
    expect(set.trajectories).toHaveLength(40)
    for (const trajectory of set.trajectories) {
      expect(trajectory.steps[1]).toMatchObject({ name: 'choose', source: 'policy', diverged: true })
    }
  })

  it('onDivergence: "error" turns a diverging rollout into an error outcome naming the step', async () => {
    const { v1, newContext } = versions()
    const factual = await record(v1, { seed: 5 })
    const set = await replay(newContext, factual, hold('all'), {
      rollouts: 4,
      seed: 1,
      onDivergence: 'error',
    })
    expect(set.completed).toHaveLength(0)
    expect(set.errors).toHaveLength(4)
    const { error } = set.errors[0]!
    expect(error.name).toBe('ReplayDivergenceError')
    expect(error.kind).toBe('threw')
    expect(error.message).toMatch(
      /^Held step 1 diverged from the recording: recorded "decide" \(context [0-9a-f]{16}\), replay reached "decide" \(context [0-9a-f]{16}\)\.$/,
    )
    expect(set.rate(() => true).n).toBe(0)
    // Without divergence, 'error' changes nothing.
    const clean = await replay(v1, factual, hold('all'), { rollouts: 4, seed: 1, onDivergence: 'error' })
    expect(clean.errors).toEqual([])
  })

  it('a replayed agent that takes more steps than recorded draws the extra ones', async () => {
    const { agent } = chainAgent()
    const factual = await record(agent.on({ steps: 2 }), { seed: 1 })
    const longer = chainAgent().agent
    const scenario = longer.on({ steps: 2 })
    // Same agent code, but the replay runs a longer input: only the recorded steps can be held.
    const set = await replay(scenario, { ...factual, input: { steps: 4 } }, hold('all'), {
      rollouts: 3,
      seed: 1,
    })
    expect(set.trajectories).toHaveLength(3)
    for (const trajectory of set.trajectories) {
      expect(trajectory.steps.map((s) => s.source)).toEqual(['held', 'held', 'policy', 'policy'])
    }
    expect(set.actionMatchRate).toBe(1)
  })
})

describe('replay options', () => {
  it('rejects a step outside the recording, naming the intervention and the range', async () => {
    const { agent } = chainAgent()
    const factual = await record(agent.on({ steps: 3 }), { seed: 1 })
    const error = await replay(agent, factual, resample(3)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidOptionError)
    expect(error).toMatchObject({
      caller: 'replay',
      option: 'intervention',
      expected: 'an intervention on steps 0–2 (the recording has 3)',
      received: 'resample(3), which names step 3',
      message:
        'replay: `intervention` must be an intervention on steps 0–2 (the recording has 3), got resample(3), which names step 3.',
    })
    await expect(replay(agent, factual, hold([0, 7]))).rejects.toThrow(
      'replay: `intervention` must be an intervention on steps 0–2 (the recording has 3), got hold([0,7]), which names step 7.',
    )
  })

  it.each([
    [
      'record',
      { seed: 1, rollouts: 3 },
      'record: unknown option `rollouts`. It accepts: seed, rollout, timeoutMs, maxSteps, budget, signal.',
    ],
    ['record', { seed: 1, signal: null }, 'record: `signal` must be an AbortSignal, got null.'],
    [
      'replay',
      { tool: 'recorded' },
      'replay: unknown option `tool`. It accepts: rollouts, seed, concurrency, timeoutMs, maxSteps, budget, signal, onProgress, tools, onDivergence, firstRollout.',
    ],
    ['replay', { tools: null }, "replay: `tools` must be 'live' or 'recorded', got null."],
    [
      'replay',
      { onDivergence: 'throw' },
      "replay: `onDivergence` must be 'count' or 'error', got a string \"throw\".",
    ],
    ['replay', { firstRollout: -2 }, 'replay: `firstRollout` must be a non-negative integer, got -2.'],
    [
      'replay',
      { budget: { maxRollouts: 5, cost: 1 } },
      'replay: unknown option `budget.cost`. It accepts: maxRollouts, maxCostUsd.',
    ],
  ])('%s rejects %j, naming the option', async (entry, options, message) => {
    const { agent } = chainAgent()
    const factual = await record(agent, { seed: 1 })
    const call =
      entry === 'record'
        ? record(agent, options as never)
        : replay(agent, factual, resample(0), options as never)
    await expect(call).rejects.toThrow(message)
  })

  it('firstRollout continues the rollout numbering, so batches add up to one run', async () => {
    const { agent } = chainAgent()
    const factual = await record(agent, { seed: 1 })
    const whole = await replay(agent, factual, resample(1), { rollouts: 6, seed: 9 })
    const first = await replay(agent, factual, resample(1), { rollouts: 2, seed: 9 })
    const rest = await replay(agent, factual, resample(1), { rollouts: 4, seed: 9, firstRollout: 2 })
    expect(JSON.stringify([...first.trajectories, ...rest.trajectories])).toBe(
      JSON.stringify(whole.trajectories),
    )
  })

  it('record rejects a bad rollout index and the budget of record is charged', async () => {
    const { agent, counters } = chainAgent()
    await expect(record(agent, { seed: 1, rollout: -1 })).rejects.toThrow(
      'record: `rollout` must be a non-negative integer, got -1.',
    )
    await expect(record(agent, {} as never)).rejects.toThrow(
      'record: `seed` must be a safe integer, e.g. 42, got undefined.',
    )
    await expect(record(agent, { seed: 1, budget: { maxRollouts: 0 } })).rejects.toThrow(
      /budget has no rollout left/,
    )
    expect(counters.runs).toBe(0)
  })

  it('the same seed in two arms gives paired streams: steps after the intervention draw the same numbers', async () => {
    // An agent whose later steps do not depend on earlier actions: under CRN, arms that resample
    // different steps agree on every step neither of them touched.
    const agent = defineAgent({
      name: 'independent',
      input: null,
      async run(_input, ctx) {
        const out: number[] = []
        for (let i = 0; i < 4; i++) out.push(await ctx.step(`s${i}`, (rng) => rng()))
        return out
      },
    })
    const factual = await record(agent, { seed: 1 })
    const arm1 = await replay(agent, factual, resample(1), { rollouts: 8, seed: 5 })
    const arm2 = await replay(agent, factual, resample(2), { rollouts: 8, seed: 5 })
    const other = await runRollouts(agent, { rollouts: 8, seed: 5 })
    for (let r = 0; r < 8; r++) {
      const a = arm1.trajectories[r]!.steps
      const b = arm2.trajectories[r]!.steps
      const plain = other.trajectories[r]!.steps
      expect(a[3]!.action).toBe(b[3]!.action)
      expect(a[2]!.action).toBe(plain[2]!.action)
      expect(b[3]!.action).toBe(plain[3]!.action)
    }
  })
})
