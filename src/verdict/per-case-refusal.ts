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

/**
 * Refuses `runsPerCase` on a claim about one input, naming the option: it counts runs of each of a
 * dataset's cases.
 */
export function refuseRunsPerCaseOnOneInput(
  scenario: Scenario<unknown, unknown>,
  runsPerCase: number | undefined,
): void {
  if (runsPerCase === undefined || isDatasetScenario(scenario)) return
  throw new InvalidOptionError({
    caller: `a claim about one input of agent "${scenario.agent.name}"`,
    option: 'runsPerCase',
    expected: 'absent on a claim about one input',
    received: String(runsPerCase),
    hint: 'runsPerCase counts the runs of each case of a dataset: use agent.over(dataset), or minRollouts and maxRollouts.',
  })
}
