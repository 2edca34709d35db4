import { twoSidedZ } from '../../stats/normal.js'
import { wilsonLimits, type Interval } from '../../stats/index.js'
import { EXACT_TARGET_HALF_WIDTH, shapleyWeight } from './shapley-weights.js'

/** Bad outcomes among the scored rollouts of one coalition. */
export interface CoalitionCount {
  readonly bad: number
  readonly n: number
}

/** Printed in `methods.value` of an exact run. */
export const EXACT_VALUE_METHOD = 'MOVER with Wilson limits (Zou & Donner 2008), independent coalitions'

/**
 * Rollouts every coalition gets in the first round of an adaptive exact run, before anything is
 * known about it: 2ⁿ × 32 is 256 rollouts at 3 steps, against 1,712 for the worst case. Of the pilots
 * tried (16, 24, 32) it spent the fewest rollouts on the pivotal and AND models: a smaller pilot
 * misjudges coalitions whose rollouts happen to agree and pays for it in later rounds.
 */
export const EXACT_PILOT_ROLLOUTS = 32

/** What the allocation needs to know about the run. */
export interface AllocationSettings {
  readonly players: number
  readonly confidence: number
  /** The most rollouts one coalition may get: the worst-case `samplesPerEval`. */
  readonly maxPerCoalition: number
  /** Default `EXACT_TARGET_HALF_WIDTH` (±0.05): stop once every value's interval is this narrow. */
  readonly halfWidth?: number
}

/**
 * The coefficient of each coalition (by bit mask) in each player's exact Shapley value:
 * φᵢ = Σ_S c_iS·v(S) with c_iS = +w(|S| − 1) when i ∈ S and −w(|S|) otherwise.
 */
export function shapleyCoefficients(players: number): number[][] {
  return Array.from({ length: players }, (_, player) =>
    Array.from({ length: 2 ** players }, (_, mask) => {
      const size = popCount(mask)
      return mask & (1 << player) ? shapleyWeight(players, size - 1) : -shapleyWeight(players, size)
    }),
  )
}

/**
 * φ of one player with its MOVER interval, from the coalition estimates indexed by bit mask: the
 * distance from each estimate to its Wilson limit stands in for its standard error, on the side the
 * coefficient's sign asks for (Zou & Donner 2008). The estimates must all have n ≥ 1.
 */
export function exactValueInterval(
  coefficients: readonly number[],
  estimates: readonly CoalitionCount[],
  confidence: number,
): Interval {
  const z = twoSidedZ(confidence)
  let point = 0
  // Squared distances to the Wilson limits on the side that lowers (below) or raises (above) φ.
  let below = 0
  let above = 0
  for (let mask = 0; mask < estimates.length; mask++) {
    const coefficient = coefficients[mask] as number
    const { bad, n } = estimates[mask] as CoalitionCount
    const p = bad / n
    const limits = wilsonLimits(bad, n, z)
    point += coefficient * p
    const down = coefficient * (coefficient > 0 ? p - limits.low : limits.high - p)
    const up = coefficient * (coefficient > 0 ? limits.high - p : p - limits.low)
    below += down * down
    above += up * up
  }
  return { point, low: point - Math.sqrt(below), high: point + Math.sqrt(above), confidence, method: 'exact' }
}

/**
 * Rollouts each coalition should have scored after the next round of an adaptive exact run, or
 * null when the run is done: every value's MOVER–Wilson interval reaches no further than
 * `halfWidth` from its point on either side, or every coalition that could still help is at
 * `maxPerCoalition`.
 *
 * The allocation is Neyman's (Neyman 1934; Cochran, Sampling Techniques, §5.5) for a linear
 * combination of independent binomial estimates: giving coalition S rollouts in proportion to aₛ·σₛ,
 * with aₛ = maxᵢ |c_iS| its largest coefficient in any value and σₛ its SD, minimizes the rollouts
 * that bring every Σ_S c_iS²·σₛ²/mₛ under (halfWidth / z)². σₛ is read off the interval the run will
 * report: the coalition's wider Wilson distance times √n / z. Away from 0 and 1 that is the
 * Bernoulli SD √(p̂(1 − p̂)); where every rollout so far agreed (a held set containing a pivotal
 * step) it is z·√n / (n + z²), small but never zero, so a pilot with no variance cannot starve a
 * coalition whose Wilson limit still widens every value. (A plain Bernoulli SD there would give
 * such coalitions too few rollouts: their one-sided Wilson widths would then dominate and
 * over-cover: 96.6% instead of 95.8% on the pivotal model.) Each target is capped at
 * `maxPerCoalition`, and at four times what the coalition has, so a noisy early estimate cannot
 * commit most of the budget at once. Where the normal approximation says the targets are met but the
 * Wilson limits are still wider, every coalition grows by the squared ratio of the widths, at most
 * twofold.
 *
 * Pure and computed only from completed rounds, so the rollouts a run requests do not depend on
 * timing or concurrency.
 */
export function nextAllocation(
  estimates: readonly CoalitionCount[],
  settings: AllocationSettings,
  coefficients: readonly (readonly number[])[] = shapleyCoefficients(settings.players),
): number[] | null {
  const { confidence, maxPerCoalition } = settings
  const halfWidth = settings.halfWidth ?? EXACT_TARGET_HALF_WIDTH
  const worst = worstHalfWidth(estimates, coefficients, confidence)
  if (worst <= halfWidth) return null
  const z = twoSidedZ(confidence)
  // The SD the MOVER interval acts as if each coalition had: its wider Wilson distance times √n / z
  // (the Bernoulli SD at its largest, 1/2, for a coalition with nothing scored yet).
  const sd = estimates.map(({ bad, n }) => {
    if (n === 0) return 0.5
    const p = bad / n
    const limits = wilsonLimits(bad, n, z)
    return (Math.max(p - limits.low, limits.high - p) * Math.sqrt(n)) / z
  })
  const largest = estimates.map((_, mask) =>
    Math.max(...coefficients.map((row) => Math.abs(row[mask] as number))),
  )
  // The λ in mₛ = λ·aₛ·σₛ that brings the worst value's normal-approximation variance to (h/z)².
  let lambda = 0
  for (const row of coefficients) {
    let sum = 0
    for (let mask = 0; mask < estimates.length; mask++) {
      const coefficient = row[mask] as number
      const share = (largest[mask] as number) * (sd[mask] as number)
      if (share > 0) sum += (coefficient * coefficient * (sd[mask] as number) ** 2) / share
    }
    lambda = Math.max(lambda, (z * z * sum) / (halfWidth * halfWidth))
  }
  const have = estimates.map(({ n }) => n)
  let targets = have.map((n, mask) =>
    Math.min(
      maxPerCoalition,
      4 * Math.max(n, 1),
      Math.ceil(lambda * (largest[mask] as number) * (sd[mask] as number)),
    ),
  )
  if (targets.every((target, mask) => target <= (have[mask] as number))) {
    const growth = Math.min(2, (worst / halfWidth) ** 2)
    targets = have.map((n) => Math.min(maxPerCoalition, Math.max(n + 1, Math.ceil(n * growth))))
  }
  const grows = targets.some((target, mask) => target > (have[mask] as number))
  return grows ? targets.map((target, mask) => Math.max(target, have[mask] as number)) : null
}

/** The largest distance from any value's point to either end of its MOVER–Wilson interval. */
export function worstHalfWidth(
  estimates: readonly CoalitionCount[],
  coefficients: readonly (readonly number[])[],
  confidence: number,
): number {
  if (estimates.some(({ n }) => n === 0)) return Infinity
  let worst = 0
  for (const row of coefficients) {
    const value = exactValueInterval(row, estimates, confidence)
    worst = Math.max(worst, value.point - value.low, value.high - value.point)
  }
  return worst
}

/** The number of steps held in a coalition bit mask. */
export function popCount(mask: number): number {
  let count = 0
  for (let rest = mask; rest !== 0; rest &= rest - 1) count++
  return count
}
