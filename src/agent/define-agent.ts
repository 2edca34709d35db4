import { InvalidOptionError } from '../errors.js'
import { assertJson } from '../json.js'
import { describeReceived } from '../options/received.js'
import { isDataset, type Dataset } from '../dataset/schema.js'
import type { Agent, AgentDefinition, DatasetScenario, Scenario } from './types.js'

/**
 * Defines an agent: a name, an optional default input and a `run(input, ctx)` whose randomness all
 * goes through `ctx.step` and whose outside world all goes through `ctx.tool`.
 */
export function defineAgent<I = unknown, O = unknown>(definition: AgentDefinition<I, O>): Agent<I, O> {
  if (typeof definition?.name !== 'string' || definition.name === '') {
    throw new InvalidOptionError({
      caller: 'defineAgent',
      option: 'name',
      expected: 'a non-empty string',
      received: describeReceived(definition?.name),
    })
  }
  if (typeof definition.run !== 'function') {
    throw new InvalidOptionError({
      caller: `defineAgent("${definition.name}")`,
      option: 'run',
      expected: 'a function (input, ctx) => output',
      received: describeReceived(definition.run),
    })
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
    over(dataset: Dataset<I>): DatasetScenario<I, O> {
      return overDataset(agent, dataset, `${definition.name}.over`)
    },
  }
  return Object.freeze(agent)
}

/** The scenario of `agent` over `dataset`'s cases; `caller` names the call in an error. */
export function overDataset<I, O>(
  agent: Agent<I, O>,
  dataset: Dataset<I>,
  caller: string,
): DatasetScenario<I, O> {
  if (!isDataset(dataset)) {
    throw new InvalidOptionError({
      caller,
      option: 'dataset',
      expected: 'a dataset (defineDataset(name, cases))',
      received: describeReceived(dataset),
    })
  }
  const first = dataset.cases[0]
  return Object.freeze({ kind: 'scenario', agent, input: first?.input as I, dataset })
}

/** True for a scenario made by `agent.over(dataset)`. */
export function isDatasetScenario(value: unknown): value is DatasetScenario<unknown, unknown> {
  return isScenario(value) && isDataset((value as { dataset?: unknown }).dataset)
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
      throw new InvalidOptionError({
        caller,
        option: 'target',
        expected: 'a scenario (agent.on(input)), or an agent with a default `input`',
        received: `agent "${agent.name}" without a default input`,
      })
    }
    return agent.on(agent.input)
  }
  throw new InvalidOptionError({
    caller,
    option: 'target',
    expected: 'an agent (defineAgent(...)) or a scenario (agent.on(input))',
    received: describeReceived(target),
  })
}
