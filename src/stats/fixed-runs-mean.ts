import { clopperPearson } from './clopper-pearson.js'
import type { Estimate } from './estimate.js'
import { assertAlpha } from './validate.js'

/** One case's runs and how many of them the predicate held in. */
export interface CaseRuns {
  readonly runs: number
  readonly successes: number
}

/** The method name of {@link fixedRunsMeanTest}, as messages print it. */
export const FIXED_RUNS_MEAN_METHOD =
  'Clopper–Pearson on the pooled runs, every case K times (Hoeffding 1956)'

/** What {@link fixedRunsMeanTest} decides about the mean over cases against a bound. */
export interface FixedRunsMeanTest {
  /** The pooled share with its Clopper–Pearson interval at 1 − 2α (each end one-sided at 1 − α). */
  interval: Estimate
  /** `below`: p̄ < bound at 1 − α; `above`: p̄ > bound at 1 − α; otherwise `undecided`. */
  decision: 'below' | 'above' | 'undecided'
  method: typeof FIXED_RUNS_MEAN_METHOD
}

/**
 * The mean over a finite population of cases, p̄ = (1/N) Σ pᵢ, from a fixed sample in which every
 * case ran the same K times (the cases are the whole population, so the only randomness is the
 * runs'). The pooled count S = Σ Sᵢ is Poisson-binomial with mean N·K·p̄, and Hoeffding (1956,
 * Theorems 4–5) bounds its tails by those of Binomial(N·K, p̄) beyond the mean; the Clopper–Pearson
 * interval of S in N·K therefore covers p̄ at least as often as it covers one coin's rate, however
 * the rates differ across cases (the more they differ, the more conservative it is). Equal K is what
 * makes the pooled share estimate the unweighted mean; unequal runs throw.
 */
export function fixedRunsMeanTest({
  cases,
  bound,
  alpha,
}: {
  cases: readonly CaseRuns[]
  bound: number
  alpha: number
}): FixedRunsMeanTest {
  assertAlpha('fixedRunsMeanTest', alpha)
  if (!(alpha < 0.5)) throw new RangeError(`fixedRunsMeanTest: alpha must be below 0.5, got ${alpha}`)
  const runsPerCase = cases[0]?.runs ?? 0
  let successes = 0
  for (const each of cases) {
    if (each.runs !== runsPerCase) {
      throw new RangeError(
        `fixedRunsMeanTest: every case must have run the same number of times (${runsPerCase}), got ${each.runs}`,
      )
    }
    if (!Number.isInteger(each.successes) || each.successes < 0 || each.successes > each.runs) {
      throw new RangeError(
        `fixedRunsMeanTest: successes must be an integer in [0, runs], got ${each.successes}`,
      )
    }
    successes += each.successes
  }
  const interval = clopperPearson(successes, cases.length * runsPerCase, 1 - 2 * alpha)
  const decision =
    interval.n === 0
      ? 'undecided'
      : interval.high < bound
        ? 'below'
        : interval.low > bound
          ? 'above'
          : 'undecided'
  return { interval, decision, method: FIXED_RUNS_MEAN_METHOD }
}
