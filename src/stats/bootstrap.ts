import seedrandom from 'seedrandom'
import type { Interval } from './estimate.js'
import { assertSample, mean } from './sample.js'
import { assertConfidence } from './validate.js'

/** Options of {@link bootstrapMean}. */
export interface BootstrapOptions {
  /** Default 2000. Number of bootstrap resamples. */
  readonly resamples?: number
  /** Default 0.95. Two-sided confidence level. */
  readonly confidence?: number
  /** Default 0. Seed of the resampling stream (seedrandom's alea): same seed, same interval. */
  readonly seed?: number | string
}

/**
 * Seeded percentile bootstrap interval for a mean (Efron & Tibshirani 1993, ch. 13): draw
 * `resamples` samples of the same size with replacement, take their means, and report the α/2 and
 * 1 − α/2 quantiles of those means (linear interpolation between order statistics, R's type 7).
 * Deterministic for a given seed. It assumes nothing about the distribution, but it cannot be wider
 * than the data: on all-equal values it has zero width, and on 0/1 data at k = 0 or k = n it
 * collapses — use `meanScoreInterval`, which falls back to Clopper–Pearson there. Throws on an
 * empty sample or a non-finite value.
 */
export function bootstrapMean(values: readonly number[], options: BootstrapOptions = {}): Interval {
  const { resamples = 2000, confidence = 0.95, seed = 0 } = options
  assertConfidence('bootstrapMean', confidence)
  assertSample('bootstrapMean', values)
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`bootstrapMean: resamples must be a positive integer, got ${resamples}`)
  }
  const random = seedrandom.alea(String(seed))
  const n = values.length
  const means = new Float64Array(resamples)
  for (let r = 0; r < resamples; r++) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)] ?? 0
    means[r] = sum / n
  }
  means.sort()
  const alpha = 1 - confidence
  return {
    point: mean(values),
    low: quantileOfSorted(means, alpha / 2),
    high: quantileOfSorted(means, 1 - alpha / 2),
    confidence,
    method: 'bootstrap',
  }
}

/** Quantile of sorted values by linear interpolation between order statistics (Hyndman & Fan type 7). */
function quantileOfSorted(sorted: Float64Array, probability: number): number {
  const position = (sorted.length - 1) * probability
  const below = Math.floor(position)
  const lower = sorted[below] ?? NaN
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] ?? NaN
  return lower + (position - below) * (upper - lower)
}
