import { sequentialBoundaries } from './sequential-rate-test.js'

/** What {@link sequentialOperatingCharacteristics} is asked about. */
export interface OperatingCharacteristicsInput {
  /** The true rate assumed, in [0, 1]. */
  readonly rate: number
  /** The gate's bound, in (0, 1). */
  readonly bound: number
  /** Default 0.05. The test's α. */
  readonly alpha?: number
  /** Default 400. The budget: sampling stops here, undecided if the test has not decided. */
  readonly maxRollouts?: number
  /** Default 1. The test is checked after every `batchSize` rollouts (and at the budget). */
  readonly batchSize?: number
}

/** Exact behaviour of the sequential gate at one true rate. */
export interface OperatingCharacteristics {
  /** Probability the test ends with 'below'. */
  readonly pBelow: number
  /** Probability the test ends with 'above'. */
  readonly pAbove: number
  /** Probability the budget runs out first. */
  readonly pUndecided: number
  /** Expected rollouts spent, counting an undecided run as the whole budget. */
  readonly meanRollouts: number
}

/**
 * Exact operating characteristics of `sequentialRateTest` under a true rate: decision
 * probabilities and the expected number of rollouts, by dynamic programming over the distribution
 * of the success count among the runs still undecided (no simulation noise; O(maxRollouts²)).
 * Used to tune and document the test, and to tell a user what a budget buys.
 */
export function sequentialOperatingCharacteristics(
  input: OperatingCharacteristicsInput,
): OperatingCharacteristics {
  const { rate, bound, alpha = 0.05, maxRollouts = 400, batchSize = 1 } = input
  if (!(rate >= 0 && rate <= 1))
    throw new RangeError(`sequentialOperatingCharacteristics: rate must be in [0, 1], got ${rate}`)
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new RangeError(
      `sequentialOperatingCharacteristics: batchSize must be a positive integer, got ${batchSize}`,
    )
  }
  const { belowAtMost, aboveAtLeast } = sequentialBoundaries(bound, alpha, maxRollouts)
  // mass[s]: probability of being undecided after n rollouts with s successes.
  let mass = [1]
  let pBelow = 0
  let pAbove = 0
  let meanRollouts = 0
  for (let n = 1; n <= maxRollouts; n++) {
    const next = new Array<number>(n + 1).fill(0)
    mass.forEach((probability, s) => {
      next[s] = (next[s] ?? 0) + probability * (1 - rate)
      next[s + 1] = (next[s + 1] ?? 0) + probability * rate
    })
    mass = next
    if (n % batchSize !== 0 && n !== maxRollouts) continue
    const belowEnd = belowAtMost[n] ?? -1
    const aboveStart = aboveAtLeast[n] ?? n + 1
    for (let s = 0; s <= n; s++) {
      const probability = mass[s] ?? 0
      if (s <= belowEnd) pBelow += probability
      else if (s >= aboveStart) pAbove += probability
      else continue
      meanRollouts += probability * n
      mass[s] = 0
    }
  }
  const pUndecided = mass.reduce((sum, probability) => sum + probability, 0)
  return { pBelow, pAbove, pUndecided, meanRollouts: meanRollouts + pUndecided * maxRollouts }
}
