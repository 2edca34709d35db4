import { firstDecidingCount } from './bisect.js'
import { confidenceSequence } from './confidence-sequence.js'
import { MIXTURE_E_PROCESS_METHOD, mixtureLogEValues } from './mixture-e-process.js'
import { assertAlpha, assertCount } from './validate.js'

/** What the counts so far say about a rate against a bound. */
export type SequentialDecision = 'below' | 'above' | 'undecided'

/** The counts and the gate a {@link sequentialRateTest} is asked about. */
export interface SequentialRateInput {
  /** Rollouts where the predicate held (e.g. the bad outcome). */
  readonly successes: number
  /** Rollouts observed so far. */
  readonly n: number
  /** The rate the gate compares against, in (0, 1): 0.05 for "≤ 5%". */
  readonly bound: number
  /**
   * Default 0.05. Error rate of each decision: the chance of ever declaring 'below' when the rate is
   * ≥ bound (or 'above' when it is ≤ bound), however often the test is checked.
   */
  readonly alpha?: number
}

/** The result of a {@link sequentialRateTest}: data, rendered by the verdict formatter. */
export interface SequentialRateResult {
  readonly decision: SequentialDecision
  readonly successes: number
  readonly n: number
  readonly bound: number
  readonly alpha: number
  /** Observed rate successes / n (0 when n = 0). */
  readonly point: number
  /** Lower end of the anytime-valid (1 − 2α) confidence sequence; 'above' ⟺ low ≥ bound. */
  readonly low: number
  /** Upper end of the anytime-valid (1 − 2α) confidence sequence; 'below' ⟺ high ≤ bound. */
  readonly high: number
  /** E-value against H0: rate ≥ bound; 'below' once it reaches 1/α (capped at Number.MAX_VALUE). */
  readonly eBelow: number
  /** E-value against H0: rate ≤ bound; 'above' once it reaches 1/α (capped at Number.MAX_VALUE). */
  readonly eAbove: number
  /**
   * 0 when decided; otherwise about how many more rollouts would decide it if the observed rate
   * persists (see {@link rolloutsToDecide}), or null when it never would (observed rate ≈ bound).
   */
  readonly moreRolloutsToDecide: number | null
  readonly method: typeof MIXTURE_E_PROCESS_METHOD
}

/**
 * Anytime-valid sequential test of a Bernoulli rate against a bound, for gates that sample rollouts
 * in batches and stop as soon as the answer is known. It declares 'below' when the mixture e-value
 * against H0: rate ≥ bound reaches 1/α, 'above' when the one against H0: rate ≤ bound does, else
 * 'undecided' (see `mixtureLogEValues`, the 'log-odds mixture e-process'). By Ville's inequality a
 * wrong 'below' (or 'above') happens with probability ≤ α even when the test is checked after every
 * rollout and sampling stops at the first decision — optional stopping is allowed, which a fixed-n
 * interval does not allow. The two cannot both hold at once.
 *
 * Rollouts it needs, for a "≤ 5%" gate at α = 0.05 (exact, capped at 400; fixed-n designs need 59
 * clean rollouts just to pass at 0%, and 153 to tell 5% from 15%): true 0% → 71, 1% → 131 on
 * average, 15% → 61, 30% → 13. `alpha` defaults to 0.05.
 */
export function sequentialRateTest(input: SequentialRateInput): SequentialRateResult {
  const { successes, n, bound, alpha = 0.05 } = input
  assertInput('sequentialRateTest', successes, n, bound, alpha)
  const logE = mixtureLogEValues(successes, n, bound)
  const threshold = Math.log(1 / alpha)
  const decision: SequentialDecision =
    logE.below >= threshold ? 'below' : logE.above >= threshold ? 'above' : 'undecided'
  const interval = confidenceSequence(successes, n, 2 * alpha)
  return {
    decision,
    successes,
    n,
    bound,
    alpha,
    point: interval.point,
    // Align the reported ends with the decision where bisection leaves them 1e-10 off the bound.
    low: decision === 'above' ? Math.max(interval.low, bound) : Math.min(interval.low, bound),
    high: decision === 'below' ? Math.min(interval.high, bound) : Math.max(interval.high, bound),
    eBelow: Math.min(Math.exp(logE.below), Number.MAX_VALUE),
    eAbove: Math.min(Math.exp(logE.above), Number.MAX_VALUE),
    moreRolloutsToDecide: decision === 'undecided' ? rolloutsToDecide(input) : 0,
    method: MIXTURE_E_PROCESS_METHOD,
  }
}

/** Beyond this many rollouts, {@link rolloutsToDecide} answers null ("would not decide"). */
const MAX_PROJECTED_ROLLOUTS = 10_000_000

/**
 * About how many more rollouts {@link sequentialRateTest} needs to decide, if the observed rate
 * successes / n persists: the smallest m > n at which the e-values for (rate·m successes of m)
 * reach 1/α, minus n. 0 if it is already decided; null when n = 0, or when the observed rate is so
 * close to the bound that it would take more than 10 million rollouts. This is the "about N more
 * rollouts would decide it" of an inconclusive verdict — an extrapolation, not a promise: the
 * count it reports is what a rate equal to the observed one would need.
 */
export function rolloutsToDecide(input: SequentialRateInput): number | null {
  const { successes, n, bound, alpha = 0.05 } = input
  assertInput('rolloutsToDecide', successes, n, bound, alpha)
  if (n === 0) return null
  const rate = successes / n
  const threshold = Math.log(1 / alpha)
  // For a fixed rate, each log-likelihood ratio is linear in m, so each log e-value is convex in m
  // and 0 at m = 0: once it crosses the threshold it stays above, and a doubling search then
  // bisection finds the first crossing.
  const decides = (m: number): boolean => {
    const logE = mixtureLogEValues(rate * m, m, bound)
    return logE.below >= threshold || logE.above >= threshold
  }
  if (decides(n)) return 0
  const decided = firstDecidingCount(decides, n, MAX_PROJECTED_ROLLOUTS)
  return decided === null ? null : decided - n
}

/** Where {@link sequentialRateTest} decides, for each n: a stopping rule on counts alone. */
export interface SequentialBoundaries {
  /** belowAtMost[n]: 'below' at n iff successes ≤ this (−1: not reachable at n). Index 0 is n = 0. */
  readonly belowAtMost: readonly number[]
  /** aboveAtLeast[n]: 'above' at n iff successes ≥ this (n + 1: not reachable at n). */
  readonly aboveAtLeast: readonly number[]
}

/**
 * The decision boundaries of {@link sequentialRateTest} for n = 0 … maxN: E_below falls and E_above
 * rises with the success count, so each decision region at n is a run of counts from one end. Lets
 * a runner (or a simulation) decide by table look-up, and tells a user before sampling how many
 * clean rollouts a pass needs: the first n with belowAtMost[n] = 0.
 */
export function sequentialBoundaries(bound: number, alpha = 0.05, maxN = 400): SequentialBoundaries {
  assertInput('sequentialBoundaries', 0, 0, bound, alpha)
  if (!Number.isInteger(maxN) || maxN < 0) {
    throw new RangeError(`sequentialBoundaries: maxN must be a non-negative integer, got ${maxN}`)
  }
  const threshold = Math.log(1 / alpha)
  const belowAtMost: number[] = []
  const aboveAtLeast: number[] = []
  // Both boundaries move by at most one count per observation, so each is found by a short walk
  // from the previous one instead of a search over every count.
  let below = -1
  let above = 1
  for (let n = 0; n <= maxN; n++) {
    while (below + 1 <= n && mixtureLogEValues(below + 1, n, bound).below >= threshold) below++
    while (below >= 0 && mixtureLogEValues(below, n, bound).below < threshold) below--
    above = Math.min(above, n + 1)
    while (above - 1 >= 0 && mixtureLogEValues(above - 1, n, bound).above >= threshold) above--
    while (above <= n && mixtureLogEValues(above, n, bound).above < threshold) above++
    belowAtMost.push(below)
    aboveAtLeast.push(above)
  }
  return { belowAtMost, aboveAtLeast }
}

function assertInput(fn: string, successes: number, n: number, bound: number, alpha: number): void {
  assertCount(fn, successes, n)
  assertAlpha(fn, alpha)
  if (!(bound > 0 && bound < 1))
    throw new RangeError(`${fn}: bound must be in (0, 1), e.g. 0.05, got ${bound}`)
}
