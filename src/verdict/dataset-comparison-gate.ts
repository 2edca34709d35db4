import type { DatasetScenario } from '../agent/types.js'
import type { RoundCounts } from '../stats/dataset-rate-test.js'
import { datasetRateBounds } from '../stats/dataset-rate-test.js'
import {
  DATASET_PAIRED_METHOD,
  datasetPairedDecision,
  datasetPairedTest,
} from '../stats/dataset-paired-test.js'
import type { Trajectory } from '../trajectory/schema.js'
import { samplePairsInOrder, sameSteps, tallyPair } from './comparison-gate.js'
import { refuseOverDataset } from './dataset-gate.js'
import { DatasetTally } from './dataset-tally.js'
import type { GateRun, GateSubject } from './gate.js'
import type { ResolvedComparison } from './options.js'
import { SEQUENTIAL_STOPS, tallyFields } from './sampling.js'
import type { Estimate } from '../stats/estimate.js'
import type { ComparisonVerdict, DatasetReport } from './schema.js'

/** One case's pairs: how often the candidate alone was bad, the baseline alone, and the first such run of the candidate. */
interface CasePairs {
  worse: number
  better: number
  firstWorse: Trajectory | null
}

/**
 * The A/B gate of `noWorseThan` / `toBeNoWorseThan` over a dataset: the candidate
 * (`agentA.over(dataset)`) and the baseline (`agentB.over(dataset)`) run on one seed, rollout r of
 * each on case `caseOfRollout(seed, r)` and the streams (seed, r, j), so a pair is the same case
 * under common random numbers. The claim is about the mean over cases of
 * D = bad(candidate) − bad(baseline); pairs come in rounds of every case once, so the i.i.d.
 * betting e-process of the one-input gate does not apply, and `datasetPairedTest` (the dataset
 * test's round-permutation e-process on the worse and on the better pairs, each at α/2) decides,
 * asked after every pair in index order: the verdict is the same at any concurrency.
 *
 * The verdict carries the dataset's per-case table with each case's pairs; a failure attributes the
 * first worse pair of the case with the most worse pairs. `allowErrors` and a calibrated judge are
 * refused, as in the other gates over a dataset.
 */
export async function runDatasetComparisonGate(
  scenario: DatasetScenario<unknown, unknown>,
  baseline: { scenario: DatasetScenario<unknown, unknown>; name: string },
  subject: GateSubject,
  options: ResolvedComparison,
): Promise<GateRun<ComparisonVerdict>> {
  refuseOverDataset(scenario, subject, options)
  const { dataset } = scenario
  const cases = dataset.cases.length
  const predicateIsBad = options.better === 'lower'
  const candidate = new DatasetTally(dataset, subject.predicate, predicateIsBad, subject.label)
  const reference = new DatasetTally(dataset, subject.predicate, predicateIsBad, subject.label)
  const alpha = 1 - options.confidence
  const pairs = { worse: 0, better: 0, same: 0 }
  const worseRounds: RoundCounts[] = []
  const betterRounds: RoundCounts[] = []
  const byCase = new Map<string, CasePairs>(
    dataset.cases.map(({ id }) => [id, { worse: 0, better: 0, firstWorse: null }]),
  )
  let sharedSteps = 0

  const sampling = await samplePairsInOrder(scenario, baseline.scenario, options, async (mine, theirs) => {
    const pair = await tallyPair(candidate, reference, mine, theirs, predicateIsBad)
    if (pair === 'skip') return 'skip'
    if (sameSteps(mine, theirs)) sharedSteps++
    const round = Math.floor(mine.rollout / cases)
    while (worseRounds.length <= round) {
      worseRounds.push({ successes: 0, runs: 0 })
      betterRounds.push({ successes: 0, runs: 0 })
    }
    const w = worseRounds[round] as RoundCounts
    const b = betterRounds[round] as RoundCounts
    const count = byCase.get(mine.case?.id ?? '')
    const worse = pair === 'worse'
    const better = pair === 'better'
    worseRounds[round] = { successes: w.successes + (worse ? 1 : 0), runs: w.runs + 1 }
    betterRounds[round] = { successes: b.successes + (better ? 1 : 0), runs: b.runs + 1 }
    pairs[pair]++
    if (count !== undefined && pair !== 'same') {
      count[pair]++
      if (worse) count.firstWorse ??= mine
    }
    return datasetPairedDecision(cases, worseRounds, betterRounds, options.margin, alpha) === 'undecided'
      ? 'go on'
      : 'stop'
  })
  const stop = SEQUENTIAL_STOPS[sampling.end]
  const test =
    pairs.worse + pairs.better + pairs.same === 0
      ? null
      : datasetPairedTest({ cases, worse: worseRounds, better: betterRounds, margin: options.margin, alpha })
  const decision = test?.decision ?? 'undecided'
  const kind: ComparisonVerdict['kind'] =
    stop === 'error' ? 'fail' : decision === 'below' ? 'pass' : decision === 'above' ? 'fail' : 'inconclusive'

  const mostWorse = caseWithMostWorse(byCase)
  const failing: Trajectory | null =
    kind === 'pass'
      ? null
      : stop === 'error'
        ? (candidate.firstError ?? reference.firstError)
        : (mostWorse?.firstWorse ?? candidate.worstCase()?.firstFailure ?? null)
  // Reported as the predicate's rate difference: for a success predicate, the bad rate's mirrored.
  const difference =
    test === null
      ? null
      : {
          ...(predicateIsBad
            ? { point: test.point, low: test.low, high: test.high }
            : { point: -test.point, low: -test.high, high: -test.low }),
          confidence: 1 - 2 * alpha,
          method: 'confidence-sequence' as const,
        }
  const candidateFailing = failing !== null && failing === reference.firstError ? null : failing
  const report = candidate.report(options.confidence)
  const datasetReport: DatasetReport = {
    ...report,
    worst: mostWorse?.id ?? report.worst,
    table: report.table.map((row) => {
      const count = byCase.get(row.id) as CasePairs
      return {
        ...row,
        pairs: {
          baselineFailures: reference.countOf(row.id)?.failures ?? 0,
          worse: count.worse,
          better: count.better,
        },
      }
    }),
  }
  const verdict: ComparisonVerdict = {
    gate: 'comparison',
    claim: 'noWorseThan',
    kind,
    ...tallyFields(subject, options, candidate, sampling),
    observed: meanOverCases(candidate, alpha),
    replay: candidateFailing === null ? null : { seed: options.seed, rollout: candidateFailing.rollout },
    maxRollouts: options.maxRollouts,
    comparison: {
      baselineAgent: baseline.name,
      baselineObserved: meanOverCases(reference, alpha),
      baselineErrors: reference.errorCount,
      pairs,
      difference,
      sharedSteps,
      margin: options.margin,
      better: options.better,
      method: DATASET_PAIRED_METHOD,
    },
    stop,
    dataset: datasetReport,
  }
  return { verdict, failing: candidateFailing, isBad: (trajectory) => candidate.isBad(trajectory) }
}

/**
 * The case with the most worse pairs (more worse than better pairs first, then the earlier case),
 * whose first worse pair a failure attributes; undefined when no pair was worse.
 */
function caseWithMostWorse(
  byCase: ReadonlyMap<string, CasePairs>,
): { id: string; firstWorse: Trajectory } | undefined {
  let most: { id: string; count: CasePairs } | undefined
  for (const [id, count] of byCase) {
    if (count.firstWorse === null) continue
    if (
      most === undefined ||
      count.worse > most.count.worse ||
      (count.worse === most.count.worse && count.worse - count.better > most.count.worse - most.count.better)
    )
      most = { id, count }
  }
  return most?.count.firstWorse == null ? undefined : { id: most.id, firstWorse: most.count.firstWorse }
}

/**
 * An agent's mean rate over the cases with the dataset test's confidence sequence (each end
 * one-sided at α), as the dataset gate reports it; the pooled share of the runs is its point.
 */
function meanOverCases(tally: DatasetTally, alpha: number): Estimate {
  const { low, high } = datasetRateBounds(tally.dataset.cases.length, tally.rounds, alpha)
  return {
    point: tally.n === 0 ? 0 : tally.successes / tally.n,
    low,
    high,
    successes: tally.successes,
    n: tally.n,
    confidence: 1 - 2 * alpha,
    method: 'confidence-sequence',
  }
}
