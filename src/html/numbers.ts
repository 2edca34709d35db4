import { methodName, rateIntervalText } from '../text/numbers.js'
import { IntervalMethodSchema, type Estimate, type Interval } from '../stats/estimate.js'

// How numbers read on the HTML page: the interval phrases the page needs, in the terminal
// formatter's words for percentages, levels and methods (text/numbers.ts). Every rate is shown
// with its interval and the interval's method. These return plain text; callers escape it.

/**
 * A method name as recorded in an artifact's free-text `methods` fields: a known interval method
 * gets its reader's name ("tango" → "Tango"), anything else is shown as written.
 */
export function describeMethod(name: string): string {
  const known = IntervalMethodSchema.safeParse(name)
  return known.success ? methodName(known.data) : name
}

/**
 * "95% Wilson CI 15.8%–32.2%": the interval of a proportion, its level and its method ("90%
 * anytime-valid confidence sequence …" for a sequential gate's rate).
 */
export function percentInterval(interval: Interval | Estimate): string {
  return rateIntervalText(interval)
}

/** A signed difference with two decimals: -0.7412 → "-0.74", 0.1 → "+0.10", 0 → "0.00". */
export function signed(value: number): string {
  const text = Math.abs(value).toFixed(2)
  if (text === '0.00') return text
  return `${value < 0 ? '-' : '+'}${text}`
}

/** "-0.74 [-0.86, -0.58]": a difference with its interval. */
export function signedInterval(interval: Pick<Interval, 'point' | 'low' | 'high'>): string {
  return `${signed(interval.point)} [${signed(interval.low)}, ${signed(interval.high)}]`
}

/**
 * The complement of a proportion, 1 − p, with the interval mirrored: how often a run is rescued
 * when P(bad) is `estimate`. Counts are mirrored too, so the result is again an Estimate.
 */
export function complement(estimate: Estimate): Estimate {
  return {
    ...estimate,
    point: 1 - estimate.point,
    low: 1 - estimate.high,
    high: 1 - estimate.low,
    successes: estimate.n - estimate.successes,
  }
}

/** A p-value for reading, with two significant digits: "p = 0.012", or "p < 0.0001". */
export function pValueText(value: number): string {
  return value < 1e-4 ? 'p < 0.0001' : `p = ${value.toPrecision(2)}`
}
