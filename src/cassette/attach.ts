import {
  defineAgent,
  isAgent,
  isDatasetScenario,
  isScenario,
  toScenario,
  type AgentOrScenario,
} from '../agent/define-agent.js'
import type { Agent, Scenario } from '../agent/types.js'
import type { Cassette } from './cassette.js'

// Which agents run through a cassette. A WeakMap rather than a field on the agent: the engine asks
// once per rollout, an agent without a cassette pays one lookup, and `Agent` keeps its shape.
const cassettes = new WeakMap<object, Cassette>()

/**
 * The same agent (or scenario), with every rollout of it going through `cassette`: model calls it
 * holds are replayed, others are made and recorded. Pass the result to any library call
 * (`runRollouts`, `record`, `replay`, `contrastive`, `shapley`, `check`); save the cassette after.
 * A null cassette (mode `off`) gives the target back unchanged.
 */
export function withCassette<I, O>(target: Agent<I, O>, cassette: Cassette | null): Agent<I, O>
/** A scenario whose rollouts go through `cassette` (see the agent overload). */
export function withCassette<I, O>(target: Scenario<I, O>, cassette: Cassette | null): Scenario<I, O>
export function withCassette(target: AgentOrScenario, cassette: Cassette | null): AgentOrScenario {
  if (cassette === null) return target
  const scenario = isScenario(target) ? target : undefined
  const agent = (scenario?.agent ?? target) as Agent<unknown, unknown>
  // Anything else gets the usual error that names what was expected.
  if (scenario === undefined && !isAgent(target)) toScenario(target, 'withCassette')
  const definition = {
    name: agent.name,
    run: (input: unknown, ctx: Parameters<Agent<unknown, unknown>['run']>[1]) => agent.run(input, ctx),
    ...(agent.input === undefined ? {} : { input: agent.input }),
  }
  const cached = defineAgent(definition)
  cassettes.set(cached, cassette)
  if (scenario === undefined) return cached
  // A scenario over a dataset stays one: its rollouts run the dataset's cases.
  return isDatasetScenario(scenario) ? cached.over(scenario.dataset) : cached.on(scenario.input)
}

/** The cassette an agent's rollouts go through, if any. */
export function cassetteOf(agent: object): Cassette | undefined {
  return cassettes.get(agent)
}
