import { logGamma } from '../src/stats/log-gamma.js'

/**
 * How a seeded simulation decides that a rate is on the right side of its level, set by the
 * binomial: the count it allows, the chance that a correct implementation (the rate exactly at its
 * level) fails it, and the chance that a defect of the size earlier audits found (coverage 3 points
 * under its level, a wrong decision twice as often as α) is caught.
 *
 * A test on one seed is deterministic, so its power is the chance that a broken implementation
 * draws a failing seed; both figures are worth printing beside the test, and the design refuses too
 * few runs instead of letting a check that cannot catch the defect pass quietly.
 */
export interface BinomialCheck {
  /** Runs (independent Bernoulli trials) the check counts over. */
  readonly runs: number
  /** The count the check allows: the least covered (coverage), or the most errors (error rate). */
  readonly limit: number
  /**
   * P(the check fails | the rate is exactly at its level), over all the test's `checks` by the union
   * bound: at most the options' `falseAlarm`.
   */
  readonly falseAlarm: number
  /** P(the check fails | the rate is the defect's). */
  readonly power: number
}

/** The design's tolerances: defaults, a 1% false alarm and a 90% power. */
export interface BinomialCheckOptions {
  /** Default 0.01: the largest chance of failing a correct implementation. */
  readonly falseAlarm?: number
  /** Default 0.9: the least chance of catching the defect; fewer runs than that throw. */
  readonly power?: number
  /**
   * Default 1: how many such checks one test makes (one per step, per side); each gets
   * `falseAlarm / checks` (Bonferroni), so the test as a whole fails a correct implementation with
   * probability at most `falseAlarm`.
   */
  readonly checks?: number
}

/** P(X = k) for X ~ Binomial(n, p), through log-gamma (exact to rounding for the n of a test suite). */
export function binomialProbability(k: number, n: number, p: number): number {
  if (p <= 0) return k === 0 ? 1 : 0
  if (p >= 1) return k === n ? 1 : 0
  return Math.exp(
    logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log1p(-p),
  )
}

/** atMost[k] = P(X ≤ k) for X ~ Binomial(n, p), k = 0 … n, in one pass. */
export function binomialAtMost(n: number, p: number): number[] {
  const atMost: number[] = []
  let sum = 0
  for (let k = 0; k <= n; k++) {
    sum += binomialProbability(k, n, p)
    atMost.push(Math.min(1, sum))
  }
  return atMost
}

function settle(options: BinomialCheckOptions): Required<BinomialCheckOptions> {
  return { falseAlarm: 0.01, power: 0.9, checks: 1, ...options }
}

function refuseWeak(design: BinomialCheck, what: string, power: number): BinomialCheck {
  if (design.power < power)
    throw new Error(
      `${design.runs} runs catch ${what} with probability ${design.power.toFixed(3)}, under ${power}: run more`,
    )
  return design
}

/**
 * A coverage check: at least `limit` of `runs` intervals must hold the truth. `limit` is the largest
 * count whose lower tail at `level` stays within the false alarm; the power is at `level − defect`
 * (default 3 points).
 */
export function coverageCheck(
  runs: number,
  level: number,
  options: BinomialCheckOptions & { readonly defect?: number } = {},
): BinomialCheck {
  const { falseAlarm, power, checks } = settle(options)
  const defect = level - (options.defect ?? 0.03)
  // Fails when covered < limit, i.e. covered ≤ limit − 1.
  const atLevel = binomialAtMost(runs, level)
  let limit = 0
  while (limit < runs && (atLevel[limit] as number) <= falseAlarm / checks) limit++
  const below = (tail: readonly number[]) => (limit === 0 ? 0 : (tail[limit - 1] as number))
  const design = {
    runs,
    limit,
    falseAlarm: below(atLevel) * checks,
    power: below(binomialAtMost(runs, defect)),
  }
  return refuseWeak(design, `${(100 * defect).toFixed(1)}% coverage`, power)
}

/**
 * An error-rate check: at most `limit` of `runs` may err. `limit` is the smallest count whose upper
 * tail at `alpha` stays within the false alarm; the power is at `defect` (default 2α).
 */
export function errorRateCheck(
  runs: number,
  alpha: number,
  options: BinomialCheckOptions & { readonly defect?: number } = {},
): BinomialCheck {
  const { falseAlarm, power, checks } = settle(options)
  const defect = options.defect ?? 2 * alpha
  // Fails when errors > limit.
  const atAlpha = binomialAtMost(runs, alpha)
  let limit = 0
  while (limit < runs && 1 - (atAlpha[limit] as number) > falseAlarm / checks) limit++
  const design = {
    runs,
    limit,
    falseAlarm: (1 - (atAlpha[limit] as number)) * checks,
    power: 1 - (binomialAtMost(runs, defect)[limit] as number),
  }
  return refuseWeak(design, `an error rate of ${(100 * defect).toFixed(1)}%`, power)
}
