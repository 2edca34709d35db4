import { isAgent, isDatasetScenario, toScenario } from '../agent/define-agent.js'
import type { Agent, Scenario } from '../agent/types.js'
import type { Dataset } from '../dataset/schema.js'
import { InvalidOptionError } from '../errors.js'

/**
 * The baseline scenario an A/B claim runs against `candidate`. Given as an agent, it runs over the
 * candidate's dataset (`baseline.over(dataset)`), or on its own default input for a candidate on one
 * input, as before datasets. Given as a scenario, it must be over the same dataset as the candidate
 * (pairs are matched by case), or on one input when the candidate is: anything else is refused,
 * naming `baseline`. `caller` names the builder or matcher.
 */
export function comparisonBaseline(
  candidate: Scenario<unknown, unknown>,
  baseline: Scenario<unknown, unknown> | Agent<unknown, unknown>,
  caller: string,
): Scenario<unknown, unknown> {
  const candidateDataset = isDatasetScenario(candidate) ? candidate.dataset : undefined
  if (isAgent(baseline)) {
    return candidateDataset === undefined
      ? toScenario(baseline, `${caller}(baseline)`)
      : baseline.over(candidateDataset)
  }
  const baselineDataset = isDatasetScenario(baseline) ? baseline.dataset : undefined
  if (candidateDataset === undefined && baselineDataset === undefined) return baseline
  if (candidateDataset === undefined || baselineDataset === undefined) {
    throw new InvalidOptionError({
      caller,
      option: 'baseline',
      expected:
        candidateDataset === undefined
          ? `a scenario on one input, as the candidate "${candidate.agent.name}" is`
          : `an agent, or a scenario over dataset "${candidateDataset.name}" (the candidate's): pairs are matched by case`,
      received:
        baselineDataset === undefined
          ? `agent "${baseline.agent.name}" on one input`
          : `agent "${baseline.agent.name}" over dataset "${baselineDataset.name}"`,
      hint: 'Compare one input with one input (agent.on(input)), or a dataset with the same dataset (agent.over(dataset)).',
    })
  }
  if (!sameDataset(candidateDataset, baselineDataset)) {
    throw new InvalidOptionError({
      caller,
      option: 'baseline',
      expected: `an agent, or a scenario over dataset "${candidateDataset.name}" (the candidate's): pairs are matched by case`,
      received: `agent "${baseline.agent.name}" over dataset "${baselineDataset.name}"${baselineDataset.name === candidateDataset.name ? ', whose cases differ' : ''}`,
      hint: "Pass the baseline agent itself, or baseline.over(dataset) with the candidate's dataset.",
    })
  }
  return baseline
}

/** The same dataset, or one with the same name and the same cases (ids and inputs) in the same order. */
function sameDataset(a: Dataset<unknown>, b: Dataset<unknown>): boolean {
  if (a === b) return true
  return (
    a.name === b.name &&
    a.cases.length === b.cases.length &&
    a.cases.every((entry, i) => {
      const other = b.cases[i]
      return (
        other !== undefined &&
        entry.id === other.id &&
        JSON.stringify(entry.input) === JSON.stringify(other.input)
      )
    })
  )
}
