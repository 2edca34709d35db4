import type { DatasetScenario } from '../agent/types.js'
import { InvalidOptionError } from '../errors.js'
import { datasetDecision, datasetRateTest } from '../stats/dataset-rate-test.js'
import { judgeCalibrationOf } from '../trajectory/judge-calibration.js'
import type { Trajectory } from '../trajectory/schema.js'
import { DatasetTally } from './dataset-tally.js'
import type { GateRun, GateSubject } from './gate.js'
import type { ResolvedCommon, ResolvedSequentialGate } from './options.js'
import { sampleInOrder, SEQUENTIAL_STOPS } from './sampling.js'
import type { SequentialVerdict } from './schema.js'
import {
  confidenceSequenceInterval,
  observedMean,
  sequentialKind,
  sequentialVerdict,
} from './sequential-verdict.js'

/**
 * The sequential gate of `toRarely` / `toUsually` / `toSometimes` over a dataset
 * (`agent.over(dataset)`): the claim is about the mean rate over the cases, p̄ = (1/N) Σ pᵢ. Rollout
 * r runs case `roundOrder(seed, ⌊r/N⌋)[r mod N]`, so the runs come in rounds that each run every
 * case once in a fresh random order, and after every run (once `minRollouts` have run) the
 * dataset test (`datasetRateTest`, 'round-permutation mixture e-process (Hoeffding bound)') is
 * asked whether p̄ is below or above the bound; its error rate is α per side whatever the cases'
 * rates, however early it stops. Past `maxRollouts` the verdict is inconclusive with the rounds so
 * far (the default 400 is less than one round of a dataset of more than 400 cases: the partial
 * round still counts, and a clear claim decides inside it).
 *
 * A failing verdict's run to attribute is the first failing run of the worst case (the highest
 * share of failures), not the first failing run overall. An error outcome fails the gate, as it
 * does on one input; `allowErrors` is refused, since a run left out would leave its round short of
 * a case, and a calibrated judge too (its correction is for one rate, not a mean over cases).
 */
export async function runDatasetGate(
  scenario: DatasetScenario<unknown, unknown>,
  subject: GateSubject,
  given: ResolvedSequentialGate<SequentialVerdict['claim']>,
): Promise<GateRun<SequentialVerdict>> {
  refuseOverDataset(scenario, subject, given)
  const options = withRunsPerCase(scenario, given)
  if (options.per === 'case') {
    const { runPerCaseGate } = await import('./per-case-gate.js')
    return runPerCaseGate(scenario, subject, options)
  }
  const { dataset } = scenario
  const cases = dataset.cases.length
  const predicateIsBad = options.direction === 'atMost'
  const tally = new DatasetTally(dataset, subject.predicate, predicateIsBad, subject.label)
  const alpha = 1 - options.confidence
  const sampling = await sampleInOrder(
    scenario,
    options,
    options.maxRollouts,
    tally,
    (trajectory) =>
      trajectory.error === undefined &&
      tally.rollouts >= options.minRollouts &&
      datasetDecision(cases, tally.rounds, options.bound, alpha) !== 'undecided',
  )
  const stop = SEQUENTIAL_STOPS[sampling.end]
  const test =
    tally.n === 0 ? null : datasetRateTest({ cases, rounds: tally.rounds, bound: options.bound, alpha })
  const kind = sequentialKind(stop, test?.decision ?? 'undecided', options.direction)
  const failing: Trajectory | null =
    kind === 'pass' ? null : stop === 'error' ? tally.firstError : (tally.worstCase()?.firstFailure ?? null)
  const verdict = sequentialVerdict(subject, options, tally, sampling, {
    kind,
    stop,
    // The mean over cases with the dataset test's own confidence sequence (each end one-sided at
    // the claim's confidence): the pooled share of the runs is its point.
    observed: observedMean(test, tally, alpha),
    failing,
    decision:
      test === null ? null : { interval: confidenceSequenceInterval(test, alpha), method: test.method },
    // The dataset test has no projection of the runs a claim needs; the message says what ran.
    rolloutsToDecide: null,
    extra: { dataset: tally.report(options.confidence) },
  })
  return { verdict, failing, isBad: (trajectory) => tally.isBad(trajectory) }
}

/**
 * `runsPerCase: K` as the runs it fixes: K rounds of every case, no fewer and no more (the test is
 * anytime-valid, so deciding at a fixed stop keeps its error rate). Refused with `per: 'case'`,
 * whose decisions are each case's own and stop with Holm's.
 */
function withRunsPerCase(
  scenario: DatasetScenario<unknown, unknown>,
  options: ResolvedSequentialGate<SequentialVerdict['claim']>,
): ResolvedSequentialGate<SequentialVerdict['claim']> {
  const { runsPerCase } = options
  if (runsPerCase === undefined) return options
  if (options.per === 'case') {
    throw new InvalidOptionError({
      caller: `a claim over dataset "${scenario.dataset.name}"`,
      option: 'runsPerCase',
      expected: "absent with per: 'case'",
      received: String(runsPerCase),
      hint: "A per-case claim stops when Holm's procedure decides every case; use maxRollouts to cap it.",
    })
  }
  const runs = runsPerCase * scenario.dataset.cases.length
  return { ...options, minRollouts: runs, maxRollouts: runs }
}

/**
 * Refuses what a claim over a dataset cannot honour, naming the option: error outcomes left out
 * of the rate, and a calibrated judge's correction.
 */
export function refuseOverDataset(
  scenario: DatasetScenario<unknown, unknown>,
  subject: GateSubject,
  options: ResolvedCommon,
): void {
  const caller = `a claim over dataset "${scenario.dataset.name}"`
  if (options.allowErrors) {
    throw new InvalidOptionError({
      caller,
      option: 'allowErrors',
      expected: 'false over a dataset',
      received: 'true',
      hint: 'Runs are drawn in rounds of every case once; a run left out of the rate would leave its round short of a case. Fix the errors, or claim about the cases one at a time (agent.on(input)).',
    })
  }
  if (judgeCalibrationOf(subject.predicate) !== undefined) {
    throw new InvalidOptionError({
      caller,
      option: 'predicate',
      expected: 'a predicate without a judge calibration over a dataset',
      received: 'a calibrated judge',
      hint: "The judge's correction is for one rate, not a mean over cases; use the judge uncalibrated, or claim about one input (agent.on(input)).",
    })
  }
}
