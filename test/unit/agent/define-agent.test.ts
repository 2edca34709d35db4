import { describe, expect, it } from 'vitest'
import { defineAgent } from '../../../src/index.js'
import { isAgent, isScenario, runRollouts } from '../../../src/entries/replay.js'
import { InvalidOptionError, NotJsonError } from '../../../src/entries/errors.js'
import { toScenario } from '../../../src/agent/define-agent.js'

describe('defineAgent', () => {
  const agent = defineAgent({ name: 'a', input: { q: 1 }, run: async (input) => input.q })

  it('makes a frozen agent with its name and default input', () => {
    expect(agent).toMatchObject({ kind: 'agent', name: 'a', input: { q: 1 } })
    expect(Object.isFrozen(agent)).toBe(true)
    expect(isAgent(agent)).toBe(true)
    expect(isScenario(agent)).toBe(false)
  })

  it('agent.on(input) is a frozen scenario of that agent', () => {
    const scenario = agent.on({ q: 2 })
    expect(scenario).toEqual({ kind: 'scenario', agent, input: { q: 2 } })
    expect(Object.isFrozen(scenario)).toBe(true)
    expect(isScenario(scenario)).toBe(true)
    expect(isAgent(scenario)).toBe(false)
  })

  const one = (): number => 1
  it.each<[object | null, string]>([
    [{ name: '', run: one }, 'defineAgent: `name` must be a non-empty string, got a string "".'],
    [{ name: 42, run: one }, 'defineAgent: `name` must be a non-empty string, got 42.'],
    [null, 'defineAgent: `name` must be a non-empty string, got undefined.'],
    [{ name: 'x' }, 'defineAgent("x"): `run` must be a function (input, ctx) => output, got undefined.'],
  ])('refuses %j with a message naming the field', (definition, message) => {
    expect(() => defineAgent(definition as never)).toThrow(message)
  })

  it('says what was wrong as data: the caller, the field, what it accepts and what it got', () => {
    const error = (() => {
      try {
        defineAgent({ name: 'x', run: 'go' } as never)
      } catch (thrown) {
        return thrown
      }
    })()
    expect(error).toBeInstanceOf(InvalidOptionError)
    expect({ ...(error as InvalidOptionError) }).toEqual({
      name: 'InvalidOptionError',
      caller: 'defineAgent("x")',
      option: 'run',
      expected: 'a function (input, ctx) => output',
      received: 'a string "go"',
    })
  })

  it('refuses inputs that are not JSON, naming the agent', () => {
    expect(() => defineAgent({ name: 'dated', input: { at: new Date(0) }, run: () => 1 })).toThrow(
      new NotJsonError(
        'The input of agent "dated" is not a JSON value: a Date instance at .at (convert it to plain JSON first).',
      ),
    )
    expect(() => agent.on({ q: undefined } as never)).toThrow(
      'The input of a scenario of agent "a" is not a JSON value: undefined at .q.',
    )
  })

  it('toScenario takes a scenario as is and an agent on its default input', () => {
    const scenario = agent.on({ q: 3 })
    expect(toScenario(scenario, 'f')).toBe(scenario)
    expect(toScenario(agent, 'f').input).toEqual({ q: 1 })
    expect(() => toScenario(null as never, 'replay')).toThrow(
      'replay: `target` must be an agent (defineAgent(...)) or a scenario (agent.on(input)), got null.',
    )
    expect(() => toScenario((() => 1) as never, 'replay')).toThrow(/got a function/)
  })

  it('runs with ctx.rollout set to the seed and the rollout index', async () => {
    const seen = defineAgent({ name: 'seen', input: null, run: (_input, ctx) => ({ ...ctx.rollout }) })
    const set = await runRollouts(seen, { rollouts: 3, seed: 17 })
    expect(set.trajectories.map((t) => t.output)).toEqual([
      { seed: 17, index: 0 },
      { seed: 17, index: 1 },
      { seed: 17, index: 2 },
    ])
  })
})
