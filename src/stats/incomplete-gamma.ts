import { logGamma } from './log-gamma.js'

const EPSILON = 1e-16
const TINY = 1e-300
const MAX_ITERATIONS = 100_000

/**
 * Regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), for a > 0 and x ≥ 0: the
 * series for P when x < a + 1, else the continued fraction for Q evaluated by the modified Lentz
 * method (Numerical Recipes, 3rd ed., §6.2, `gser` / `gcf`). Each branch is evaluated where it
 * converges fast and without cancellation, so a tail as small as 1e-300 keeps its relative accuracy.
 */
export function regularizedGammaQ(a: number, x: number): number {
  if (!(a > 0)) throw new RangeError(`regularizedGammaQ: a must be positive, got ${a}`)
  if (!(x >= 0)) throw new RangeError(`regularizedGammaQ: x must be non-negative, got ${x}`)
  if (x === 0) return 1
  if (x === Infinity) return 0
  return x < a + 1 ? 1 - lowerSeries(a, x) : upperContinuedFraction(a, x)
}

/** Regularized lower incomplete gamma function P(a, x) = 1 − Q(a, x) (see {@link regularizedGammaQ}). */
export function regularizedGammaP(a: number, x: number): number {
  if (!(a > 0)) throw new RangeError(`regularizedGammaP: a must be positive, got ${a}`)
  if (!(x >= 0)) throw new RangeError(`regularizedGammaP: x must be non-negative, got ${x}`)
  if (x === 0) return 0
  if (x === Infinity) return 1
  return x < a + 1 ? lowerSeries(a, x) : 1 - upperContinuedFraction(a, x)
}

/** P(a, x) by its power series; converges quickly for x < a + 1. */
function lowerSeries(a: number, x: number): number {
  let denominator = a
  let term = 1 / a
  let sum = term
  for (let i = 0; i < MAX_ITERATIONS; i++) {
    denominator += 1
    term *= x / denominator
    sum += term
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a))
}

/** Q(a, x) by its continued fraction (modified Lentz); converges quickly for x ≥ a + 1. */
function upperContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a
  let c = 1 / TINY
  let d = 1 / b
  let h = d
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < TINY) d = TINY
    c = b + an / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPSILON) break
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h
}
