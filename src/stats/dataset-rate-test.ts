import { bisect } from './bisect.js'
import { logRoundCorrection } from './hypergeometric-majorant.js'
import { mixtureLogEValuesAtLogOdds, type MixtureLogEValues } from './mixture-e-process.js'
import type { SequentialDecision } from './sequential-rate-test.js'
import { assertAlpha } from './validate.js'

/** Name of the anytime-valid method behind {@link datasetRateTest}, as printed in verdicts and reports. */
export const DATASET_E_PROCESS_METHOD = 'round-permutation mixture e-process (Hoeffding bound)'

/** Search range for the interval's ends, in log-odds: rates from about 2e-22 to 1 − 2e-22. */
const MAX_LOG_ODDS = 50

/** One round's counts: every case runs once per round, in a fresh random order. */
export interface RoundCounts {
  /** Runs of the round so far where the predicate held (e.g. the bad outcome). */
  readonly successes: number
  /** Runs of the round so far: the number of cases once the round is complete. */
  readonly runs: number
}

/** The dataset, the runs so far and the gate a {@link datasetRateTest} is asked about. */
export interface DatasetRateInput {
  /** How many cases the dataset has (N). */
  readonly cases: number
  /**
   * Every round so far, in order. Each round runs every case once, in an order drawn uniformly at
   * random (independently of everything else); all rounds but the last are complete (runs = cases).
   */
  readonly rounds: readonly RoundCounts[]
  /** The mean rate the gate compares against, in (0, 1): 0.05 for "≤ 5%". */
  readonly bound: number
  /**
   * Default 0.05. Error rate of each decision: the chance of ever declaring 'below' when the mean
   * rate over cases is ≥ bound (or 'above' when it is ≤ bound), however often the test is checked.
   */
  readonly alpha?: number
}

/** The result of a {@link datasetRateTest}: data, rendered by the verdict formatter. */
export interface DatasetRateResult {
  readonly decision: SequentialDecision
  readonly cases: number
  /** Successes over all rounds. */
  readonly successes: number
  /** Runs over all rounds. */
  readonly n: number
  readonly bound: number
  readonly alpha: number
  /** Observed rate successes / n (0 when n = 0). */
  readonly point: number
  /** Lower end of the anytime-valid (1 − 2α) confidence sequence for the mean rate over cases. */
  readonly low: number
  /** Upper end of the anytime-valid (1 − 2α) confidence sequence for the mean rate over cases. */
  readonly high: number
  /** E-value against H0: mean rate ≥ bound; 'below' once it reaches 1/α (capped at Number.MAX_VALUE). */
  readonly eBelow: number
  /** E-value against H0: mean rate ≤ bound; 'above' once it reaches 1/α (capped at Number.MAX_VALUE). */
  readonly eAbove: number
  readonly method: typeof DATASET_E_PROCESS_METHOD
}

/**
 * Anytime-valid test of the mean rate over a dataset's cases, p̄ = (1/N) Σ pᵢ, against a bound,
 * for runs drawn in rounds: each round runs every case once in a fresh uniformly random order, and
 * each run of case i is an independent Bernoulli(pᵢ). It sees only the outcomes, never which case
 * ran, and needs no assumption on how the pᵢ spread.
 *
 * Its e-value against H0: p̄ ≥ bound is the 'log-odds mixture e-process' of the pooled counts divided
 * by one correction factor C ≥ 1 per round (see {@link datasetLogEValues}); 'below' when it reaches
 * 1/α, 'above' likewise for H0: p̄ ≤ bound. By Ville's inequality a wrong decision happens with
 * probability ≤ α however often it is checked. When the observed rate is well clear of the bound
 * every C is close to 1, so it decides about as fast as the test of one coin: a 500-case dataset
 * at p̄ = 1% passes "≤ 5%" in a median of about 130 runs, where running every case once takes 500.
 * Its interval is the set of means neither side rejects at α (two-sided 1 − 2α), found by bisection:
 * both log e-values are monotone in the null (checked numerically in its tests). `alpha` defaults to
 * 0.05.
 */
export function datasetRateTest(input: DatasetRateInput): DatasetRateResult {
  const { cases, rounds, bound, alpha = 0.05 } = input
  assertInput('datasetRateTest', cases, rounds, alpha)
  if (!(bound > 0 && bound < 1))
    throw new RangeError(`datasetRateTest: bound must be in (0, 1), e.g. 0.05, got ${bound}`)
  const threshold = Math.log(1 / alpha)
  const atBound = datasetLogEValues(cases, rounds, bound)
  const decision: SequentialDecision =
    atBound.below >= threshold ? 'below' : atBound.above >= threshold ? 'above' : 'undecided'
  const { successes, n } = pooled(rounds)
  const { low, high } = datasetRateBounds(cases, rounds, alpha)
  return {
    decision,
    cases,
    successes,
    n,
    bound,
    alpha,
    point: n === 0 ? 0 : successes / n,
    // Align the reported ends with the decision where bisection leaves them 1e-10 off the bound.
    low: decision === 'above' ? Math.max(low, bound) : Math.min(low, bound),
    high: decision === 'below' ? Math.min(high, bound) : Math.max(high, bound),
    eBelow: Math.min(Math.exp(atBound.below), Number.MAX_VALUE),
    eAbove: Math.min(Math.exp(atBound.above), Number.MAX_VALUE),
    method: DATASET_E_PROCESS_METHOD,
  }
}

/**
 * The ends of the dataset test's confidence sequence for the mean rate over cases, each one-sided at
 * `alpha` (two-sided 1 − 2α), with no bound to align them to: `high` is where the 'below' e-value
 * first reaches 1/α (every larger mean is rejected), `low` where the 'above' e-value drops below it.
 * [0, 1] with no run.
 */
export function datasetRateBounds(
  cases: number,
  rounds: readonly RoundCounts[],
  alpha: number,
): { low: number; high: number } {
  assertInput('datasetRateBounds', cases, rounds, alpha)
  const threshold = Math.log(1 / alpha)
  const logE = (side: keyof MixtureLogEValues) => (theta: number) =>
    logEValueAtLogOdds(cases, rounds, theta, side)
  const logEBelow = logE('below')
  const logEAbove = logE('above')
  const high =
    logEBelow(MAX_LOG_ODDS) < threshold
      ? 1
      : expit(bisect((theta) => logEBelow(theta) >= threshold, -MAX_LOG_ODDS, MAX_LOG_ODDS, 1e-10))
  const low =
    logEAbove(-MAX_LOG_ODDS) < threshold
      ? 0
      : expit(bisect((theta) => logEAbove(theta) < threshold, -MAX_LOG_ODDS, MAX_LOG_ODDS, 1e-10))
  return { low, high }
}

/**
 * The decision of {@link datasetRateTest} alone, without its interval: for a runner or a simulation
 * that asks after every run. A correction only lowers an e-value, so the rounds' corrections are
 * computed only once the pooled mixture e-value has reached 1/α.
 */
export function datasetDecision(
  cases: number,
  rounds: readonly RoundCounts[],
  bound: number,
  alpha = 0.05,
): SequentialDecision {
  assertInput('datasetDecision', cases, rounds, alpha)
  const threshold = Math.log(1 / alpha)
  const theta = Math.log(bound / (1 - bound))
  const { successes, n } = pooled(rounds)
  const mixture = mixtureLogEValuesAtLogOdds(successes, n, theta)
  if (
    mixture.below >= threshold &&
    mixture.below - totalCorrection(cases, rounds, theta, 'below') >= threshold
  )
    return 'below'
  if (
    mixture.above >= threshold &&
    mixture.above - totalCorrection(cases, rounds, theta, 'above') >= threshold
  )
    return 'above'
  return 'undecided'
}

/**
 * Natural logs of the dataset gate's two e-values at the null mean rate `bound`, against
 * H0: p̄ ≥ bound (`below`) and H0: p̄ ≤ bound (`above`).
 *
 * Why it is valid (for `below`; `above` is the same with zeros and ones swapped). Within a round,
 * given its coins Zᵢ ~ Bernoulli(pᵢ), the order is a uniform arrangement of them, so a prefix of t
 * runs with s successes has probability h(K) = [K]_s [N − K]_(t−s) / [N]_t with K = Σ Zᵢ
 * (Poisson-binomial); rounds are independent, so the likelihood of everything seen under the null is
 * the product of the rounds' E h(K). Hoeffding (1956, "On the distribution of the number of
 * successes in independent trials", Theorem 3) bounds E g(K) by E g(Binomial(N, p̄)) for convex g,
 * and for ĥ ≥ h convex and nonincreasing (`roundLikelihoodMajorant`) and p̄ ≥ bound,
 * E h(K) ≤ E ĥ(Binomial(N, bound)) = C · bound^s (1 − bound)^(t−s), since E h(Binomial(N, q)) is
 * the iid likelihood q^s (1 − q)^(t−s). So the null likelihood of the path is at most
 * Π C · bound^S (1 − bound)^(T−S) on every path. The mixture Q of the 'log-odds mixture e-process'
 * is a probability on sequences, so Q / (null likelihood) is a nonnegative martingale with mean 1
 * under every null, and ln E = ln(mixture e-value of the pooled counts) − Σ ln C is at most its log:
 * Ville's inequality bounds the chance it ever reaches 1/α by α. Only the current round's C changes
 * from one run to the next, at O(N) a round.
 */
export function datasetLogEValues(
  cases: number,
  rounds: readonly RoundCounts[],
  bound: number,
): MixtureLogEValues {
  assertInput('datasetLogEValues', cases, rounds, 0.05)
  if (!(bound > 0 && bound < 1))
    throw new RangeError(`datasetLogEValues: bound must be in (0, 1), e.g. 0.05, got ${bound}`)
  return logEValuesAtLogOdds(cases, rounds, Math.log(bound / (1 - bound)))
}

/**
 * {@link datasetLogEValues} with the null given as log-odds θ = ln(b / (1 − b)), so that a search over
 * the null can run on the whole real line without rates rounding to 0 or 1.
 */
export function datasetLogEValuesAtLogOdds(
  cases: number,
  rounds: readonly RoundCounts[],
  theta: number,
): MixtureLogEValues {
  assertInput('datasetLogEValuesAtLogOdds', cases, rounds, 0.05)
  return logEValuesAtLogOdds(cases, rounds, theta)
}

function logEValuesAtLogOdds(
  cases: number,
  rounds: readonly RoundCounts[],
  theta: number,
): MixtureLogEValues {
  return {
    below: logEValueAtLogOdds(cases, rounds, theta, 'below'),
    above: logEValueAtLogOdds(cases, rounds, theta, 'above'),
  }
}

function logEValueAtLogOdds(
  cases: number,
  rounds: readonly RoundCounts[],
  theta: number,
  side: keyof MixtureLogEValues,
): number {
  const { successes, n } = pooled(rounds)
  return mixtureLogEValuesAtLogOdds(successes, n, theta)[side] - totalCorrection(cases, rounds, theta, side)
}

/** Σ ln C over the rounds, for the null on one side of the rate at log-odds theta. */
function totalCorrection(
  cases: number,
  rounds: readonly RoundCounts[],
  theta: number,
  side: keyof MixtureLogEValues,
): number {
  let total = 0
  for (const { successes, runs } of rounds) {
    total +=
      side === 'below'
        ? logRoundCorrection(cases, runs, successes, theta)
        : logRoundCorrection(cases, runs, runs - successes, -theta)
  }
  return total
}

function pooled(rounds: readonly RoundCounts[]): { successes: number; n: number } {
  let successes = 0
  let n = 0
  for (const round of rounds) {
    successes += round.successes
    n += round.runs
  }
  return { successes, n }
}

function expit(theta: number): number {
  return 1 / (1 + Math.exp(-theta))
}

function assertInput(fn: string, cases: number, rounds: readonly RoundCounts[], alpha: number): void {
  assertAlpha(fn, alpha)
  if (!Number.isInteger(cases) || cases < 1)
    throw new RangeError(`${fn}: cases must be a positive integer, got ${cases}`)
  rounds.forEach(({ successes, runs }, index) => {
    const last = index === rounds.length - 1
    if (!Number.isInteger(runs) || runs < 0 || runs > cases || (!last && runs !== cases)) {
      throw new RangeError(
        `${fn}: round ${index + 1} has ${runs} runs; every round but the last must run all ${cases} cases, and the last at most that many`,
      )
    }
    if (!Number.isInteger(successes) || successes < 0 || successes > runs) {
      throw new RangeError(
        `${fn}: round ${index + 1} has ${successes} successes in ${runs} runs; need an integer in [0, ${runs}]`,
      )
    }
  })
}
