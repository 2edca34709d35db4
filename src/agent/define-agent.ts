import { InvalidOptionError } from '../errors.js'
import { assertJson } from '../json.js'
import type { Agent, AgentDefinition, Scenario } from './types.js'

/**
 * Defines an agent: a name, an optional default input and a `run(input, ctx)` whose randomness all
 * goes through `ctx.step` and whose outside world all goes through `ctx.tool`.
 */
export function defineAgent<I = unknown, O = unknown>(definition: AgentDefinition<I, O>): Agent<I, O> {
  if (typeof definition?.name !== 'string' || definition.name === '') {
    throw new InvalidOptionError('defineAgent: `name` must be a non-empty string.')
  }
  if (typeof definition.run !== 'function') {
    throw new InvalidOptionError(
      `defineAgent("${definition.name}"): \`run\` must be a function (input, ctx) => output.`,
    )
  }
  if (definition.input !== undefined) assertJson(definition.input, `The input of agent "${definition.name}"`)
  const agent: Agent<I, O> = {
    kind: 'agent',
    name: definition.name,
    input: definition.input,
    run: (input, ctx) => definition.run(input, ctx),
    on(input: I): Scenario<I, O> {
      assertJson(input, `The input of a scenario of agent "${definition.name}"`)
      return Object.freeze({ kind: 'scenario', agent, input })
    },
  }
  return Object.freeze(agent)
}

/** True for a value made by `defineAgent`. */
export function isAgent(value: unknown): value is Agent<unknown, unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'agent'
}

/** True for a value made by `agent.on(input)`. */
export function isScenario(value: unknown): value is Scenario<unknown, unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'scenario'
}

/** An agent or a scenario: every function that takes a scenario also takes an agent (with its default input). */
export type AgentOrScenario<I = unknown, O = unknown> = Agent<I, O> | Scenario<I, O>

/** The scenario to run: a scenario as is, an agent on its default input. */
export function toScenario<I, O>(target: AgentOrScenario<I, O>, caller: string): Scenario<I, O> {
  if (isScenario(target)) return target as Scenario<I, O>
  if (isAgent(target)) {
    const agent = target as Agent<I, O>
    if (agent.input === undefined) {
      throw new InvalidOptionError(
        `${caller}: agent "${agent.name}" has no default input; pass a scenario (agent.on(input)) or give defineAgent an \`input\`.`,
      )
    }
    return agent.on(agent.input)
  }
  throw new InvalidOptionError(
    `${caller}: expected an agent (defineAgent(...)) or a scenario (agent.on(input)), got ${describeValue(target)}.`,
  )
}

/** A short description of an unexpected value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'function') return `a function${value.name ? ` (${value.name})` : ''}`
  if (typeof value === 'object') return `an object with keys {${Object.keys(value).slice(0, 5).join(', ')}}`
  return `${typeof value} ${JSON.stringify(value)}`
}
