import { holm } from '../stats/holm.js'
import { mixtureLogEValues } from '../stats/mixture-e-process.js'
import type { CaseDecision } from './dataset-tally.js'

/**
 * The tests of a per-case claim (`per: 'case'`): for each case, the anytime-valid mixture e-process
 * of `sequentialRateTest` on the case's own runs, in both directions (its failure rate below the
 * claim's bound: the case satisfies it; above: it violates it), and Holm across the cases on each
 * side at α.
 *
 * Each side's p-value is 1 / (the largest e-value so far): by Ville's inequality it is valid at
 * whatever point sampling stops, and it only falls as runs come in, so Holm's rejections (monotone
 * in the p-values, over a fixed number of cases) never undo themselves. Holm needs nothing about
 * how the cases' p-values depend on each other, so the runs drawn in rounds, and the one stopping
 * rule they share, leave its family-wise error at α per side: the chance that a case violating the
 * claim is marked `satisfies` (a wrong pass) and the chance that a case satisfying it is named as
 * violating (a wrong failure) are each at most α.
 */
export class PerCaseTests {
  // Per case, the largest ln e-value seen so far against "satisfies" (above) and "violates" (below).
  private readonly maxBelow: number[]
  private readonly maxAbove: number[]
  private readonly threshold: { all: number; first: number }
  private violated = false
  // Per case, the current ln e-value against "satisfies": whether its runs so far lean to violating.
  private readonly currentAbove: number[]

  constructor(
    readonly cases: number,
    /** The largest failure rate a case may have: the bound of `toRarely`, 1 − the bound of `toUsually`. */
    private readonly failureBound: number,
    private readonly alpha: number,
  ) {
    this.maxBelow = new Array<number>(cases).fill(0)
    this.maxAbove = new Array<number>(cases).fill(0)
    this.currentAbove = new Array<number>(cases).fill(0)
    // Holm's last step asks every p ≤ α, its first some p ≤ α / N: cheap necessary conditions that
    // spare the sort on most runs.
    this.threshold = { all: Math.log(1 / alpha), first: Math.log(cases / alpha) }
  }

  /** Case `index` now has `failures` of `completed` runs against the claim. */
  update(index: number, failures: number, completed: number): void {
    if (completed === 0) return
    const logE = mixtureLogEValues(failures, completed, this.failureBound)
    this.maxBelow[index] = Math.max(this.maxBelow[index] ?? 0, logE.below)
    this.maxAbove[index] = Math.max(this.maxAbove[index] ?? 0, logE.above)
    this.currentAbove[index] = logE.above
  }

  /** True once every case is shown to satisfy the claim (the claim passes). */
  allSatisfy(): boolean {
    if (Math.min(...this.maxBelow) < this.threshold.all) return false
    return holm(this.maxBelow.map(pValue)).every((adjusted) => adjusted <= this.alpha)
  }

  /** True once some case is shown to violate the claim (the claim fails). */
  someViolates(): boolean {
    if (Math.max(...this.maxAbove) < this.threshold.first) return false
    return holm(this.maxAbove.map(pValue)).some((adjusted) => adjusted <= this.alpha)
  }

  /**
   * The gate's stopping rule, asked after each scored run (`rollouts` scored so far, in rounds of
   * every case once): stop once every case satisfies the claim. Once a case violates it, go on to
   * the end of a round in which no undecided case's runs lean to violating it (its e-value against
   * "satisfies" above 1), so that the cases about as bad as the first are
   * shown too and the failure names them all, while cases that look fine cost nothing more. (Any stopping rule keeps Holm's guarantee: the p-values are
   * valid wherever sampling stops.)
   */
  stops(rollouts: number): boolean {
    this.violated ||= this.someViolates()
    if (!this.violated) return this.allSatisfy()
    if (rollouts % this.cases !== 0) return false
    return this.decisions().every(
      (decision, index) => decision !== 'undecided' || (this.currentAbove[index] ?? 0) <= 0,
    )
  }

  /** Each case's standing, by index: shown to violate, shown to satisfy, or neither. */
  decisions(): CaseDecision[] {
    const satisfies = holm(this.maxBelow.map(pValue))
    const violates = holm(this.maxAbove.map(pValue))
    return satisfies.map((adjusted, index) =>
      (violates[index] ?? 1) <= this.alpha ? 'violates' : adjusted <= this.alpha ? 'satisfies' : 'undecided',
    )
  }
}

/** The anytime-valid p-value of a largest ln e-value. */
function pValue(maxLogE: number): number {
  return Math.min(1, Math.exp(-maxLogE))
}
