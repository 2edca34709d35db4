import { refuseJudgeCorrection } from './judge-correction.js'
import type { Scenario } from '../agent/types.js'
import { confidenceSequence } from '../stats/confidence-sequence.js'
import {
  logEValueAbove,
  logEValueBelow,
  pairedConfidenceBounds,
  type PairedCounts,
} from '../stats/paired-confidence-sequence.js'
import type { Trajectory } from '../trajectory/schema.js'
import type { GateRun, GateSubject } from './gate.js'
import type { ResolvedComparison } from './options.js'
import { passKReport } from './pass-k-report.js'
import {
  OutcomeTally,
  rolloutTimeout,
  runBatch,
  SEQUENTIAL_STOPS,
  tallyFields,
  type Sampling,
  type SamplingEnd,
} from './sampling.js'
import type { ComparisonVerdict } from './schema.js'

/**
 * The A/B gate of `noWorseThan` / `toBeNoWorseThan`: runs the candidate (`scenario`) and the
 * baseline agent on the same seed, rollout r of each on the streams (seed, r, j), and pairs their
 * outcomes by rollout index. With D = bad(candidate) − bad(baseline), it passes when the paired
 * betting e-process rejects E[D] ≥ margin (the candidate is no worse than the baseline by margin or
 * more) and fails when it rejects E[D] ≤ margin (shown worse by more than margin), each at
 * α = 1 − confidence; sampling stops at the first answer, checked after every pair in index order,
 * so the verdict is the same at any concurrency. Past `maxRollouts` it is inconclusive.
 *
 * The e-process is valid for any joint law of a pair, so the pairing is valid whether the agents
 * share step structure (then the pairs share random numbers, which narrows the interval) or not.
 * Errors are as in the rate gates: unless `allowErrors`, the first error outcome of either agent
 * stops the gate and fails it; with it, a pair with an error is left out.
 */
export async function runComparisonGate(
  scenario: Scenario<unknown, unknown>,
  baseline: { scenario: Scenario<unknown, unknown>; name: string },
  subject: GateSubject,
  options: ResolvedComparison,
): Promise<GateRun<ComparisonVerdict>> {
  refuseJudgeCorrection(
    subject.predicate,
    'toBeNoWorseThan',
    "Pass the judge without a calibration: both agents are judged alike, and the judges' apparent difference has the true difference's sign, so margin 0 keeps its meaning; a margin is on the judge's apparent scale.",
  )
  const predicateIsBad = options.better === 'lower'
  const candidate = new OutcomeTally(subject.predicate, predicateIsBad, subject.label)
  const reference = new OutcomeTally(subject.predicate, predicateIsBad, subject.label)
  const alpha = 1 - options.confidence
  const pairs = { worse: 0, better: 0, same: 0 }
  let sharedSteps = 0
  // The first rollout (by index) bad for the candidate and not for the baseline: the contrast that
  // attribution explains.
  let firstWorse: Trajectory | null = null

  const sampling = await samplePairsInOrder(scenario, baseline.scenario, options, async (mine, theirs) => {
    const pair = await tallyPair(candidate, reference, mine, theirs, predicateIsBad)
    if (pair === 'skip') return 'skip'
    if (sameSteps(mine, theirs)) sharedSteps++
    pairs[pair]++
    if (pair === 'worse') firstWorse ??= mine
    return comparisonDecision(pairs, options.margin, alpha) === null ? 'go on' : 'stop'
  })
  const stop = SEQUENTIAL_STOPS[sampling.end]
  const total = pairs.worse + pairs.better + pairs.same
  const decision = comparisonDecision(pairs, options.margin, alpha)
  const kind: ComparisonVerdict['kind'] = stop === 'error' ? 'fail' : (decision ?? 'inconclusive')

  const failing: Trajectory | null =
    kind === 'pass'
      ? null
      : stop === 'error'
        ? (candidate.firstError ?? reference.firstError)
        : (firstWorse ?? candidate.firstBad)
  const badDifference = total === 0 ? null : pairedConfidenceBounds(pairs, alpha, alpha)
  // Reported as the predicate's rate difference: for a success predicate, the bad rate's mirrored.
  const difference =
    badDifference === null
      ? null
      : {
          ...(predicateIsBad
            ? badDifference
            : { point: -badDifference.point, low: -badDifference.high, high: -badDifference.low }),
          confidence: 1 - 2 * alpha,
          method: 'confidence-sequence' as const,
        }
  const observed = confidenceSequence(candidate.successes, candidate.n, 2 * alpha)
  const passK = passKReport(observed, predicateIsBad, options.passK)
  // A baseline error is not the candidate's run: it fails the gate, but there is nothing of the
  // candidate to replay or attribute.
  const candidateFailing = failing !== null && failing === reference.firstError ? null : failing
  const verdict: ComparisonVerdict = {
    gate: 'comparison',
    claim: 'noWorseThan',
    kind,
    ...tallyFields(subject, options, candidate, sampling),
    observed,
    ...(passK === undefined ? {} : { passK }),
    replay: candidateFailing === null ? null : { seed: options.seed, rollout: candidateFailing.rollout },
    maxRollouts: options.maxRollouts,
    comparison: {
      baselineAgent: baseline.name,
      baselineObserved: confidenceSequence(reference.successes, reference.n, 2 * alpha),
      baselineErrors: reference.errorCount,
      pairs,
      difference,
      sharedSteps,
      margin: options.margin,
      better: options.better,
    },
    stop,
  }
  return { verdict, failing: candidateFailing, isBad: (trajectory) => candidate.isBad(trajectory) }
}

/**
 * The paired test's answer on these counts of D = bad(candidate) − bad(baseline): `pass` when it
 * rejects E[D] ≥ margin at α, `fail` when it rejects E[D] ≤ margin at α, null while it rejects
 * neither. Asked after every pair; Ville's inequality bounds each wrong answer by α over all of them.
 */
export function comparisonDecision(
  pairs: PairedCounts,
  margin: number,
  alpha: number,
): 'pass' | 'fail' | null {
  if (pairs.worse + pairs.better + pairs.same === 0) return null
  const threshold = Math.log(1 / alpha)
  if (logEValueBelow(pairs, margin) >= threshold) return 'pass'
  if (logEValueAbove(pairs, margin) >= threshold) return 'fail'
  return null
}

/** How a pair of runs compares for the candidate: left out (an error on either side), worse, better or the same. */
export type PairOutcome = 'skip' | 'worse' | 'better' | 'same'

/**
 * Adds a pair's runs (the candidate's and the baseline's rollout r) to their tallies and says how
 * it compares: worse when only the candidate's run is bad, better when only the baseline's is.
 */
export async function tallyPair(
  candidate: OutcomeTally,
  reference: OutcomeTally,
  mine: Trajectory,
  theirs: Trajectory,
  predicateIsBad: boolean,
): Promise<PairOutcome> {
  await candidate.add(mine)
  await reference.add(theirs)
  if (mine.error !== undefined || theirs.error !== undefined) return 'skip'
  const mineBad = (candidate.outcomes.at(-1) === '1') === predicateIsBad
  const theirsBad = (reference.outcomes.at(-1) === '1') === predicateIsBad
  return mineBad === theirsBad ? 'same' : mineBad ? 'worse' : 'better'
}

/** Whether two rollouts made the same steps (names, in order): then rollout r of each drew the same streams at each step. */
export function sameSteps(a: Trajectory, b: Trajectory): boolean {
  return a.steps.length === b.steps.length && a.steps.every((step, i) => step.name === b.steps[i]?.name)
}

/**
 * The paired form of `sampleInOrder`: rollouts `0 … maxRollouts − 1` of both agents in batches of
 * `concurrency` (each batch the same indices for both, each on the streams (seed, r, j)), handed to
 * `score` pair by pair in index order. An error outcome of either agent ends the loop unless errors
 * are allowed; `score` answering `'stop'` ends it. When the budget cuts a batch short, only the
 * indices both agents finished are scored. `rolloutsRun` counts the rollouts of both agents.
 */
export async function samplePairsInOrder(
  candidate: Scenario<unknown, unknown>,
  baseline: Scenario<unknown, unknown>,
  options: ResolvedComparison,
  score: (candidate: Trajectory, baseline: Trajectory) => Promise<'go on' | 'skip' | 'stop'>,
): Promise<Sampling> {
  let started = 0
  // Rollouts of both agents that ran (and were paid for), paired or not.
  let ran = 0
  let cappedTimeoutMs: number | null = null
  const ended = (end: SamplingEnd): Sampling => ({ end, rolloutsRun: ran, cappedTimeoutMs })
  const { execution } = options
  while (started < options.maxRollouts) {
    const timeoutMs = rolloutTimeout(execution)
    if (timeoutMs === null) return ended('deadline')
    if (timeoutMs < execution.timeoutMs) cappedTimeoutMs ??= timeoutMs
    const count = Math.min(execution.concurrency, options.maxRollouts - started)
    const mine = await runBatch(candidate, options, started, count, timeoutMs)
    const theirs = mine.budgetSpent
      ? { trajectories: [], budgetSpent: true }
      : await runBatch(baseline, options, started, count, timeoutMs)
    ran += mine.trajectories.length + theirs.trajectories.length
    const paired = Math.min(mine.trajectories.length, theirs.trajectories.length)
    started += paired
    for (let i = 0; i < paired; i++) {
      const a = mine.trajectories[i] as Trajectory
      const b = theirs.trajectories[i] as Trajectory
      const answer = await score(a, b)
      const cut = (t: Trajectory) => timeoutMs < execution.timeoutMs && t.error?.kind === 'timeout'
      if (cut(a) || cut(b)) return ended('deadline')
      if (answer === 'skip' && !options.allowErrors) return ended('error')
      if (answer === 'stop') return ended('stopped')
    }
    if (mine.budgetSpent || theirs.budgetSpent) return ended('budget')
  }
  return ended('exhausted')
}
