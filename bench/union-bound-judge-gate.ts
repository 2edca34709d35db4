/**
 * The judge-corrected gate's decision before the weighted test, kept callable for the benchmarks
 * that compare the two side by side (it is no longer the library's): the union bound over the
 * apparent rate's e-process at α/2 and the calibration's box (Clopper–Pearson, two-sided at 1 − α/4
 * for each of Se and Sp). The true rate is below the bound for every judge of the box exactly when
 * the apparent rate is below bound·Se_low + (1 − bound)(1 − Sp_high), the box's corner; the gate
 * decided 'below' when the e-process rejected q ≥ that corner at α/2, and refused to decide when
 * the box held a judge no better than chance (Se_low + Sp_low ≤ 1).
 */
import { mixtureLogEValues } from '../src/stats/mixture-e-process.js'
import { judgeErrorBox } from '../src/stats/rogan-gladen.js'
import type { SequentialDecision } from '../src/stats/sequential-rate-test.js'
import type { JudgeCalibration } from '../src/trajectory/judge-calibration.js'

/** The union-bound gate's decision after `successes` judge-yes of `n`, for a claim at `bound`. */
export function unionBoundDecider(
  calibration: JudgeCalibration,
  bound: number,
  alpha: number,
): (successes: number, n: number) => SequentialDecision {
  const box = judgeErrorBox(calibration.sensitivity, calibration.specificity, alpha)
  if (!(box.sensitivity.low + box.specificity.low > 1)) return () => 'undecided'
  const below = bound * box.sensitivity.low + (1 - bound) * (1 - box.specificity.high)
  const above = bound * box.sensitivity.high + (1 - bound) * (1 - box.specificity.low)
  const threshold = Math.log(2 / alpha)
  return (successes, n) => {
    if (n === 0) return 'undecided'
    if (below > 0 && below < 1 && mixtureLogEValues(successes, n, below).below >= threshold) return 'below'
    if (above > 0 && above < 1 && mixtureLogEValues(successes, n, above).above >= threshold) return 'above'
    return 'undecided'
  }
}
