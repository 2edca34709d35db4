import { bisect } from './bisect.js'
import type { Interval } from './estimate.js'
import { normalCdf, twoSidedZ } from './normal.js'
import { wilsonCorrectedLimits, wilsonLimits } from './wilson.js'
import { assertConfidence, assertCount } from './validate.js'

/**
 * Newcombe's hybrid score interval for the difference p1 − p2 of two independent proportions
 * (Newcombe 1998, "Interval estimation for the difference between independent proportions", method
 * 10). With (l_i, u_i) the Wilson limits of each proportion:
 *
 *   low  = d − √((p1 − l1)² + (u2 − p2)²),   high = d + √((u1 − p1)² + (p2 − l2)²),   d = p1 − p2.
 *
 * It keeps nonzero width at 0/n and n/n and stays inside [−1, 1]; coverage is close to nominal
 * down to small samples. `confidence` defaults to 0.95. An arm with n = 0 has Wilson limits [0, 1].
 */
export function newcombe(s1: number, n1: number, s2: number, n2: number, confidence = 0.95): Interval {
  assertCount('newcombe', s1, n1)
  assertCount('newcombe', s2, n2)
  assertConfidence('newcombe', confidence)
  const { point, low, high } = newcombeLimits(s1, n1, s2, n2, twoSidedZ(confidence))
  return { point, low, high, confidence, method: 'newcombe' }
}

/**
 * Newcombe's hybrid score interval with continuity correction for p1 − p2 of two independent
 * proportions (Newcombe 1998, "Interval estimation for the difference between independent
 * proportions", method 11): {@link newcombe} built on continuity-corrected Wilson limits. Wider than
 * method 10 by about half an observation per arm; its one-sided bounds keep their level where
 * method 10's dip just below it (a one-sided 95% bound at 100 rollouts per arm misses up to 5.3% of
 * the time with method 10, at most 4.5% with this one). `confidence` defaults to 0.95.
 */
export function newcombeCorrected(
  s1: number,
  n1: number,
  s2: number,
  n2: number,
  confidence = 0.95,
): Interval {
  assertCount('newcombeCorrected', s1, n1)
  assertCount('newcombeCorrected', s2, n2)
  assertConfidence('newcombeCorrected', confidence)
  const z = twoSidedZ(confidence)
  const { point, low, high } = hybrid(
    s1,
    n1,
    s2,
    n2,
    wilsonCorrectedLimits(s1, n1, z),
    wilsonCorrectedLimits(s2, n2, z),
  )
  return { point, low, high, confidence, method: 'newcombe-corrected' }
}

/**
 * One-sided p-value for H0: p1 − p2 ≥ margin against H1: p1 − p2 < margin (independent samples),
 * obtained by inverting {@link newcombe}: the smallest α at which the one-sided (1 − α) Newcombe
 * upper limit falls below `margin`. So the test rejects at level α exactly when the two-sided
 * (1 − 2α) Newcombe interval lies below the margin, and a reported interval never contradicts the
 * test. A difference observed right at the margin gives 0.5; `margin` defaults to 0.
 * Used by contrastive attribution ("resampling step k reduces P(bad)") before Holm's correction.
 */
export function independentScoreTestOneSided(
  s1: number,
  n1: number,
  s2: number,
  n2: number,
  margin = 0,
): number {
  assertCount('independentScoreTestOneSided', s1, n1)
  assertCount('independentScoreTestOneSided', s2, n2)
  if (!(margin > -1 && margin < 1)) {
    throw new RangeError(`independentScoreTestOneSided: margin must be in (−1, 1), got ${margin}`)
  }
  const d = (n1 === 0 ? 0 : s1 / n1) - (n2 === 0 ? 0 : s2 / n2)
  if (d === margin) return 0.5
  // Find the normal deviate z at which the limit on the margin's side reaches the margin: the upper
  // limit (d < margin) or the lower limit (d > margin) widens monotonically with z.
  const below = d < margin
  const reaches = (z: number): boolean => {
    const limits = newcombeLimits(s1, n1, s2, n2, z)
    return below ? limits.high >= margin : limits.low <= margin
  }
  // Beyond z = 37 the one-sided tail Φ(−z) underflows to 0 anyway.
  const maxZ = 37
  if (!reaches(maxZ)) return below ? 0 : 1
  const z = bisect(reaches, 0, maxZ, 1e-12)
  return below ? normalCdf(-z) : normalCdf(z)
}

/** Newcombe's limits for a two-sided critical value z ≥ 0 (z = 0 collapses them onto the point). */
function newcombeLimits(
  s1: number,
  n1: number,
  s2: number,
  n2: number,
  z: number,
): { point: number; low: number; high: number } {
  return hybrid(s1, n1, s2, n2, wilsonLimits(s1, n1, z), wilsonLimits(s2, n2, z))
}

/** Newcombe's hybrid of two single-proportion intervals into one for their difference. */
function hybrid(
  s1: number,
  n1: number,
  s2: number,
  n2: number,
  first: { low: number; high: number },
  second: { low: number; high: number },
): { point: number; low: number; high: number } {
  const p1 = n1 === 0 ? 0 : s1 / n1
  const p2 = n2 === 0 ? 0 : s2 / n2
  const point = p1 - p2
  const low = point - Math.hypot(p1 - first.low, second.high - p2)
  const high = point + Math.hypot(first.high - p1, p2 - second.low)
  return { point, low: Math.max(-1, low), high: Math.min(1, high) }
}
