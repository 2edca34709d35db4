// Each intervention changes exactly what it says, checked as properties over random
// step counts, intervention steps and seeds.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defineAgent, type Trajectory } from '../../../src/index.js'
import type { Json } from '../../../src/entries/types.js'
import {
  editContext,
  forceAction,
  hold,
  record,
  replaceObservation,
  replay,
  resample,
  swapPolicy,
  type ObservationSelector,
} from '../../../src/entries/replay.js'
import { describeIntervention, type Intervention } from '../../../src/replay/interventions.js'
import { stepNames } from '../../../src/trajectory/step-name.js'
import { chainAgent, type ChainAction } from '../agents.js'

const ROLLOUTS = 12
const RUNS = { numRuns: 30, seed: 424242 }

/** A recorded chain run of 1–6 steps, a step k inside it and a replay seed. */
const caseArbitrary = fc
  .record({
    steps: fc.integer({ min: 1, max: 6 }),
    seed: fc.integer(),
    rollout: fc.nat({ max: 50 }),
    replaySeed: fc.integer(),
  })
  .chain((c) => fc.record({ k: fc.integer({ min: 0, max: c.steps - 1 }) }).map(({ k }) => ({ ...c, k })))

type Case = { steps: number; seed: number; rollout: number; replaySeed: number; k: number }

async function setUp(c: Case) {
  const { agent, counters } = chainAgent()
  const scenario = agent.on({ steps: c.steps })
  const factual = await record(scenario, { seed: c.seed, rollout: c.rollout })
  const before = { ...counters }
  return { scenario, factual, counters, before }
}

const value = (step: { action: Json }) => (step.action as ChainAction).value

/** Steps before `k` are held: recorded action, source 'held', same observations (tools are deterministic). */
function expectHeldBefore(trajectory: Trajectory, factual: Trajectory, k: number): void {
  expect(trajectory.preamble).toEqual(factual.preamble)
  for (let i = 0; i < k; i++) {
    const step = trajectory.steps[i]!
    expect(step.source).toBe('held')
    expect(step.diverged).toBeUndefined()
    expect(step.action).toEqual(factual.steps[i]!.action)
    expect(step.observations).toEqual(factual.steps[i]!.observations)
  }
}

describe('resample(k)', () => {
  it('holds the steps before k and draws step k (and the rest) afresh', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async (c) => {
        const { scenario, factual } = await setUp(c)
        const set = await replay(scenario, factual, resample(c.k), { rollouts: ROLLOUTS, seed: c.replaySeed })
        expect(set.errors).toEqual([])
        expect(set.actionMatchRate).toBe(1)
        expect(set.trajectories).toHaveLength(ROLLOUTS)
        for (const trajectory of set.trajectories) {
          expectHeldBefore(trajectory, factual, c.k)
          expect(trajectory.steps.slice(c.k).every((s) => s.source === 'policy')).toBe(true)
          expect(trajectory.replay).toEqual({ heldSteps: c.k, matchedSteps: c.k })
          expect(trajectory.intervention).toBe(`resample(${c.k})`)
        }
        // Over many rollouts step k varies; a step before k never does.
        const drawn = new Set(set.trajectories.map((t) => value(t.steps[c.k]!)))
        expect(drawn.size).toBeGreaterThan(ROLLOUTS / 2)
        for (let i = 0; i < c.k; i++) {
          expect(new Set(set.trajectories.map((t) => value(t.steps[i]!)))).toEqual(
            new Set([value(factual.steps[i]!)]),
          )
        }
      }),
      RUNS,
    )
  })
})

describe('forceAction(k, action)', () => {
  it('holds the steps before k and makes step k exactly the given action (source "forced")', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, fc.jsonValue({ maxDepth: 3 }), async (c, forced) => {
        const { scenario, factual } = await setUp(c)
        const set = await replay(scenario, factual, forceAction(c.k, forced as Json), {
          rollouts: 4,
          seed: c.replaySeed,
        })
        expect(set.errors).toEqual([])
        expect(set.trajectories).toHaveLength(4)
        for (const trajectory of set.trajectories) {
          expectHeldBefore(trajectory, factual, c.k)
          expect(trajectory.steps[c.k]!.source).toBe('forced')
          expect(trajectory.steps[c.k]!.action).toStrictEqual(forced)
          expect(trajectory.steps.slice(c.k + 1).every((s) => s.source === 'policy')).toBe(true)
        }
      }),
      RUNS,
    )
  })

  it('refuses an action that is not JSON, naming the helper', () => {
    expect(() => forceAction(1, new Date(0) as unknown as Json)).toThrow(
      'forceAction(1, …): the action is not a JSON value: a Date instance (convert it to plain JSON first).',
    )
  })
})

describe('replaceObservation(k, result, select)', () => {
  const selectors: Array<[ObservationSelector, 'echo' | 'audit']> = [
    [{}, 'echo'],
    [{ position: 1 }, 'audit'],
    [{ tool: 'audit' }, 'audit'],
    [{ tool: 'echo', position: 0 }, 'echo'],
  ]

  it('holds steps ≤ k, replaces exactly the selected tool result of step k and leaves the others alone', async () => {
    await fc.assert(
      fc.asyncProperty(
        caseArbitrary,
        fc.constantFrom(...selectors),
        fc.jsonValue({ maxDepth: 2 }),
        async (c, [select, replacedTool], replacement) => {
          const { scenario, factual, counters, before } = await setUp(c)
          const set = await replay(scenario, factual, replaceObservation(c.k, replacement as Json, select), {
            rollouts: 4,
            seed: c.replaySeed,
          })
          expect(set.errors).toEqual([])
          expect(set.trajectories).toHaveLength(4)
          for (const trajectory of set.trajectories) {
            expectHeldBefore(trajectory, factual, c.k)
            const step = trajectory.steps[c.k]!
            expect(step.source).toBe('held')
            expect(step.action).toEqual(factual.steps[c.k]!.action)
            const position = replacedTool === 'echo' ? 0 : 1
            expect(step.observations[position]).toStrictEqual({
              tool: replacedTool,
              args: factual.steps[c.k]!.observations[position]!.args,
              result: replacement,
              source: 'replaced',
            })
            expect(step.observations[1 - position]).toEqual(factual.steps[c.k]!.observations[1 - position])
            // The next step decides from the replaced result.
            if (c.k + 1 < c.steps) {
              const saw = (trajectory.steps[c.k + 1]!.action as ChainAction).saw as { history: Json[] }
              expect(saw.history.at(position === 0 ? -2 : -1)).toStrictEqual(replacement)
              expect(trajectory.steps[c.k + 1]!.source).toBe('policy')
            }
          }
          // The replaced call never reached the tool; every other call did.
          const calls = { echo: counters.echo - before.echo, audit: counters.audit - before.audit }
          expect(calls[replacedTool]).toBe(4 * (c.steps - 1))
          expect(calls[replacedTool === 'echo' ? 'audit' : 'echo']).toBe(4 * c.steps)
        },
      ),
      RUNS,
    )
  })

  it('refuses a result that is not JSON and a bad position', () => {
    expect(() => replaceObservation(0, undefined as unknown as Json)).toThrow(
      'replaceObservation(0, …): the result is not a JSON value: undefined.',
    )
    expect(() => replaceObservation(0, 1, { position: -1 })).toThrow(
      'replaceObservation: select.position must be a non-negative integer, got -1.',
    )
  })
})

describe('editContext(k, edit)', () => {
  it('holds steps before k; the policy of step k sees edit(context); the recorded context stays the original', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, fc.string(), async (c, marker) => {
        const { scenario, factual } = await setUp(c)
        const seen: Array<Json | undefined> = []
        const edit = (context: Json | undefined): Json => {
          seen.push(context)
          // An in-place edit: must not leak into the agent's data or the record.
          ;(context as { history: Json[] }).history.push(marker)
          return { edited: context ?? null, marker }
        }
        const set = await replay(scenario, factual, editContext(c.k, edit), {
          rollouts: 3,
          seed: c.replaySeed,
        })
        expect(set.errors).toEqual([])
        const original = factual.steps[c.k]!.context as { history: Json[] }
        expect(seen).toEqual(Array(3).fill({ ...original, history: [...original.history, marker] }))
        expect(set.trajectories).toHaveLength(3)
        for (const trajectory of set.trajectories) {
          expectHeldBefore(trajectory, factual, c.k)
          const step = trajectory.steps[c.k]!
          expect(step.source).toBe('edited')
          expect((step.action as ChainAction).saw).toEqual({
            edited: { ...original, history: [...original.history, marker] },
            marker,
          })
          expect(step.context).toEqual(original)
          expect(step.contextDigest).toBe(factual.steps[c.k]!.contextDigest)
          if (c.k + 1 < c.steps) {
            const next = trajectory.steps[c.k + 1]!
            expect(next.source).toBe('policy')
            expect((next.context as { history: Json[] }).history).not.toContain(marker)
          }
        }
      }),
      RUNS,
    )
  })
})

describe('swapPolicy(k, policies)', () => {
  it('from step k on, steps of the named kind use the other policy; steps before k are held', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, fc.constantFrom('think', 'act'), async (c, swapped) => {
        const { scenario, factual } = await setUp(c)
        const intervention = swapPolicy(c.k, {
          [swapped]: (rng) => ({ value: -1 - Math.floor(rng() * 10), saw: 'other' }),
        })
        const set = await replay(scenario, factual, intervention, { rollouts: 4, seed: c.replaySeed })
        expect(set.errors).toEqual([])
        expect(set.trajectories).toHaveLength(4)
        for (const trajectory of set.trajectories) {
          expectHeldBefore(trajectory, factual, c.k)
          for (const step of trajectory.steps.slice(c.k)) {
            if (step.name === swapped) {
              expect(step.source).toBe('swapped')
              expect((step.action as ChainAction).saw).toBe('other')
              expect(value(step)).toBeLessThan(0)
            } else {
              expect(step.source).toBe('policy')
              expect(value(step)).toBeGreaterThanOrEqual(0)
            }
          }
        }
      }),
      RUNS,
    )
  })
})

describe('swapPolicy and inherited names', () => {
  it('swaps only the names the policies object really has (a step named "toString" keeps its own policy)', async () => {
    const agent = defineAgent({
      name: 'odd-names',
      input: null,
      async run(_input, ctx) {
        const a = await ctx.step('toString', () => 'own')
        const b = await ctx.step('constructor', () => 'own')
        const c = await ctx.step('decide', () => 'own')
        return [a, b, c]
      },
    })
    const factual = await record(agent, { seed: 1 })
    const set = await replay(agent, factual, swapPolicy(0, { decide: () => 'swapped' }), {
      rollouts: 1,
      seed: 1,
    })
    expect(set.errors).toEqual([])
    expect(set.trajectories[0]!.output).toEqual(['own', 'own', 'swapped'])
  })
})

describe('swapPolicy and numbered steps', () => {
  it('swaps every numbered call of a family by the family name, and a numbered step by its own name first', async () => {
    const agent = defineAgent({
      name: 'numbered',
      input: null,
      async run(_input, ctx) {
        const names = stepNames('model')
        const calls = []
        for (let call = 0; call < 3; call++) calls.push(await ctx.step(names(), () => 'own'))
        calls.push(await ctx.step('model#x', () => 'own'))
        return calls
      },
    })
    const factual = await record(agent, { seed: 1 })
    expect(factual.steps.map((step) => step.name)).toEqual(['model#1', 'model#2', 'model#3', 'model#x'])
    const swap = async (intervention: Intervention) =>
      (await replay(agent, factual, intervention, { rollouts: 1, seed: 1 })).trajectories[0]!.output
    // From step 1 on: model#2 and model#3 are of the family "model"; "model#x" is its own family.
    expect(await swap(swapPolicy(1, { model: () => 'family' }))).toEqual(['own', 'family', 'family', 'own'])
    expect(await swap(swapPolicy(0, { model: () => 'family', 'model#3': () => 'exact' }))).toEqual([
      'family',
      'family',
      'exact',
      'own',
    ])
  })
})

describe('hold(S)', () => {
  it('holds exactly the steps in S and draws every other step', async () => {
    const arbitrary = caseArbitrary.chain((c) =>
      fc.subarray(Array.from({ length: c.steps }, (_, i) => i)).map((held) => ({ ...c, held })),
    )
    await fc.assert(
      fc.asyncProperty(arbitrary, async (c) => {
        const { scenario, factual } = await setUp(c)
        const set = await replay(scenario, factual, hold(c.held), { rollouts: 6, seed: c.replaySeed })
        expect(set.errors).toEqual([])
        expect(set.heldSteps).toBe(6 * c.held.length)
        expect(set.trajectories).toHaveLength(6)
        for (const trajectory of set.trajectories) {
          trajectory.steps.forEach((step, i) => {
            if (c.held.includes(i)) {
              expect(step.source).toBe('held')
              expect(step.action).toEqual(factual.steps[i]!.action)
            } else {
              expect(step.source).toBe('policy')
            }
          })
          // A held step after a redrawn one sees another history: it stays held, flagged diverged.
          const firstDrawn = trajectory.steps.findIndex((s) => s.source === 'policy')
          trajectory.steps.forEach((step, i) => {
            expect(step.diverged ?? false).toBe(step.source === 'held' && firstDrawn !== -1 && i > firstDrawn)
          })
        }
        // A step not held varies over rollouts (with 6 rollouts of a 1-in-a-million draw).
        for (let i = 0; i < c.steps; i++) {
          if (!c.held.includes(i))
            expect(new Set(set.trajectories.map((t) => value(t.steps[i]!))).size).toBeGreaterThan(1)
        }
      }),
      RUNS,
    )
  })

  it('sorts and de-duplicates the steps, and refuses negative or fractional ones', () => {
    expect(hold([3, 1, 3, 0])).toEqual({ kind: 'hold', steps: [0, 1, 3] })
    expect(hold(new Set([2]))).toEqual({ kind: 'hold', steps: [2] })
    expect(() => hold([1, -1])).toThrow('hold: the step index must be a non-negative integer, got -1.')
    expect(() => resample(1.5)).toThrow('resample: the step index must be a non-negative integer, got 1.5.')
  })
})

describe('tools: "recorded"', () => {
  it('answers the tool calls of held steps (and the preamble) from the recording, without calling the tools', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async (c) => {
        const { scenario, factual, counters, before } = await setUp(c)
        const all = await replay(scenario, factual, hold('all'), {
          rollouts: 3,
          seed: c.replaySeed,
          tools: 'recorded',
        })
        expect({ ...counters }).toEqual({ ...before, runs: before.runs + 3 })
        expect(all.trajectories).toHaveLength(3)
        for (const trajectory of all.trajectories) {
          expect(trajectory.preamble).toEqual(factual.preamble.map((o) => ({ ...o, source: 'recorded' })))
          trajectory.steps.forEach((step, i) => {
            expect(step.observations).toEqual(
              factual.steps[i]!.observations.map((o) => ({ ...o, source: 'recorded' })),
            )
          })
          expect(trajectory.output).toEqual(factual.output)
        }

        // resample(k): held steps are answered from the recording, steps ≥ k call the tools.
        const afterHold = { ...counters }
        const set = await replay(scenario, factual, resample(c.k), {
          rollouts: 3,
          seed: c.replaySeed,
          tools: 'recorded',
        })
        expect(counters.config - afterHold.config).toBe(0)
        expect(counters.echo - afterHold.echo).toBe(3 * (c.steps - c.k))
        expect(counters.audit - afterHold.audit).toBe(3 * (c.steps - c.k))
        expect(set.trajectories).toHaveLength(3)
        for (const trajectory of set.trajectories) {
          trajectory.steps.forEach((step, i) => {
            expect(step.observations.map((o) => o.source)).toEqual(
              Array(2).fill(i < c.k ? 'recorded' : 'live'),
            )
          })
        }
      }),
      RUNS,
    )
  })

  it('runs every tool live by default', async () => {
    const { scenario, factual, counters, before } = await setUp({
      steps: 3,
      seed: 1,
      rollout: 0,
      replaySeed: 1,
      k: 0,
    })
    await replay(scenario, factual, hold('all'), { rollouts: 2, seed: 1 })
    expect(counters.config - before.config).toBe(2)
    expect(counters.echo - before.echo).toBe(6)
    expect(counters.audit - before.audit).toBe(6)
  })

  it('calls the tool live where the recording has no matching call (another tool at that position, or a tool that threw)', async () => {
    const { agent, counters } = chainAgent()
    const factual = await record(agent.on({ steps: 2 }), { seed: 1 })
    const doctored: Trajectory = {
      ...factual,
      steps: factual.steps.map((step, i) =>
        i === 0
          ? { ...step, observations: [{ ...step.observations[0]!, tool: 'other' }, step.observations[1]!] }
          : {
              ...step,
              observations: [
                step.observations[0]!,
                { tool: 'audit', args: null, error: 'down', source: 'live' },
              ],
            },
      ),
    }
    const before = { ...counters }
    const set = await replay(agent, doctored, hold('all'), { rollouts: 1, seed: 1, tools: 'recorded' })
    expect(counters.echo - before.echo).toBe(1)
    expect(counters.audit - before.audit).toBe(1)
    expect(set.trajectories[0]!.steps.map((s) => s.observations.map((o) => o.source))).toEqual([
      ['live', 'recorded'],
      ['recorded', 'live'],
    ])
  })
})

describe('describeIntervention', () => {
  it('labels each intervention for messages and files', () => {
    expect(
      [
        resample(2),
        forceAction(1, 'refund'),
        forceAction(0, 'x'.repeat(60)),
        replaceObservation(3, { ok: false }),
        editContext(1, (c) => c ?? null),
        swapPolicy(2, { decide: () => 'escalate', reply: () => 'hi' }),
        hold('all'),
        hold([2, 0]),
      ].map(describeIntervention),
    ).toEqual([
      'resample(2)',
      'forceAction(1, "refund")',
      `forceAction(0, "${'x'.repeat(36)}...)`,
      'replaceObservation(3, {"ok":false})',
      'editContext(1)',
      'swapPolicy(2, [decide, reply])',
      'hold(all)',
      'hold([0,2])',
    ])
  })
})
