import { bisect } from './bisect.js'
import type { Estimate } from './estimate.js'
import { mixtureLogEValuesAtLogOdds } from './mixture-e-process.js'
import { assertAlpha, assertCount } from './validate.js'

/** Search range for the ends, in log-odds: rates from about 2e-22 to 1 − 2e-22. */
const MAX_LOG_ODDS = 50

/**
 * Anytime-valid confidence sequence for a Bernoulli rate: P(the true rate is inside [low, high] at
 * every n simultaneously) ≥ 1 − alpha, so it may be recomputed after every rollout and sampling
 * stopped whenever it looks decisive. `alpha` defaults to 0.05.
 *
 * It is the set of rates q0 that neither one-sided mixture e-value of `mixtureLogEValues` rejects at
 * level alpha / 2: high = the smallest q0 with E_below(q0) ≥ 2/alpha, low = the largest q0 with
 * E_above(q0) ≥ 2/alpha (Ville's inequality for each side, a union bound across the two). Both
 * e-values are monotone in q0, so each end is found by bisection in log-odds to 1e-10. The interval
 * is wider than a fixed-n Wilson interval — the price of optional stopping — and never collapses: it
 * is [0, 1] at n = 0, its low is 0 at 0/n and its high is 1 at n/n.
 *
 * `sequentialRateTest` at level α reports `confidenceSequence(successes, n, 2α)` (one-sided α on
 * each side) and decides 'below' exactly when its high is at or below the bound, 'above' exactly
 * when its low is at or above it.
 */
export function confidenceSequence(successes: number, n: number, alpha = 0.05): Estimate {
  assertCount('confidenceSequence', successes, n)
  assertAlpha('confidenceSequence', alpha)
  const threshold = Math.log(2 / alpha)
  const logOdds = (theta: number) => mixtureLogEValuesAtLogOdds(successes, n, theta)
  // E_below rises with the null: the upper end is where it first reaches the threshold.
  const high =
    logOdds(MAX_LOG_ODDS).below < threshold
      ? 1
      : expit(bisect((theta) => logOdds(theta).below >= threshold, -MAX_LOG_ODDS, MAX_LOG_ODDS, 1e-10))
  // E_above falls with the null: the lower end is where it drops below the threshold.
  const low =
    logOdds(-MAX_LOG_ODDS).above < threshold
      ? 0
      : expit(bisect((theta) => logOdds(theta).above < threshold, -MAX_LOG_ODDS, MAX_LOG_ODDS, 1e-10))
  return {
    point: n === 0 ? 0 : successes / n,
    low,
    high,
    successes,
    n,
    confidence: 1 - alpha,
    method: 'confidence-sequence',
  }
}

function expit(theta: number): number {
  return 1 / (1 + Math.exp(-theta))
}
