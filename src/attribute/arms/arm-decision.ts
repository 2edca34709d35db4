import { logEValueAbove, logEValueBelow } from '../../stats/paired-confidence-sequence.js'
import { pairedCounts, type Arm } from './replay-arms.js'

/**
 * The sequential stop rules other than a rescue, shared by every attribution that compares an arm
 * with a reference arm pair by pair: `worsens` once the effect's confidence sequence lies above 0,
 * and `negligible` once both one-sided e-values rule out an effect of `minEffect` or more in either
 * direction (a two one-sided tests equivalence decision, each at level α). Undefined: keep sampling.
 * Neither rule ever rejects "the arm rescues", so they cannot add false rescues.
 */
export function sequentialStop(
  arm: Arm,
  reference: Arm,
  alpha: number,
  minEffect: number,
): 'worsens' | 'negligible' | undefined {
  const counts = pairedCounts(arm, reference)
  if (logEValueAbove(counts, 0) >= Math.log(2 / alpha)) return 'worsens'
  const threshold = Math.log(1 / alpha)
  if (logEValueAbove(counts, -minEffect) >= threshold && logEValueBelow(counts, minEffect) >= threshold) {
    return 'negligible'
  }
  return undefined
}

/**
 * Search probes only: a probe stops as `futile` once it has this many scored pairs and no more
 * rescued pairs than worsened ones. It only steers the search (to the other half): no claim rests
 * on it, so it cannot add a false culprit; it costs power when a real rescue shows fewer rescued
 * than worsened pairs in its first pairs, which for a rescue of 0.5 happens with probability below
 * 1%. It halves what a probe of a span that does not matter costs (8 pairs instead of the 14 that
 * rule out ±minEffect).
 */
export const NAVIGATION_PAIRS = 8

/** A search probe with {@link NAVIGATION_PAIRS} scored pairs that does not lean toward a rescue. */
export function isFutile(arm: Arm, reference: Arm): boolean {
  const counts = pairedCounts(arm, reference)
  return counts.same + counts.better + counts.worse >= NAVIGATION_PAIRS && counts.better <= counts.worse
}
