/**
 * Name of the anytime-valid method behind {@link mixtureLogEValues}, `confidenceSequence` and
 * `sequentialRateTest`, as printed in verdicts and reports.
 */
export const MIXTURE_E_PROCESS_METHOD = 'log-odds mixture e-process'

/**
 * Spacing of the alternatives in log-odds. A grid 12 times finer (0.02) gives the same operating
 * characteristics to 0.1 rollout: this grid already behaves as the continuous uniform mixture.
 */
const GRID_STEP = 0.25

/**
 * How far the alternatives reach from the null, in log-odds (a factor of e⁴ ≈ 55 in odds). Chosen
 * by the exact operating characteristics of a "≤ 5%" gate at α = 0.05 (bench/gate-rollouts.ts):
 * a reach of 4 decides true rates 0%, 1%, 15% and 30% in 71, 131, 61 and 13 rollouts on average;
 * a reach of 5 passes 0% sooner (68) but is slower at the others (132, 64, 14), and wider reaches
 * trade further in the same direction.
 */
const GRID_REACH = 4

/** Log-odds shifts of the alternatives on one side: 0.125, 0.375, …, 3.875 (16 equal weights). */
const SHIFTS: readonly number[] = Array.from(
  { length: GRID_REACH / GRID_STEP },
  (_, i) => (i + 0.5) * GRID_STEP,
)
const LOG_WEIGHT = -Math.log(SHIFTS.length)

/** Log e-values against the two one-sided nulls at a rate q0 (see {@link mixtureLogEValues}). */
export interface MixtureLogEValues {
  /** ln of the e-value against H0: rate ≥ q0 (large when the rate is below q0). */
  readonly below: number
  /** ln of the e-value against H0: rate ≤ q0 (large when the rate is above q0). */
  readonly above: number
}

/**
 * Natural logs of two one-sided mixture likelihood-ratio e-values for a Bernoulli rate after
 * `successes` of `n` observations: against H0: rate ≥ q0 and against H0: rate ≤ q0.
 *
 * Each is an equal-weight mixture (Robbins 1970; Howard, Ramdas, McAuliffe & Sekhon 2021, "Time-
 * uniform, nonparametric, nonasymptotic confidence sequences") of binomial likelihood ratios
 * L(q) / L(q0), L(q) = q^successes (1 − q)^(n − successes), over 16 alternatives q placed on one
 * side of q0 at log-odds shifts 0.125, 0.375, …, 3.875. Why it is valid: for q < q0 each ratio has
 * expectation ≤ 1 per observation whenever the true rate is ≥ q0, so the mixture is a nonnegative
 * supermartingale starting at 1 under the whole composite null, and by Ville's inequality it ever
 * reaches 1/α with probability ≤ α — however often it is checked, and whenever sampling stops.
 * It depends on the data only through (successes, n), so it is a pure function of the counts.
 *
 * Why this mixture: alternatives spread evenly in log-odds make the test scale-free (a 0.5% gate
 * behaves like a 5% gate, in proportion) and symmetric under rate ↔ 1 − rate, so `atMost` and
 * `atLeast` gates are the same test; mass far below the null (down to q0·e⁻⁴) lets an all-clean run
 * decide within about 1.2× the fixed-n minimum; mass up to e⁴ in odds above catches a bad agent in a
 * few rollouts. And because the family is a location family in log-odds, ln E_below is
 * nondecreasing and ln E_above nonincreasing in q0 (the log-likelihood is concave in the log-odds),
 * so the confidence sequence built from them is an interval and agrees exactly with the test.
 * `successes` may be fractional (used to extrapolate an observed rate).
 */
export function mixtureLogEValues(successes: number, n: number, q0: number): MixtureLogEValues {
  if (!(q0 > 0 && q0 < 1))
    throw new RangeError(`mixtureLogEValues: the null rate must be in (0, 1), got ${q0}`)
  return mixtureLogEValuesAtLogOdds(successes, n, Math.log(q0 / (1 - q0)))
}

/**
 * {@link mixtureLogEValues} with the null given as log-odds θ0 = ln(q0 / (1 − q0)), so a search over
 * the null can run on the whole real line without rates rounding to 0 or 1.
 */
export function mixtureLogEValuesAtLogOdds(successes: number, n: number, theta0: number): MixtureLogEValues {
  if (!(n >= 0) || !(successes >= 0 && successes <= n)) {
    throw new RangeError(`mixtureLogEValues: need 0 ≤ successes ≤ n, got ${successes} of ${n}`)
  }
  const failures = n - successes
  const logLikelihood0 = binomialLogLikelihood(successes, failures, theta0)
  const below: number[] = []
  const above: number[] = []
  for (const shift of SHIFTS) {
    below.push(LOG_WEIGHT + binomialLogLikelihood(successes, failures, theta0 - shift) - logLikelihood0)
    above.push(LOG_WEIGHT + binomialLogLikelihood(successes, failures, theta0 + shift) - logLikelihood0)
  }
  return { below: logSumExp(below), above: logSumExp(above) }
}

/**
 * The `below` of {@link mixtureLogEValuesAtLogOdds} for one null θ0, compiled: each alternative's
 * log-likelihood ratio is linear in the counts, successes·(softplus(−θ0) − softplus(−θ)) +
 * failures·(softplus(θ0) − softplus(θ)), so its two coefficients are computed once and each
 * evaluation is 16 multiply-adds and a log-sum-exp. For a test that asks one null about many counts.
 */
export function compiledLogEBelow(theta0: number): (successes: number, n: number) => number {
  const perSuccess = SHIFTS.map((shift) => softplus(-theta0) - softplus(-(theta0 - shift)))
  const perFailure = SHIFTS.map((shift) => softplus(theta0) - softplus(theta0 - shift))
  return (successes, n) => {
    const failures = n - successes
    let max = -Infinity
    for (let k = 0; k < SHIFTS.length; k++) {
      max = Math.max(max, successes * (perSuccess[k] as number) + failures * (perFailure[k] as number))
    }
    let sum = 0
    for (let k = 0; k < SHIFTS.length; k++) {
      sum += Math.exp(successes * (perSuccess[k] as number) + failures * (perFailure[k] as number) - max)
    }
    return LOG_WEIGHT + max + Math.log(sum)
  }
}

/**
 * successes·ln q + failures·ln(1 − q) at log-odds θ, in the numerically stable form
 * −successes·softplus(−θ) − failures·softplus(θ), exact even where q rounds to 0 or 1.
 */
function binomialLogLikelihood(successes: number, failures: number, theta: number): number {
  return (
    -(successes === 0 ? 0 : successes * softplus(-theta)) - (failures === 0 ? 0 : failures * softplus(theta))
  )
}

/** ln(1 + eˣ) without overflow or loss of precision. */
function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x))
}

function logSumExp(terms: readonly number[]): number {
  const max = Math.max(...terms)
  if (max === -Infinity) return -Infinity
  let sum = 0
  for (const term of terms) sum += Math.exp(term - max)
  return max + Math.log(sum)
}
