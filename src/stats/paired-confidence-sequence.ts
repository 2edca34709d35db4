import { bisect } from './bisect.js'
import type { Interval } from './estimate.js'

/**
 * Paired binary outcomes of two arms over the same rollout indices, summarised by the difference
 * D = bad(arm 1) − bad(arm 2) of each pair: `worse` pairs have D = +1 (bad only in arm 1), `better`
 * pairs D = −1 (bad only in arm 2), `same` pairs D = 0 (concordant).
 */
export interface PairedCounts {
  readonly worse: number
  readonly better: number
  readonly same: number
}

/** Printed in `methods.sequential` and on the effect intervals of a sequential attribution. */
export const PAIRED_E_PROCESS_METHOD = 'paired betting e-process (mixture of 7 fixed bets on D ∈ {−1, 0, 1})'

/**
 * Bet sizes as fractions of the largest bet that keeps wealth positive. Under common random numbers
 * with a faithful baseline nearly every discordant pair points the same way, so bold bets (7/8 and
 * more) decide in few pairs; the small ones keep the mixture alive in noisy, independent arms.
 * Against a uniform grid of 20 bets (compared when it was chosen) this mixture needs 8 instead of 9
 * one-sided pairs to reach a Holm level of 0.05/3, and 14 instead of 16 concordant pairs to rule out
 * a rescue of 0.25; the unit tests pin both numbers. The ideal single bet would need 6 and 11: the
 * rest is the price of not knowing in advance how clean the pairs will be.
 */
const BETS: readonly number[] = [1 / 8, 1 / 4, 1 / 2, 3 / 4, 7 / 8, 15 / 16, 31 / 32]
const LOG_WEIGHT = -Math.log(BETS.length)

/**
 * ln of the e-value against H0: E[D] ≥ d ("the mean paired difference is at least d"), large when
 * the pairs point below d. It is the equal-weight mixture over the bets c of the wealth
 * Π (1 − λ·(Dᵢ − d)) with λ = c / (1 − d) (the largest λ that keeps every factor positive is
 * 1 / (1 − d)). Under H0 each factor has expectation 1 − λ·(E[D] − d) ≤ 1 given the past, so each
 * wealth — and their mean — is a nonnegative supermartingale: by Ville's inequality it ever reaches
 * 1/α with probability ≤ α, whenever sampling stops (Waudby-Smith & Ramdas 2024, "Estimating means
 * of bounded random variables by betting", JRSS B). The bets are fixed, so the wealth depends on the
 * counts only, not on the order of the pairs.
 *
 * At d = 0 a concordant pair multiplies every wealth by exactly 1: the test is a sequential sign
 * test on the discordant pairs (a sequential McNemar test), and concordant pairs cost nothing.
 */
export function logEValueBelow(counts: PairedCounts, d: number): number {
  return mixture((c) => {
    const lambda = c / (1 - d)
    return (
      counts.worse * Math.log1p(-lambda * (1 - d)) +
      counts.same * Math.log1p(lambda * d) +
      counts.better * Math.log1p(lambda * (1 + d))
    )
  })
}

/**
 * ln of the e-value against H0: E[D] ≤ d, large when the pairs point above d: the mirror image of
 * {@link logEValueBelow}, wealth Π (1 + λ·(Dᵢ − d)) with λ = c / (1 + d). At d = −δ < 0 every
 * concordant pair multiplies the wealth by 1 + λδ > 1: pairs that never change the outcome are
 * evidence that the step cannot move P(bad) down by δ (the futility rule of contrastive attribution).
 */
export function logEValueAbove(counts: PairedCounts, d: number): number {
  return mixture((c) => {
    const lambda = c / (1 + d)
    return (
      counts.worse * Math.log1p(lambda * (1 - d)) +
      counts.same * Math.log1p(-lambda * d) +
      counts.better * Math.log1p(-lambda * (1 + d))
    )
  })
}

/**
 * Anytime-valid confidence sequence for the mean paired difference E[D] = P(bad in arm 1) −
 * P(bad in arm 2): the set of d that neither {@link logEValueBelow} nor {@link logEValueAbove}
 * rejects at level (1 − confidence) / 2. Valid at every number of pairs at once, so it may be
 * reported after optional stopping. Both e-values are monotone in d (each factor is), so the set is
 * an interval and each end is found by bisection to 1e-10. It always contains the observed mean
 * (ln(1 + x) ≤ x keeps every wealth ≤ 1 there), is [−1, 1] without pairs, and never collapses.
 */
export function pairedConfidenceSequence(counts: PairedCounts, confidence: number): Interval {
  const alpha = (1 - confidence) / 2
  return {
    ...pairedConfidenceBounds(counts, alpha, alpha),
    confidence,
    method: 'confidence-sequence',
  }
}

/**
 * The ends of {@link pairedConfidenceSequence} with a level of its own on each side: `high` is the
 * smallest d that {@link logEValueBelow} rejects at `upperAlpha` (P(E[D] > high at some number of
 * pairs) ≤ upperAlpha), `low` the largest d that {@link logEValueAbove} rejects at `lowerAlpha`.
 * An upper end below 0 is exactly the e-process's rejection of H0: E[D] ≥ 0 at `upperAlpha`.
 */
export function pairedConfidenceBounds(
  counts: PairedCounts,
  lowerAlpha: number,
  upperAlpha: number,
): { point: number; low: number; high: number } {
  const total = counts.worse + counts.better + counts.same
  const point = total === 0 ? 0 : (counts.worse - counts.better) / total
  const upperThreshold = Math.log(1 / upperAlpha)
  const lowerThreshold = Math.log(1 / lowerAlpha)
  const edge = 1 - 1e-12
  // E_below rises with d: the upper end is where it first reaches the threshold.
  const high =
    logEValueBelow(counts, edge) < upperThreshold
      ? 1
      : bisect((d) => logEValueBelow(counts, d) >= upperThreshold, point, edge, 1e-10)
  // E_above falls with d: the lower end is where it drops below the threshold.
  const low =
    logEValueAbove(counts, -edge) < lowerThreshold
      ? -1
      : bisect((d) => logEValueAbove(counts, d) < lowerThreshold, -edge, point, 1e-10)
  return { point, low: Math.min(low, point), high: Math.max(high, point) }
}

function mixture(logWealth: (bet: number) => number): number {
  const terms = BETS.map((bet) => LOG_WEIGHT + logWealth(bet))
  const max = Math.max(...terms)
  if (max === -Infinity) return -Infinity
  let sum = 0
  for (const term of terms) sum += Math.exp(term - max)
  return max + Math.log(sum)
}
