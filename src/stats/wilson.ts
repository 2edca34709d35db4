import type { Estimate } from './estimate.js'
import { twoSidedZ } from './normal.js'

/**
 * Wilson score interval for a proportion (Wilson 1927; Newcombe 1998 method 3). Unlike the Wald
 * interval it keeps nonzero width at 0/n and n/n, which is where agent gates live.
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
