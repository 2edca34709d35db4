import type { DatasetScenario } from '../agent/types.js'
import { datasetRateTest } from '../stats/dataset-rate-test.js'
import { MIXTURE_E_PROCESS_METHOD } from '../stats/mixture-e-process.js'
import type { Trajectory } from '../trajectory/schema.js'
import { DatasetTally } from './dataset-tally.js'
import type { GateRun, GateSubject } from './gate.js'
import type { ResolvedSequentialGate } from './options.js'
import { PerCaseTests } from './per-case-tests.js'
import { sampleInOrder, SEQUENTIAL_STOPS } from './sampling.js'
import type { SequentialVerdict } from './schema.js'
import { confidenceSequenceInterval, observedMean, sequentialVerdict } from './sequential-verdict.js'

/** The method a per-case claim names. */
export const PER_CASE_METHOD = `Holm across cases over each case's ${MIXTURE_E_PROCESS_METHOD} (anytime-valid p-values)`

/**
 * The sequential gate of `toRarely` / `toUsually` / `toSometimes` over a dataset with
 * `per: 'case'`: every case must satisfy the claim on its own. Each case is tested on its own runs
 * by the one-input gate's e-process, and Holm across the cases decides, on each side at α (see
 * {@link PerCaseTests}). Runs still come in rounds (rollout r runs the case `caseOfRollout` gives),
 * so every case has run as often as any other, give or take one.
 *
 * The claim passes once every case is shown to satisfy it. It fails once a case is shown to violate
 * it, at the end of that round: the cases as bad are then shown too, since every case has had the
 * same runs, and the message names them all. Otherwise (`maxRollouts`, the budget or the test's
 * time ran out) it is inconclusive, with the partial table. A failure's attributed run is the first
 * failing run of the worst case shown to violate the claim.
 */
export async function runPerCaseGate(
  scenario: DatasetScenario<unknown, unknown>,
  subject: GateSubject,
  options: ResolvedSequentialGate<SequentialVerdict['claim']>,
): Promise<GateRun<SequentialVerdict>> {
  const { dataset } = scenario
  const cases = dataset.cases.length
  const predicateIsBad = options.direction === 'atMost'
  const tally = new DatasetTally(dataset, subject.predicate, predicateIsBad, subject.label)
  const alpha = 1 - options.confidence
  // The tests count runs against the claim: at most the bound for `rarely`, at most 1 − the bound
  // of `usually`'s successes.
  const tests = new PerCaseTests(cases, predicateIsBad ? options.bound : 1 - options.bound, alpha)
  const indexOf = new Map(dataset.cases.map(({ id }, index) => [id, index]))
  const sampling = await sampleInOrder(scenario, options, options.maxRollouts, tally, (trajectory) => {
    const id = trajectory.case?.id
    const count = id === undefined ? undefined : tally.countOf(id)
    if (id !== undefined && count !== undefined) {
      tests.update(indexOf.get(id) ?? 0, count.failures, count.runs - count.errors)
    }
    if (trajectory.error !== undefined || tally.rollouts < options.minRollouts) return false
    return tests.stops(tally.rollouts)
  })
  const stop = SEQUENTIAL_STOPS[sampling.end]
  const decisions = tests.decisions()
  const byId = new Map(dataset.cases.map(({ id }, index) => [id, decisions[index] ?? 'undecided']))
  const violating = dataset.cases.filter(({ id }) => byId.get(id) === 'violates').map(({ id }) => id)
  const kind: SequentialVerdict['kind'] =
    stop === 'error' || violating.length > 0
      ? 'fail'
      : decisions.every((decision) => decision === 'satisfies')
        ? 'pass'
        : 'inconclusive'
  const report = tally.report(options.confidence, byId)
  const failing: Trajectory | null =
    kind === 'pass'
      ? null
      : stop === 'error'
        ? tally.firstError
        : (worstOf(violating, tally) ?? tally.worstCase()?.firstFailure ?? null)
  // The mean over cases describes the dataset beside the per-case decisions; it decides nothing here.
  const test =
    tally.n === 0 ? null : datasetRateTest({ cases, rounds: tally.rounds, bound: options.bound, alpha })
  const verdict = sequentialVerdict(subject, options, tally, sampling, {
    kind,
    stop,
    observed: observedMean(test, tally, alpha),
    failing,
    decision:
      test === null ? null : { interval: confidenceSequenceInterval(test, alpha), method: PER_CASE_METHOD },
    rolloutsToDecide: null,
    // The case attributed is the worst of those shown to violate the claim.
    extra: { dataset: { ...report, worst: failing?.case?.id ?? report.worst } },
  })
  return {
    verdict,
    failing,
    ...(kind === 'fail' && stop !== 'error'
      ? { furtherFailing: furtherFailing(violating, tally, failing) }
      : {}),
    isBad: (trajectory) => tally.isBad(trajectory),
  }
}

/**
 * The first failing runs of the cases in `ids` other than `failing`'s, worst first: what a per-case
 * failure attributes after its own run.
 */
export function furtherFailing(
  ids: readonly string[],
  tally: DatasetTally,
  failing: Trajectory | null,
): Trajectory[] {
  return orderByShare(ids, tally).flatMap(({ id, firstFailure }) =>
    firstFailure === null || id === failing?.case?.id ? [] : [firstFailure],
  )
}

/**
 * The first failing run of the worst of `ids` (the highest share of failures, then more failures,
 * then the earlier case), or undefined when `ids` is empty.
 */
export function worstOf(ids: readonly string[], tally: DatasetTally): Trajectory | undefined {
  return orderByShare(ids, tally)[0]?.firstFailure ?? undefined
}

/**
 * `ids` with their first failing runs, worst first (the highest share of failures, then more
 * failures, then the dataset's order): the order a per-case failure attributes them in.
 */
export function orderByShare(
  ids: readonly string[],
  tally: DatasetTally,
): { id: string; firstFailure: Trajectory | null }[] {
  const rows = ids.map((id, order) => {
    const count = tally.countOf(id)
    const completed = count === undefined ? 0 : count.runs - count.errors
    return {
      id,
      order,
      share: completed === 0 || count === undefined ? 0 : count.failures / completed,
      failures: count?.failures ?? 0,
      firstFailure: count?.firstFailure ?? null,
    }
  })
  rows.sort((a, b) => b.share - a.share || b.failures - a.failures || a.order - b.order)
  return rows.map(({ id, firstFailure }) => ({ id, firstFailure }))
}
