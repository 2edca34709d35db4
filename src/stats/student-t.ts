import type { Interval } from './estimate.js'
import { inverseRegularizedIncompleteBeta, regularizedIncompleteBeta } from './incomplete-beta.js'
import { assertSample, mean, standardErrorOfMean } from './sample.js'
import { assertConfidence } from './validate.js'

/**
 * Distribution function of Student's t with `degreesOfFreedom` ν > 0 (not necessarily an integer),
 * through P(|T| > |t|) = I_{ν/(ν + t²)}(ν/2, 1/2) with the regularized incomplete beta function
 * (Abramowitz & Stegun 26.7.1 with 26.5.27). ±Infinity give 1 and 0; NaN gives NaN.
 */
export function studentTCdf(t: number, degreesOfFreedom: number): number {
  assertDegreesOfFreedom('studentTCdf', degreesOfFreedom)
  if (Number.isNaN(t)) return NaN
  if (t === Infinity) return 1
  if (t === -Infinity) return 0
  const nu = degreesOfFreedom
  const tail = 0.5 * regularizedIncompleteBeta(nu / (nu + t * t), nu / 2, 0.5)
  return t < 0 ? tail : 1 - tail
}

/**
 * Quantile of Student's t with `degreesOfFreedom` ν > 0: the t with P(T ≤ t) = p. Inverts the
 * relation of {@link studentTCdf} with our own `inverseRegularizedIncompleteBeta`: for the two-sided
 * tail α = 2·min(p, 1 − p), x = I⁻¹_α(ν/2, 1/2) and |t| = √(ν·(1 − x)/x). Accurate to about 1e-10
 * relative (the inverse is found by bisection to 1e-15 in x). p = 0 and 1 give ∓Infinity.
 */
export function studentTQuantile(p: number, degreesOfFreedom: number): number {
  assertDegreesOfFreedom('studentTQuantile', degreesOfFreedom)
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity
    if (p === 1) return Infinity
    throw new RangeError(`studentTQuantile: p must be in [0, 1], got ${p}`)
  }
  if (p === 0.5) return 0
  const nu = degreesOfFreedom
  const x = inverseRegularizedIncompleteBeta(2 * Math.min(p, 1 - p), nu / 2, 0.5)
  const magnitude = Math.sqrt((nu * (1 - x)) / x)
  return p < 0.5 ? -magnitude : magnitude
}

/**
 * Two-sided critical value of Student's t: t such that P(|T| ≤ t) = confidence with ν degrees of
 * freedom. Remembered per (confidence, ν): an attribution asks for the same one for every step, and
 * each costs a bisection of about 50 incomplete-beta evaluations (a few ms of a cold Shapley call).
 */
export function twoSidedT(confidence: number, degreesOfFreedom: number): number {
  assertConfidence('twoSidedT', confidence)
  const key = `${confidence}/${degreesOfFreedom}`
  let t = criticalValues.get(key)
  if (t === undefined) {
    t = studentTQuantile(1 - (1 - confidence) / 2, degreesOfFreedom)
    // Bounded: a long-running process that tries many levels must not grow without end.
    if (criticalValues.size >= MAX_REMEMBERED) criticalValues.clear()
    criticalValues.set(key, t)
  }
  return t
}

const criticalValues = new Map<string, number>()
const MAX_REMEMBERED = 256

/**
 * Student's t interval for a mean: x̄ ± t_{(1+c)/2, n−1}·s/√n with the sample standard deviation s
 * (n − 1 in the denominator). Exact for normal draws and, for a few dozen bounded i.i.d. draws
 * (Shapley permutation units), closer to its level than the normal-quantile `cltMean`, which it
 * approaches as n grows. The ends are not clamped. `confidence` defaults to 0.95. Throws on fewer
 * than two values or a non-finite value. The interval's method is `'student-t'`.
 */
export function studentTMean(values: readonly number[], confidence = 0.95): Interval {
  assertConfidence('studentTMean', confidence)
  assertSample('studentTMean', values)
  if (values.length < 2) {
    throw new RangeError('studentTMean: needs at least two values to estimate the spread')
  }
  const point = mean(values)
  const standardError = standardErrorOfMean(values, point)
  const half = twoSidedT(confidence, values.length - 1) * standardError
  return { point, low: point - half, high: point + half, confidence, method: 'student-t' }
}

function assertDegreesOfFreedom(fn: string, degreesOfFreedom: number): void {
  if (!(degreesOfFreedom > 0) || degreesOfFreedom === Infinity) {
    throw new RangeError(`${fn}: degreesOfFreedom must be a positive finite number, got ${degreesOfFreedom}`)
  }
}
