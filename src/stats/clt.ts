import type { Interval } from './estimate.js'
import { twoSidedZ } from './normal.js'
import { assertSample, mean, standardErrorOfMean } from './sample.js'
import { assertConfidence } from './validate.js'

/**
 * Normal-approximation (central limit theorem) interval for a mean: x̄ ± z·s/√n with the sample
 * standard deviation s (n − 1 in the denominator). Fast and smooth, right for many independent
 * draws (Shapley permutation samples, mean scores over dozens of rollouts), optimistic for a
 * handful. The ends are not clamped: clamp to the range of the quantity if it has one, as
 * `meanScoreInterval` does for scores in [0, 1]. `confidence` defaults to 0.95. Throws on fewer
 * than two values (no spread to estimate) or a non-finite value.
 */
export function cltMean(values: readonly number[], confidence = 0.95): Interval {
  assertConfidence('cltMean', confidence)
  assertSample('cltMean', values)
  if (values.length < 2) throw new RangeError('cltMean: needs at least two values to estimate the spread')
  const point = mean(values)
  const standardError = standardErrorOfMean(values, point)
  const half = twoSidedZ(confidence) * standardError
  return { point, low: point - half, high: point + half, confidence, method: 'clt' }
}
