import { bootstrapMean } from './bootstrap.js'
import { clopperPearson } from './clopper-pearson.js'
import { cltMean } from './clt.js'
import type { Interval } from './estimate.js'
import { assertConfidence } from './validate.js'
import { wilson } from './wilson.js'

/** Options of {@link meanScoreInterval}. */
export interface MeanScoreOptions {
  /** Default 'bootstrap'. Interval for scores that vary: seeded percentile bootstrap or CLT. */
  readonly method?: 'bootstrap' | 'clt'
  /** Default 0.95. Two-sided confidence level. */
  readonly confidence?: number
  /** Default 2000. Bootstrap resamples. */
  readonly resamples?: number
  /** Default 0. Bootstrap seed. */
  readonly seed?: number | string
}

/**
 * Interval for the mean of outcome scores in [0, 1], one per rollout. Picks the method so the
 * interval never collapses to zero width where a fixed design would not:
 *
 * - no scores: [0, 1] (nothing is known), method 'clopper-pearson';
 * - 0/1 scores only: the Clopper–Pearson interval of their sum — the data are Bernoulli, a bootstrap
 *   at k = 0 or k = n would report zero width, and Wilson's interval covers less than its level
 *   near 0 and 1;
 * - all other equal scores (or just one): Wilson on the fractional sum Σ scores of n — a
 *   conservative score interval, since a variable in [0, 1] with mean μ has variance at most
 *   μ(1 − μ) — where a bootstrap or CLT interval would again have zero width;
 * - otherwise the seeded percentile bootstrap (default) or the CLT interval, clamped to [0, 1].
 *
 * Throws on a score outside [0, 1] or not a number.
 */
export function meanScoreInterval(scores: readonly number[], options: MeanScoreOptions = {}): Interval {
  const { method = 'bootstrap', confidence = 0.95, resamples = 2000, seed = 0 } = options
  assertConfidence('meanScoreInterval', confidence)
  const bad = scores.findIndex((score) => !(score >= 0 && score <= 1))
  if (bad >= 0)
    throw new RangeError(`meanScoreInterval: scores[${bad}] is ${scores[bad]}, not a score in [0, 1]`)
  const n = scores.length
  const sum = scores.reduce((total, score) => total + score, 0)
  if (scores.every((score) => score === 0 || score === 1)) {
    const { point, low, high } = clopperPearson(sum, n, confidence)
    return { point, low, high, confidence, method: 'clopper-pearson' }
  }
  if (scores.every((score) => score === scores[0])) {
    const { point, low, high } = wilson(sum, n, confidence)
    return { point, low, high, confidence, method: 'wilson' }
  }
  const interval =
    method === 'clt' ? cltMean(scores, confidence) : bootstrapMean(scores, { resamples, confidence, seed })
  return { ...interval, low: Math.max(0, interval.low), high: Math.min(1, interval.high) }
}
