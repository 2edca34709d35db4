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
