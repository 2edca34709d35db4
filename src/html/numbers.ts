import { methodName, percent } from '../text/numbers.js'
import { IntervalMethodSchema, type Estimate, type Interval } from '../stats/estimate.js'

// How numbers read on the HTML page: the interval phrases the page needs, in the terminal
// formatter's words for percentages, levels, methods and rate intervals (text/numbers.ts, whose
// `rateIntervalText` the page uses as is). Every rate is shown with its interval and the interval's
// method. These return plain text; callers escape it.

/**
 * A method name as recorded in an artifact's free-text `methods` fields: a known interval method
 * gets its reader's name ("tango" → "Tango"), anything else is shown as written.
 */
export function describeMethod(name: string): string {
  const known = IntervalMethodSchema.safeParse(name)
  return known.success ? methodName(known.data) : name
}

/** A signed difference with two decimals: -0.7412 → "-0.74", 0.1 → "+0.10", 0 → "0.00". */
export function signed(value: number): string {
  const text = Math.abs(value).toFixed(2)
  if (text === '0.00') return text
  return `${value < 0 ? '-' : '+'}${text}`
}

/**
 * "-0.74 [-0.86, -0.58]": a difference with its interval. A negative upper end that rounds to zero
 * keeps its sign ("-0.00"): a rescue whose interval is capped just below 0 must not read as
 * reaching it.
 */
export function signedInterval(interval: Pick<Interval, 'point' | 'low' | 'high'>): string {
  const high = interval.high < 0 && signed(interval.high) === '0.00' ? '-0.00' : signed(interval.high)
  return `${signed(interval.point)} [${signed(interval.low)}, ${high}]`
}

/**
 * A rescue's lower end (a negated effect's upper end) as a percentage: ">0%" when it is positive but
 * below what {@link percent} can show sensibly (an end capped just past 0).
 */
export function rescueLowerPercent(rate: number): string {
  return rate > 0 && rate < 1e-6 ? '>0%' : percent(rate)
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
