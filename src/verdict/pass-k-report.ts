import type { Estimate } from '../stats/estimate.js'
import { PASS_K_METHOD, passK } from '../stats/pass-k.js'
import type { PassKReport } from './schema.js'

/**
 * The pass^k a verdict reports, from its observed rate: a run succeeds when the predicate does not
 * hold (`predicateIsBad`: `toRarely`, `toNever`, a lower-is-better baseline) or when it holds
 * (`toUsually`, `toAlways`). The interval is the observed rate's, at its level, so a sequential
 * gate's pass^k holds at its stop as its rate does. Absent when no k was asked for.
 */
export function passKReport(
  observed: Estimate,
  predicateIsBad: boolean,
  ks: readonly number[],
): PassKReport | undefined {
  if (ks.length === 0) return undefined
  const successes = predicateIsBad ? observed.n - observed.successes : observed.successes
  const rate = predicateIsBad ? { low: 1 - observed.high, high: 1 - observed.low } : observed
  return {
    confidence: observed.confidence,
    method: PASS_K_METHOD,
    values: passK(successes, observed.n, ks, rate),
  }
}
