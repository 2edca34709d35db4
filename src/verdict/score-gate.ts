import type { Scenario } from '../agent/types.js'
import { BETTING_METHOD, bettingLogWealthPath, bettingMeanTest } from '../stats/betting-mean-test.js'
import { clopperPearson } from '../stats/clopper-pearson.js'
import type { Interval } from '../stats/estimate.js'
import type { TrajectoryScorer } from '../trajectory/score-result.js'
import type { GateRun, GateSubject } from './gate.js'
import type { ResolvedScoreGate } from './options.js'
import { sampleInOrder, SEQUENTIAL_STOPS, tallyFields } from './sampling.js'
import { ScoreTally } from './score-tally.js'
import type { ScoreVerdict } from './schema.js'

/** Who asserts what of a score gate: a scorer where the rate gates have a predicate. */
export interface ScoreSubject extends Omit<GateSubject, 'predicate'> {
  scorer: TrajectoryScorer
}

/**
 * The gate of `toScoreAtLeast` (`direction: 'atLeast'`) and `toScoreAtMost` (`'atMost'`): the mean
 * score against a threshold, by the betting test of Waudby-Smith & Ramdas (2024). Rollouts run
 * `concurrency` at a time and are scored in rollout-index order; after every completed rollout
 * (once `minRollouts` have run) the test is asked whether the mean is above or below the
 * threshold, and sampling stops at its first answer: each wrong decision has probability ≤ α = 1 −
 * confidence however early it stops. Past `maxRollouts` (or the budget, or the test's deadline)
 * the verdict is inconclusive.
 *
 * Error outcomes are treated as by the rate gates: unless `allowErrors`, the first one stops the
 * gate and fails it; with `allowErrors`, they are left out of the mean and reported. A failing (or
 * inconclusive) gate hands attribution the worst-scoring rollout, when its score is on the wrong
 * side of the threshold, and calls a replay bad when its score is.
 */
export async function runScoreGate(
  scenario: Scenario<unknown, unknown>,
  subject: ScoreSubject,
  options: ResolvedScoreGate<ScoreVerdict['claim']>,
): Promise<GateRun<ScoreVerdict>> {
  const { direction, threshold, range } = options
  const tally = new ScoreTally(subject.scorer, subject.label, range, direction, threshold)
  const alpha = 1 - options.confidence
  const bound = toUnit(threshold, range)
  // The first look the stopping rule could act on (completed rollouts then): the printed sequence
  // is intersected from there, over looks that were all undecided until the stop.
  let firstLook: number | null = null
  const sampling = await sampleInOrder(scenario, options, options.maxRollouts, tally, (trajectory) => {
    if (trajectory.error !== undefined || tally.rollouts < options.minRollouts) return false
    firstLook ??= tally.n
    return scoreDecision(tally.values, bound, alpha) !== 'undecided'
  })
  const stop = SEQUENTIAL_STOPS[sampling.end]
  const decision = tally.n === 0 ? 'undecided' : scoreDecision(tally.values, bound, alpha)
  const passes = direction === 'atLeast' ? decision === 'above' : decision === 'below'
  const kind: ScoreVerdict['kind'] =
    stop === 'error' ? 'fail' : decision === 'undecided' ? 'inconclusive' : passes ? 'pass' : 'fail'

  const worst = tally.worst
  const attributed =
    kind !== 'pass' && stop !== 'error' && worst !== null && tally.isBadScore(worst.score) ? worst : null
  const failing =
    kind === 'pass' ? null : stop === 'error' ? tally.firstError : (attributed?.trajectory ?? null)
  const mean =
    tally.n === 0
      ? null
      : fromUnit(runningConfidenceSequence(tally.values, bound, alpha, firstLook ?? tally.n), range)
  const verdict: ScoreVerdict = {
    gate: 'score',
    claim: options.claim,
    kind,
    ...tallyFields(subject, options, tally, sampling),
    observed: clopperPearson(tally.good, tally.n, options.confidence),
    replay: failing === null ? null : { seed: options.seed, rollout: failing.rollout },
    score: {
      threshold,
      range: [range[0], range[1]],
      mean,
      method: BETTING_METHOD,
      lowest: tally.lowest,
      highest: tally.highest,
      attributed:
        attributed === null ? null : { rollout: attributed.trajectory.rollout, score: attributed.score },
    },
    maxRollouts: options.maxRollouts,
    onInconclusive: options.onInconclusive,
    stop,
  }
  return { verdict, failing, isBad: (trajectory) => tally.isBad(trajectory) }
}

/**
 * What the betting test says after the last of `values` (in [0, 1], rollout order) about their
 * mean against `bound`: the wealth of each bet at the bound, against 1/α. The stakes are
 * predictable, so this is the last point of the same wealth path at every look, and the first look
 * it decides at is where the path first reaches log(1/α) (the gate stops there).
 */
export function scoreDecision(
  values: readonly number[],
  bound: number,
  alpha: number,
): 'above' | 'below' | 'undecided' {
  const last = bettingLogWealthPath(values, bound, alpha).at(-1)
  if (last === undefined) return 'undecided'
  const threshold = Math.log(1 / alpha)
  return last.above >= threshold ? 'above' : last.below >= threshold ? 'below' : 'undecided'
}

/**
 * The betting confidence sequence for the mean after the last of `values`, intersected with its
 * value at every look from `firstLook` (a count of values) on: the sequence holds the mean at all
 * times at once, so its running intersection does too, and is narrower. The gate stops at its first
 * decision, so every earlier look from `firstLook` on was undecided and its interval holds the
 * bound: the intersection keeps the last look's side of the bound, and the printed interval agrees
 * with the decision. Should the looks' intervals not overlap (probability ≤ 2α), the last look's
 * interval is kept.
 */
export function runningConfidenceSequence(
  values: readonly number[],
  bound: number,
  alpha: number,
  firstLook: number,
): Interval {
  const last = bettingMeanTest({ values, bound, alpha })
  let low = last.low
  let high = last.high
  for (let n = Math.max(1, firstLook); n < values.length; n++) {
    const look = bettingMeanTest({ values: values.slice(0, n), bound, alpha })
    low = Math.max(low, look.low)
    high = Math.min(high, look.high)
  }
  if (low > high) ({ low, high } = last)
  return { point: last.point, low, high, confidence: 1 - 2 * alpha, method: 'confidence-sequence' }
}

/** A score in `range` on [0, 1]. */
export function toUnit(score: number, range: readonly [number, number]): number {
  return (score - range[0]) / (range[1] - range[0])
}

/** An interval on [0, 1] back in the units of `range`. */
function fromUnit(interval: Interval, range: readonly [number, number]): Interval {
  const [min, max] = range
  const scale = (value: number) => min + value * (max - min)
  return { ...interval, point: scale(interval.point), low: scale(interval.low), high: scale(interval.high) }
}
