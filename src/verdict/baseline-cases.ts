import { bisect } from '../stats/bisect.js'
import { holm } from '../stats/holm.js'
import {
  comparePairedWithBaseline,
  compareWithBaseline,
  type BaselineFinding,
  type BaselineRule,
} from './baseline-comparison.js'

/** A case's measurement: its runs and the runs that went against the claim. */
export interface CaseCounts {
  readonly id: string
  readonly runs: number
  readonly failures: number
}

/** A case of the new run, with its outcomes when it can be paired with the stored run. */
export interface CurrentCase extends CaseCounts {
  /**
   * Default: none. The case's runs as bad (`1`) or not (`0`), in rollout order, beside the stored
   * run's outcomes at the same rollouts: given when the new run reuses the stored seed over the same
   * cases, so rollout r ran the same case on the same streams in both.
   */
  readonly paired?: { readonly current: string; readonly stored: string }
}

/** How the cases of a dataset baseline stand against their stored counts. */
export interface CaseBaselineResult {
  /** Cases in both the stored entry and the dataset: the family Holm corrects over. */
  readonly compared: number
  /** Cases shown worse than their baseline by more than the tolerance, smallest adjusted p-value first. */
  readonly regressed: readonly string[]
  /** Cases of the dataset the stored entry has no counts for. */
  readonly added: readonly string[]
  /** Cases of the stored entry the dataset no longer has. */
  readonly removed: readonly string[]
  /** Each compared case's Holm-adjusted p-value against "no worse than the tolerance". */
  readonly adjusted: ReadonlyMap<string, number>
  readonly method: string
}

/** How the per-case comparison names its method in verdicts and messages. */
export const CASE_BASELINE_METHOD =
  "Holm over the cases' one-sided comparisons (paired by rollout on the stored seed, else Newcombe)"

/**
 * Each case of a dataset against its stored counts, with the family-wise error across cases
 * controlled by Holm: a case is named regressed when its Holm-adjusted p-value is at most
 * 1 − confidence. A case's p-value is the least one-sided level at which the existing single-input
 * comparison (`comparePairedWithBaseline` when the case's runs pair with the stored ones, else
 * `compareWithBaseline`) finds it regressed beyond the tolerance, found by bisection over the
 * confidence (its intervals nest as the confidence grows). Cases added since the baseline have no
 * stored runs and are not compared; removed cases are listed.
 */
export function compareCasesWithBaseline(
  current: readonly CurrentCase[],
  stored: readonly CaseCounts[],
  rule: BaselineRule,
): CaseBaselineResult {
  const storedById = new Map(stored.map((entry) => [entry.id, entry]))
  const currentIds = new Set(current.map((entry) => entry.id))
  const compared = current.filter((entry) => storedById.has(entry.id) && entry.runs > 0)
  const pValues = compared.map((entry) =>
    regressionPValue(entry, storedById.get(entry.id) as CaseCounts, rule),
  )
  const adjustedValues = holm(pValues)
  const adjusted = new Map(compared.map((entry, i) => [entry.id, adjustedValues[i] as number]))
  const alpha = 1 - rule.confidence
  const regressed = compared
    .map((entry, i) => ({ id: entry.id, p: adjustedValues[i] as number }))
    .filter(({ p }) => p <= alpha)
    .sort((a, b) => a.p - b.p)
    .map(({ id }) => id)
  return {
    compared: compared.length,
    regressed,
    added: current.filter((entry) => !storedById.has(entry.id)).map((entry) => entry.id),
    removed: stored.filter((entry) => !currentIds.has(entry.id)).map((entry) => entry.id),
    adjusted,
    method: CASE_BASELINE_METHOD,
  }
}

/** The least confidence the gate could have, and the most it asks a bisection about. */
const LEAST_CONFIDENCE = 0.5001
const MOST_CONFIDENCE = 1 - 1e-9

/**
 * The one-sided p-value of "the case is no worse than its stored rate by more than the tolerance":
 * 1 − the greatest confidence at which the comparison finds it `regressed`; 1 when not even at
 * about 50% (the point estimate is within the tolerance).
 */
function regressionPValue(current: CurrentCase, stored: CaseCounts, rule: BaselineRule): number {
  // Counted as bad outcomes, so lower is better whatever the predicate.
  const findingAt = (confidence: number): Exclude<BaselineFinding, 'reproduced'> => {
    const at = { tolerance: rule.tolerance, better: 'lower' as const, confidence }
    if (current.paired !== undefined)
      return comparePairedWithBaseline(current.paired.current, current.paired.stored, at).finding
    if (stored.runs === 0) return 'undecided'
    return compareWithBaseline(
      { successes: current.failures, n: current.runs },
      { successes: stored.failures, n: stored.runs },
      at,
    ).finding
  }
  if (findingAt(LEAST_CONFIDENCE) !== 'regressed') return 1
  if (findingAt(MOST_CONFIDENCE) === 'regressed') return 1 - MOST_CONFIDENCE
  const edge = bisect(
    (confidence) => findingAt(confidence) !== 'regressed',
    LEAST_CONFIDENCE,
    MOST_CONFIDENCE,
    1e-7,
  )
  // The upper end of the bracket: a confidence at which it is no longer regressed, so p is not understated.
  return Math.min(1, 1 - edge + 1e-7)
}
