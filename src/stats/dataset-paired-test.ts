import { datasetLogEValuesAtLogOdds, datasetRateBounds, type RoundCounts } from './dataset-rate-test.js'
import { mixtureLogEValuesAtLogOdds, type MixtureLogEValues } from './mixture-e-process.js'
import type { SequentialDecision } from './sequential-rate-test.js'
import { assertAlpha } from './validate.js'

/** Name of the anytime-valid method behind {@link datasetPairedTest}, as printed in verdicts and reports. */
export const DATASET_PAIRED_METHOD =
  'round-permutation mixture e-processes on worse and better pairs (Hoeffding bound, Bonferroni)'

/** Search range for a bound's end, in log-odds: rates from about 2e-22 to 1 − 2e-22. */
const MAX_LOG_ODDS = 50

/** The dataset, the paired runs so far and the margin a {@link datasetPairedTest} is asked about. */
export interface DatasetPairedInput {
  /** How many cases the dataset has (N). */
  readonly cases: number
  /**
   * Every round's pairs so far: `successes` the pairs worse for the candidate (bad for it and not
   * for the baseline), `runs` the pairs of the round. Rounds as in `datasetRateTest`: each runs every
   * case once in a uniformly random order; all but the last are complete.
   */
  readonly worse: readonly RoundCounts[]
  /** The same rounds, `successes` counting the pairs better for the candidate (bad for the baseline only). */
  readonly better: readonly RoundCounts[]
  /** How much worse the candidate may be: the null mean difference, in [0, 1). */
  readonly margin: number
  /**
   * Default 0.05. Error rate of each decision: the chance of ever declaring 'below' when the mean
   * difference over cases is ≥ margin (or 'above' when it is ≤ margin), however often it is asked.
   */
  readonly alpha?: number
}

/** The result of a {@link datasetPairedTest}: data, rendered by the verdict formatter. */
export interface DatasetPairedResult {
  /** 'below': the mean difference is shown < margin; 'above': shown > margin. */
  readonly decision: SequentialDecision
  readonly cases: number
  /** Pairs over all rounds. */
  readonly n: number
  readonly worse: number
  readonly better: number
  readonly margin: number
  readonly alpha: number
  /** (worse − better) / n, 0 when n = 0. */
  readonly point: number
  /** Lower end of the anytime-valid (1 − 2α) confidence sequence for the mean difference over cases. */
  readonly low: number
  /** Upper end of the anytime-valid (1 − 2α) confidence sequence for the mean difference over cases. */
  readonly high: number
  readonly method: typeof DATASET_PAIRED_METHOD
}

/**
 * Anytime-valid test of the mean paired difference over a dataset's cases,
 * δ̄ = (1/N) Σ (wᵢ − bᵢ), against a margin, for pairs drawn in rounds: each round runs every case
 * once (both agents, on the same streams) in a fresh uniformly random order, and a pair of case i
 * is worse for the candidate with probability wᵢ and better with probability bᵢ, independently of
 * every other pair. Pairs are D = bad(candidate) − bad(baseline) ∈ {−1, 0, 1}; the mean of D over
 * cases is w̄ − b̄.
 *
 * Why it is valid. "Worse" and "better" are each a binary outcome of a run of case i, so each is a
 * dataset rate to which the dataset gate's e-processes apply as they stand ('round-permutation
 * mixture e-process (Hoeffding bound)', valid whatever the cases' rates). Its one-sided ends at α/2
 * bound w̄ from above and b̄ from below, each anytime-valid, so by Bonferroni both hold at once,
 * at every look, with probability ≥ 1 − α, and then δ̄ ≤ high = W⁺ − B⁻. 'below' (declared when
 * high < margin) is wrong only if one of them failed: probability ≤ α, whatever the coupling of a
 * pair. 'above' likewise with low = W⁻ − B⁺. The two indicators are not independent (a pair is
 * never both), which a union bound does not need.
 *
 * Why not one e-process on D itself: the dataset test's bound on a round's likelihood rests on
 * Hoeffding's convex-order inequality for sums of independent Bernoulli coins, and a round of
 * three-valued pairs has a two-dimensional total with no such bound in hand; splitting the pairs
 * keeps the proof the dataset gate already has, at the price of α/2 per indicator.
 */
export function datasetPairedTest(input: DatasetPairedInput): DatasetPairedResult {
  const { cases, worse, better, margin, alpha = 0.05 } = input
  assertPairedInput('datasetPairedTest', cases, worse, better, margin, alpha)
  const half = alpha / 2
  const w = datasetRateBounds(cases, worse, half)
  const b = datasetRateBounds(cases, better, half)
  const high = w.high - b.low
  const low = w.low - b.high
  const decision = decide(cases, worse, better, margin, alpha)
  const worsePairs = pooledSuccesses(worse)
  const betterPairs = pooledSuccesses(better)
  const n = pooledRuns(worse)
  return {
    decision,
    cases,
    n,
    worse: worsePairs,
    better: betterPairs,
    margin,
    alpha,
    point: n === 0 ? 0 : (worsePairs - betterPairs) / n,
    low: Math.max(-1, low),
    high: Math.min(1, high),
    method: DATASET_PAIRED_METHOD,
  }
}

/**
 * The decision of {@link datasetPairedTest} alone: for a runner that asks after every pair.
 *
 * 'below' when the worse pairs' 'below' e-value at q = margin + B⁻ reaches 2/α, B⁻ the better pairs'
 * lower end at α/2: if B⁻ ≤ b̄ (probability ≥ 1 − α/2) and δ̄ ≥ margin, then q ≤ w̄ and, the e-value
 * rising with its null, this can happen only if the e-value at w̄ itself reached 2/α (probability
 * ≤ α/2). 'above' likewise at q = margin + B⁺. The pooled mixture's e-values are at least the
 * corrected ones and B⁻ ≤ b̂ ≤ B⁺, so one pooled e-value at margin + b̂ rules out most looks before
 * any bisection.
 */
export function datasetPairedDecision(
  cases: number,
  worse: readonly RoundCounts[],
  better: readonly RoundCounts[],
  margin: number,
  alpha = 0.05,
): SequentialDecision {
  assertPairedInput('datasetPairedDecision', cases, worse, better, margin, alpha)
  return decide(cases, worse, better, margin, alpha)
}

function decide(
  cases: number,
  worse: readonly RoundCounts[],
  better: readonly RoundCounts[],
  margin: number,
  alpha: number,
): SequentialDecision {
  const n = pooledRuns(worse)
  if (n === 0) return 'undecided'
  const half = alpha / 2
  const threshold = Math.log(1 / half)
  const w = pooledSuccesses(worse)
  const observedBetter = pooledSuccesses(better) / n
  const pooledWorse = (q: number) => mixtureLogEValuesAtLogOdds(w, n, logit(q))
  const correctedWorse = (q: number) => datasetLogEValuesAtLogOdds(cases, worse, logit(q))
  const below = (q: number, logE: (q: number) => MixtureLogEValues) =>
    q >= 1 ? true : q > 0 && logE(q).below >= threshold
  // At q ≤ 0 (margin 0, no better pair) the question is whether the worse pairs' rate is above ~0.
  const above = (q: number, logE: (q: number) => MixtureLogEValues) =>
    q < 1 && logE(Math.max(q, expit(-MAX_LOG_ODDS))).above >= threshold
  if (below(margin + observedBetter, pooledWorse)) {
    const q = margin + datasetRateBounds(cases, better, half).low
    // At q ≥ 1 every rate of the worse pairs is below it: only δ̄ ≤ 1 − B⁻ < margin remains.
    if (below(q, correctedWorse)) return 'below'
  }
  if (above(margin + observedBetter, pooledWorse)) {
    const q = margin + datasetRateBounds(cases, better, half).high
    if (above(q, correctedWorse)) return 'above'
  }
  return 'undecided'
}

function logit(q: number): number {
  return Math.log(q / (1 - q))
}

function pooledSuccesses(rounds: readonly RoundCounts[]): number {
  let total = 0
  for (const round of rounds) total += round.successes
  return total
}

function pooledRuns(rounds: readonly RoundCounts[]): number {
  let total = 0
  for (const round of rounds) total += round.runs
  return total
}

function expit(theta: number): number {
  return 1 / (1 + Math.exp(-theta))
}

function assertPairedInput(
  fn: string,
  cases: number,
  worse: readonly RoundCounts[],
  better: readonly RoundCounts[],
  margin: number,
  alpha: number,
): void {
  assertAlpha(fn, alpha)
  if (!(margin >= 0 && margin < 1))
    throw new RangeError(`${fn}: margin must be in [0, 1), e.g. 0.05, got ${margin}`)
  if (worse.length !== better.length)
    throw new RangeError(
      `${fn}: worse has ${worse.length} rounds and better ${better.length}; they count the same pairs`,
    )
  if (!Number.isInteger(cases) || cases < 1)
    throw new RangeError(`${fn}: cases must be a positive integer, got ${cases}`)
  worse.forEach((round, index) => {
    const other = better[index] as RoundCounts
    const last = index === worse.length - 1
    const { runs } = round
    if (!Number.isInteger(runs) || runs < 0 || runs > cases || (!last && runs !== cases)) {
      throw new RangeError(
        `${fn}: round ${index + 1} has ${runs} pairs; every round but the last must run all ${cases} cases, and the last at most that many`,
      )
    }
    const counts = [round.successes, other.successes]
    if (
      other.runs !== runs ||
      counts.some((count) => !Number.isInteger(count) || count < 0) ||
      round.successes + other.successes > runs
    ) {
      throw new RangeError(
        `${fn}: round ${index + 1} has ${round.successes} worse and ${other.successes} better pairs of ${runs} and ${other.runs}; a pair is at most one of them`,
      )
    }
  })
}
