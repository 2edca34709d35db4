import { isDatasetScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { InvalidOptionError } from '../errors.js'

/**
 * Refuses `per: 'case'` on a claim about one input, naming the option: there are no cases to
 * claim about one at a time.
 */
export function refusePerCaseOnOneInput(scenario: Scenario<unknown, unknown>, per: 'dataset' | 'case'): void {
  if (per !== 'case' || isDatasetScenario(scenario)) return
  throw new InvalidOptionError({
    caller: `a claim about one input of agent "${scenario.agent.name}"`,
    option: 'per',
    expected: "'dataset' (the default) on a claim about one input",
    received: "'case'",
    hint: "A per-case claim is about a dataset's cases: use agent.over(dataset), or leave out per.",
  })
}
