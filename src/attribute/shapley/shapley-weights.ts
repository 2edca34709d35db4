import { twoSidedZ } from '../../stats/normal.js'

/**
 * The Shapley weight of a coalition of `size` players out of `players`: size!·(players − 1 − size)! /
 * players!, the chance that a uniformly random order puts exactly this coalition before a given
 * player. Computed as 1 / (players · C(players − 1, size)) so it stays exact for every n we allow.
 */
export function shapleyWeight(players: number, size: number): number {
  let binomial = 1
  for (let i = 1; i <= size; i++) binomial = (binomial * (players - size - 1 + i)) / i
  return 1 / (players * binomial)
}

/**
 * Σ over coalitions of the squared coefficients of one player's exact Shapley value, viewed as a
 * linear combination of the 2ⁿ coalition values: 2·Σₖ C(n − 1, k)·w(k)² = (2 / n²)·Σₖ 1 / C(n − 1, k).
 * With independent estimates of the coalition values it turns their variance into the variance of φ.
 */
export function sumOfSquaredCoefficients(players: number): number {
  let sum = 0
  for (let size = 0; size < players; size++) {
    const weight = shapleyWeight(players, size)
    sum += weight * weight * (1 / (players * weight))
  }
  return 2 * sum
}

/** The half-width the default `samplesPerEval` of exact Shapley aims at, in the worst case. */
export const EXACT_TARGET_HALF_WIDTH = 0.05

/**
 * The worst-case rollouts per coalition for exact Shapley: the fewest that give every Shapley value
 * a normal-approximation half-width of at most ±0.05 at `confidence` even when every coalition value
 * is 1/2 (binomial variance 1/4): ⌈z²·Σc² / (4·0.05²)⌉. That is 214 at n = 3 (1,712 rollouts) and 18
 * at n = 10 (18,432 rollouts): what every coalition gets with `samplesPerEval` set to it. The
 * default adaptive allocation never gives one coalition more, and stops once every value is within
 * ±0.05, which is sooner wherever coalition values are not all 1/2.
 */
export function exactSamplesPerEval(players: number, confidence: number): number {
  const z = twoSidedZ(confidence)
  return Math.max(
    1,
    Math.ceil((z * z * sumOfSquaredCoefficients(players)) / (4 * EXACT_TARGET_HALF_WIDTH ** 2)),
  )
}
