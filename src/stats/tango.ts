import { bisect } from './bisect.js'
import type { Interval } from './estimate.js'
import { normalCdf, twoSidedZ } from './normal.js'
import { assertConfidence } from './validate.js'

/**
 * A 2 × 2 table of paired binary outcomes (e.g. "bad" in arm 1 and arm 2 of the same rollout under
 * common random numbers): n11 = bad in both, n12 = bad in arm 1 only, n21 = bad in arm 2 only,
 * n22 = bad in neither. Either named cells or rows `[[n11, n12], [n21, n22]]`.
 */
export type PairedTable =
  | { readonly n11: number; readonly n12: number; readonly n21: number; readonly n22: number }
  | readonly [readonly [number, number], readonly [number, number]]

/** The cells of a {@link PairedTable}, checked, with N their sum. */
export interface PairedCells {
  readonly n12: number
  readonly n21: number
  readonly total: number
}

/**
 * Tango's score interval for the difference of two paired proportions (Tango 1998, "Equivalence
 * test and confidence interval for the difference in proportions for the paired-sample design",
 * Stat. Med. 17:891–908; R `PropCIs::scoreci.mp`). The difference is Δ = (n12 − n21) / N, i.e.
 * P(arm 1) − P(arm 2). The interval is {Δ0 : |Z(Δ0)| ≤ z} for the score statistic
 *
 *   Z(Δ0) = (n12 − n21 − N·Δ0) / √(N·(2·q̃21 + Δ0·(1 − Δ0)))
 *
 * where q̃21 is the maximum-likelihood estimate of P(cell 21) restricted to Δ = Δ0, in closed form
 * q̃21 = (√(W² + 8·N·n21·Δ0·(1 − Δ0)) − W) / (4N), W = −n12 − n21 + (2N − n12 + n21)·Δ0. Z decreases
 * in Δ0 from +∞ at −1 to −∞ at 1, so each end is found by bisection to 1e-12. Degenerate tables
 * (no discordant pairs, N = 1) still give a finite ordered interval inside [−1, 1] containing the
 * point: e.g. n12 = n21 = 0 gives ±z²/(N + z²). N = 0 gives [−1, 1]. `confidence` defaults to 0.95.
 */
export function tango(table: PairedTable, confidence = 0.95): Interval {
  assertConfidence('tango', confidence)
  const cells = pairedCells('tango', table)
  const method = 'tango'
  if (cells.total === 0) return { point: 0, low: -1, high: 1, confidence, method }
  const point = (cells.n12 - cells.n21) / cells.total
  const z = twoSidedZ(confidence)
  return {
    point,
    low: point === -1 ? -1 : solveScore(cells, z, -1, point),
    high: point === 1 ? 1 : solveScore(cells, -z, point, 1),
    confidence,
    method,
  }
}

/**
 * Tango's score statistic Z(Δ0) for H0: Δ = Δ0 in a paired table (see {@link tango}); at Δ0 = 0 it
 * is McNemar's statistic (n12 − n21) / √(n12 + n21). It is 0 where the observed difference equals
 * Δ0 (also when no discordant pair makes it 0/0), and ±Infinity where the restricted variance
 * vanishes (Δ0 = ±1 against a table that contradicts it).
 */
export function tangoScore(table: PairedTable, delta0: number): number {
  if (!(delta0 >= -1 && delta0 <= 1))
    throw new RangeError(`tangoScore: delta0 must be in [−1, 1], got ${delta0}`)
  return scoreStatistic(pairedCells('tangoScore', table), delta0)
}

/**
 * One-sided p-value of Tango's score test for H0: Δ ≥ margin against H1: Δ < margin, with
 * Δ = (n12 − n21) / N: Φ(Z(margin)). It is the test {@link tango} inverts, so it rejects at level α
 * exactly when the two-sided (1 − 2α) Tango interval lies below the margin. A table whose observed
 * difference equals the margin gives 0.5 (no evidence either way). `margin` defaults to 0, where
 * this is the one-sided McNemar score test. Used by contrastive attribution under CRN: is P(bad)
 * lower when step k is resampled than in the baseline, across the same rollouts?
 */
export function pairedScoreTestOneSided(table: PairedTable, margin = 0): number {
  if (!(margin > -1 && margin < 1)) {
    throw new RangeError(`pairedScoreTestOneSided: margin must be in (−1, 1), got ${margin}`)
  }
  const cells = pairedCells('pairedScoreTestOneSided', table)
  if (cells.total === 0) return 0.5
  return normalCdf(scoreStatistic(cells, margin))
}

/** The discordant cells and N of `table`, which must hold non-negative integers (`fn` names the caller). */
export function pairedCells(fn: string, table: PairedTable): PairedCells {
  const [n11, n12, n21, n22] =
    'n11' in table ? [table.n11, table.n12, table.n21, table.n22] : [...table[0], ...table[1]]
  for (const cell of [n11, n12, n21, n22]) {
    if (!Number.isInteger(cell) || cell < 0) {
      throw new RangeError(
        `${fn}: table cells must be non-negative integers, got [[${n11}, ${n12}], [${n21}, ${n22}]]`,
      )
    }
  }
  return { n12, n21, total: n11 + n12 + n21 + n22 }
}

function scoreStatistic(cells: PairedCells, delta0: number): number {
  const numerator = cells.n12 - cells.n21 - cells.total * delta0
  // Exactly at the observed difference the statistic is 0 even when the variance is 0 as well.
  if (Math.abs(numerator) <= 1e-12 * cells.total) return 0
  return scaledByRestrictedVariance(cells, delta0, numerator)
}

/**
 * `numerator` / √(N·(2·q̃21 + Δ0·(1 − Δ0))): a score numerator over Tango's variance restricted to
 * Δ = Δ0, with q̃21 in closed form (see {@link tango}); ±∞ where that variance vanishes. The
 * continuity-corrected interval divides its shifted numerators by the same variance.
 */
export function scaledByRestrictedVariance(
  { n12, n21, total }: PairedCells,
  delta0: number,
  numerator: number,
): number {
  const w = -n12 - n21 + (2 * total - n12 + n21) * delta0
  const discriminant = Math.max(0, w * w + 8 * total * n21 * delta0 * (1 - delta0))
  const q21 = Math.max(0, (Math.sqrt(discriminant) - w) / (4 * total))
  const variance = total * (2 * q21 + delta0 * (1 - delta0))
  if (!(variance > 0)) return numerator > 0 ? Infinity : -Infinity
  return numerator / Math.sqrt(variance)
}

/** The Δ0 in (from, to) where Z(Δ0) = target; Z decreases, so bisect on its sign against the target. */
function solveScore(cells: PairedCells, target: number, from: number, to: number): number {
  return bisect((delta0) => !(scoreStatistic(cells, delta0) > target), from, to, 1e-12)
}
