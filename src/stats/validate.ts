/**
 * Argument checks shared by the estimators. A bad argument is a programming error, so it throws a
 * RangeError that names the function and the value, never a silent NaN interval.
 */

/** Throws unless 0 ≤ successes ≤ n are integers. */
export function assertCount(fn: string, successes: number, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${fn}: n must be a non-negative integer, got ${n}`)
  if (!Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`${fn}: successes must be an integer in [0, n = ${n}], got ${successes}`)
  }
}

/** Throws unless confidence is strictly between 0 and 1. */
export function assertConfidence(fn: string, confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`${fn}: confidence must be in (0, 1), e.g. 0.95, got ${confidence}`)
  }
}

/** Throws unless alpha (an error rate) is strictly between 0 and 1. */
export function assertAlpha(fn: string, alpha: number): void {
  if (!(alpha > 0 && alpha < 1))
    throw new RangeError(`${fn}: alpha must be in (0, 1), e.g. 0.05, got ${alpha}`)
}
