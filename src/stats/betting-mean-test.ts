import { bisect } from './bisect.js'
import { assertAlpha } from './validate.js'

/** The method a {@link bettingMeanTest} names in results and messages. */
export const BETTING_METHOD = 'betting confidence sequence (Waudby-Smith & Ramdas 2024)'

/** What the values so far say about a bounded mean against a threshold. */
export type BettingDecision = 'above' | 'below' | 'undecided'

/** The values and the threshold a {@link bettingMeanTest} is asked about. */
export interface BettingMeanInput {
  /** Observations in [0, 1], in a fixed order (rollout index order), so the result does not depend on scheduling. */
  readonly values: readonly number[]
  /** The threshold in (0, 1): 0.8 for "mean score ≥ 0.8". */
  readonly bound: number
  /**
   * Default 0.05. Error rate of each decision: the chance of ever declaring 'above' when the mean is
   * ≤ bound (or 'below' when it is ≥ bound), however often the test is looked at.
   */
  readonly alpha?: number
}

/** The result of a {@link bettingMeanTest}: data, rendered by the verdict formatter. */
export interface BettingMeanResult {
  readonly decision: BettingDecision
  readonly n: number
  readonly bound: number
  readonly alpha: number
  /** The mean of the values (0 when there are none). */
  readonly point: number
  /** Lower end of the anytime-valid (1 − 2α) confidence sequence at this n; 'above' ⟺ low > bound. */
  readonly low: number
  /** Upper end of the anytime-valid (1 − 2α) confidence sequence at this n; 'below' ⟺ high < bound. */
  readonly high: number
  /** Wealth of the bet against H0: mean ≤ bound; 'above' once it reaches 1/α (capped at Number.MAX_VALUE). */
  readonly eAbove: number
  /** Wealth of the bet against H0: mean ≥ bound; 'below' once it reaches 1/α (capped at Number.MAX_VALUE). */
  readonly eBelow: number
  readonly method: typeof BETTING_METHOD
}

// The largest fraction of wealth a bet may stake: 1/2 as in the paper's experiments, so one
// observation at the far end of [0, 1] can at most halve the wealth.
const MAX_STAKE = 0.5

// Interval ends to a millionth of a percentage point: far below what a message prints.
const BOUND_TOLERANCE = 1e-8

/**
 * The predictable plug-in bet sizes λ_1 … λ_n of Waudby-Smith & Ramdas (2024, JRSSB 86(1),
 * "Estimating means of bounded random variables by betting", eq. 26–27), for a one-sided test at
 * level α: λ_t = √(2 log(1/α) / (σ̂²_{t−1} · t · log(1 + t))), where σ̂² is a running variance
 * shrunk towards 1/4. λ_t uses only the values before t, which is what keeps the wealth a
 * supermartingale under the null. Each is truncated again per candidate mean (see {@link logWealth}).
 */
export function bettingStakes(values: readonly number[], alpha: number): number[] {
  const logOneOverAlpha = Math.log(1 / alpha)
  const stakes: number[] = []
  let sum = 0
  let squares = 0.25
  for (let t = 1; t <= values.length; t++) {
    const variance = squares / t
    stakes.push(Math.sqrt((2 * logOneOverAlpha) / (variance * t * Math.log(1 + t))))
    const value = values[t - 1]!
    sum += value
    const runningMean = (0.5 + sum) / (t + 1)
    squares += (value - runningMean) ** 2
  }
  return stakes
}

/**
 * The log-wealth of the two bets against a candidate mean m after every value:
 * K⁺(m) = Π (1 + λ⁺_t (x_t − m)) bets that the mean is above m, K⁻(m) = Π (1 − λ⁻_t (x_t − m))
 * that it is below, with λ⁺_t = min(λ_t, c/m) and λ⁻_t = min(λ_t, c/(1 − m)) so no factor falls
 * below 1 − c. Under a mean ≤ m (≥ m) the first (second) is a nonnegative supermartingale, so by
 * Ville's inequality it ever reaches 1/α with probability at most α, whenever one looks. K⁺ falls
 * and K⁻ rises with m, so each confidence bound is one crossing, found by bisection.
 */
function logWealth(values: readonly number[], stakes: readonly number[], m: number): LogWealth {
  return logWealthPath(values, stakes, m).at(-1) ?? { above: 0, below: 0 }
}

/** The log-wealth of the bet that the mean is above m, and of the bet that it is below. */
export interface LogWealth {
  readonly above: number
  readonly below: number
}

/**
 * The log-wealth of both bets against the mean m after each value: element t − 1 is after x_t.
 * Anytime validity is a statement about this whole path: under a mean of m, the chance that
 * `above` (or `below`) ever reaches log(1/α) is at most α.
 */
export function bettingLogWealthPath(values: readonly number[], m: number, alpha = 0.05): LogWealth[] {
  assertAlpha('bettingLogWealthPath', alpha)
  return logWealthPath(values, bettingStakes(values, alpha), m)
}

function logWealthPath(values: readonly number[], stakes: readonly number[], m: number): LogWealth[] {
  const capAbove = m > 0 ? MAX_STAKE / m : Number.POSITIVE_INFINITY
  const capBelow = m < 1 ? MAX_STAKE / (1 - m) : Number.POSITIVE_INFINITY
  const path: LogWealth[] = []
  let above = 0
  let below = 0
  for (let t = 0; t < values.length; t++) {
    const difference = values[t]! - m
    above += Math.log1p(Math.min(stakes[t]!, capAbove) * difference)
    below += Math.log1p(-Math.min(stakes[t]!, capBelow) * difference)
    path.push({ above, below })
  }
  return path
}

/**
 * Anytime-valid sequential test of the mean of values in [0, 1] against a threshold, and its
 * (1 − 2α) confidence sequence, by betting: a gambler who stakes a predictable fraction of their
 * wealth on "the mean is above m" grows rich only if it is. 'above' when the wealth of that bet at
 * m = bound reaches 1/α, 'below' when the opposite bet's does. Each wrong decision has
 * probability ≤ α however often the test is looked at, so a gate may stop at the first decision.
 * For skewed, bounded scores this holds exactly, where a CLT or bootstrap interval does not hold
 * after optional stopping and undercovers at small n.
 */
export function bettingMeanTest(input: BettingMeanInput): BettingMeanResult {
  const { values, bound, alpha = 0.05 } = input
  assertAlpha('bettingMeanTest', alpha)
  if (!(bound > 0 && bound < 1)) {
    throw new RangeError(`bettingMeanTest: bound must be in (0, 1), e.g. 0.8, got ${bound}`)
  }
  const bad = values.findIndex((value) => !(value >= 0 && value <= 1))
  if (bad >= 0) throw new RangeError(`bettingMeanTest: values[${bad}] is ${values[bad]}, not in [0, 1]`)
  const stakes = bettingStakes(values, alpha)
  const threshold = Math.log(1 / alpha)
  const atBound = logWealth(values, stakes, bound)
  const decision: BettingDecision =
    atBound.above >= threshold ? 'above' : atBound.below >= threshold ? 'below' : 'undecided'
  const n = values.length
  const point = n === 0 ? 0 : values.reduce((total, value) => total + value, 0) / n
  // low: where K⁺ falls below 1/α (it rejects every m under it); high: where K⁻ reaches 1/α.
  // K⁺(1) ≤ 1 and K⁻(0) ≤ 1, so each search has a non-rejecting end.
  const rejectsAbove = (m: number) => logWealth(values, stakes, m).above >= threshold
  const rejectsBelow = (m: number) => logWealth(values, stakes, m).below >= threshold
  const low = rejectsAbove(0) ? bisect((m) => !rejectsAbove(m), 0, 1, BOUND_TOLERANCE) : 0
  const high = rejectsBelow(1) ? bisect(rejectsBelow, 0, 1, BOUND_TOLERANCE) : 1
  return {
    decision,
    n,
    bound,
    alpha,
    point,
    // Align the ends with the decision where bisection leaves them a hair off the bound.
    low: decision === 'above' ? Math.max(low, bound) : Math.min(low, bound),
    high: decision === 'below' ? Math.min(high, bound) : Math.max(high, bound),
    eAbove: Math.min(Math.exp(atBound.above), Number.MAX_VALUE),
    eBelow: Math.min(Math.exp(atBound.below), Number.MAX_VALUE),
    method: BETTING_METHOD,
  }
}
