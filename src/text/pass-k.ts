import { CORRECTED_PASS_K_METHOD } from '../verdict/sequential-gate.js'
import { claimDirection, type PassKReport, type Verdict } from '../verdict/schema.js'
import { confidenceLevel, percent } from './numbers.js'

/**
 * What a run's success is, for pass^k: for a claim that the predicate is rare, a run without it;
 * for a claim that it is usual, a run with it. "none of k runs call issue_refund".
 */
export function passKSubject(verdict: Verdict): string {
  return claimDirection(verdict) === 'atMost'
    ? `none of k runs ${verdict.predicate}`
    : `all k runs ${verdict.predicate}`
}

/** One pass^k value with its interval: "pass^3 93.5% [88.0%–97.1%]". */
export function passKValueText(value: { k: number; point: number; low: number; high: number }): string {
  return `pass^${value.k} ${percent(value.point)} [${percent(value.low)}–${percent(value.high)}]`
}

/**
 * The verdict's pass^k in one line, or null when it has none: "pass^k (none of k runs call
 * issue_refund): pass^1 97.8% [95.0%–99.5%], pass^3 … (unbiased; 90% interval, the rate's to the
 * k-th power)".
 */
export function passKLine(verdict: Verdict): string | null {
  const report = verdict.passK
  if (report === undefined || report.values.length === 0) return null
  const values = report.values.map(passKValueText).join(', ')
  const estimator =
    report.method === CORRECTED_PASS_K_METHOD ? 'plug-in, of the judge-corrected rate' : 'unbiased'
  return `pass^k (${passKSubject(verdict)}): ${values} (${estimator}; ${confidenceLevel(report.confidence)} interval, the rate's to the k-th power)`
}

/** The largest k's pass^k with its interval ("pass^8 66.3% [43.2%–84.1%]"), or a dash when there is none. */
export function largestPassKText(report: PassKReport | undefined): string {
  const largest = report?.values.at(-1)
  return largest === undefined ? '—' : passKValueText(largest)
}
