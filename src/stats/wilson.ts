import type { Estimate } from './estimate.js'
import { twoSidedZ } from './normal.js'

/**
 * Wilson score interval for a proportion (Wilson 1927; Newcombe 1998 method 3). Unlike the Wald
 * interval it keeps nonzero width at 0/n and n/n, but its coverage is only nominal on average: near
 * 0 and 1 it dips well under its level (a 95% interval of 100 runs covers a rate of 0.15% 86% of the
 * time), so the rates the library reports use {@link clopperPearson}; Wilson's limits remain a
 * part of other intervals (Newcombe's, MOVER).
 */
export function wilson(successes: number, n: number, confidence = 0.95): Estimate {
  if (n === 0) return { point: 0, low: 0, high: 1, successes: 0, n: 0, confidence, method: 'wilson' }
  const { low, high } = wilsonLimits(successes, n, twoSidedZ(confidence))
  return { point: successes / n, low, high, successes, n, confidence, method: 'wilson' }
}

/**
 * The Wilson limits for a critical value z ≥ 0 instead of a confidence level, so tests can invert
 * the interval over z (see `independentScoreTestOneSided`). `successes` may be fractional (a sum of
 * scores in [0, 1]); n = 0 gives [0, 1].
 */
export function wilsonLimits(successes: number, n: number, z: number): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 }
  const p = successes / n
  const z2 = z * z
  const center = (p + z2 / (2 * n)) / (1 + z2 / n)
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))
  return {
    // Exact ends at 0/n and n/n: the closed form gives 1e-17 instead of 0 there.
    low: successes === 0 ? 0 : Math.max(0, center - half),
    high: successes === n ? 1 : Math.min(1, center + half),
  }
}

/**
 * The Wilson limits with a continuity correction (Newcombe 1998, "Two-sided confidence intervals
 * for the single proportion", method 4) for a critical value z ≥ 0: the score interval widened by
 * half an observation on each side, so its coverage does not dip below nominal between the points
 * where the binomial jumps. Exact ends at 0/n and n/n; n = 0 gives [0, 1].
 */
export function wilsonCorrectedLimits(
  successes: number,
  n: number,
  z: number,
): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 }
  const p = successes / n
  const q = 1 - p
  const z2 = z * z
  const denominator = 2 * (n + z2)
  const low =
    successes === 0
      ? 0
      : (2 * n * p + z2 - 1 - z * Math.sqrt(Math.max(0, z2 - 2 - 1 / n + 4 * p * (n * q + 1)))) / denominator
  const high =
    successes === n
      ? 1
      : (2 * n * p + z2 + 1 + z * Math.sqrt(Math.max(0, z2 + 2 - 1 / n + 4 * p * (n * q - 1)))) / denominator
  return { low: Math.max(0, Math.min(low, p)), high: Math.min(1, Math.max(high, p)) }
}
