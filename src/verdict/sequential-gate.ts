import { isDatasetScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { mixtureLogEValues } from '../stats/mixture-e-process.js'
import { confidenceSequence } from '../stats/confidence-sequence.js'
import { sequentialRateTest } from '../stats/sequential-rate-test.js'
import { refusePerCaseOnOneInput, refuseRunsPerCaseOnOneInput } from './per-case-refusal.js'
import type { GateRun, GateSubject } from './gate.js'
import { passKReport } from './pass-k-report.js'
import type { ResolvedSequentialGate } from './options.js'
import { failingRun, OutcomeTally, sampleInOrder, SEQUENTIAL_STOPS, type Sampling } from './sampling.js'
import { confidenceSequenceInterval, sequentialKind, sequentialVerdict } from './sequential-verdict.js'
import type { PassKReport, SequentialVerdict } from './schema.js'
import type { Estimate } from '../stats/estimate.js'
import { JUDGE_CORRECTION_METHOD } from '../stats/judge-corrected-test.js'
import { judgeCalibrationOf } from '../trajectory/judge-calibration.js'
import {
  correctedDecision,
  correctedRates,
  correctedRolloutsToDecide,
  judgeCorrectionPlan,
  judgeCorrectionRecord,
  refuseUnpassableCorrection,
  type JudgeCorrectionPlan,
} from './judge-correction.js'

/**
 * The sequential gate of `toRarely` (`direction: 'atMost'`) and `toUsually` (`'atLeast'`). Rollouts
 * run `concurrency` at a time and are scored in index order; after every rollout (once `minRollouts` have run) the
 * anytime-valid sequential rate test (log-odds mixture e-process, α = 1 − confidence per side) is
 * asked whether the rate is below or above the bound, and sampling stops at its first answer —
 * optional stopping keeps each error rate at α. Past `maxRollouts` (or when the budget runs out,
 * or the test's timeout is near) the verdict is inconclusive, with the test's estimate of how many rollouts would decide it.
 *
 * Error outcomes never count as good: unless `allowErrors`, the first one stops the gate and fails
 * it; with `allowErrors`, they are left out of the rate and reported.
 */
export async function runSequentialGate(
  scenario: Scenario<unknown, unknown>,
  subject: GateSubject,
  options: ResolvedSequentialGate<SequentialVerdict['claim']>,
): Promise<GateRun<SequentialVerdict>> {
  // Over a dataset the claim is about the mean over cases, which the dataset test decides, or
  // about every case (`per: 'case'`).
  refusePerCaseOnOneInput(scenario, options.per)
  refuseRunsPerCaseOnOneInput(scenario, options.runsPerCase)
  if (isDatasetScenario(scenario)) {
    const { runDatasetGate } = await import('./dataset-gate.js')
    return runDatasetGate(scenario, subject, options)
  }
  const predicateIsBad = options.direction === 'atMost'
  const tally = new OutcomeTally(subject.predicate, predicateIsBad, subject.label)
  const alpha = 1 - options.confidence
  // A calibrated judge's rate is tested as the true rate, corrected for the judge's errors.
  const calibration = judgeCalibrationOf(subject.predicate)
  const correction = calibration === undefined ? null : judgeCorrectionPlan(calibration, options.bound, alpha)
  if (correction !== null) refuseUnpassableCorrection(correction, options)
  // The test is checked after every rollout, in index order: the stopping point is the same at
  // any concurrency, and checking this often is what the anytime-valid test allows.
  const sampling = await sampleInOrder(
    scenario,
    options,
    options.maxRollouts,
    tally,
    (trajectory) =>
      trajectory.error === undefined &&
      tally.rollouts >= options.minRollouts &&
      (correction === null
        ? decides(tally, options.bound, alpha)
        : correctedDecision(tally.successes, tally.n, correction) !== 'undecided'),
  )
  const stop = SEQUENTIAL_STOPS[sampling.end]

  if (correction !== null) return correctedGateRun(subject, options, tally, sampling, correction)
  const test =
    tally.n === 0
      ? null
      : sequentialRateTest({ successes: tally.successes, n: tally.n, bound: options.bound, alpha })
  const kind = sequentialKind(stop, test?.decision ?? 'undecided', options.direction)
  const more = test === null ? null : test.moreRolloutsToDecide
  const failing = failingRun(tally, kind, stop)
  const observed = confidenceSequence(tally.successes, tally.n, 2 * alpha)
  const verdict = sequentialVerdict(subject, options, tally, sampling, {
    kind,
    stop,
    // The rate's interval is the anytime-valid confidence sequence the test decides with (each end
    // one-sided at 1 − α): a fixed-sample interval read where the test stopped covers less than its
    // level (a Wilson 95% covered 85–90% after early stops), and its point leans toward the verdict.
    observed,
    passK: passKReport(observed, predicateIsBad, options.passK),
    failing,
    decision:
      test === null ? null : { interval: confidenceSequenceInterval(test, alpha), method: test.method },
    rolloutsToDecide: kind === 'inconclusive' && more !== null && more > 0 ? tally.n + more : null,
  })
  return { verdict, failing, isBad: (trajectory) => tally.isBad(trajectory) }
}

/**
 * The verdict of a judge-corrected gate (see `judgeCorrectionPlan`): the corrected test decided (or
 * not), `observed` is the corrected rate, and `judgeCorrection` records the judge's apparent rate,
 * its calibration and the method. pass^k is the corrected rate's: the plug-in p̂^k with the
 * interval raised to the k-th power (the unbiased estimator counts runs, and the judge's counts are
 * not the runs' outcomes).
 */
function correctedGateRun(
  subject: GateSubject,
  options: ResolvedSequentialGate<SequentialVerdict['claim']>,
  tally: OutcomeTally,
  sampling: Sampling,
  correction: JudgeCorrectionPlan,
): GateRun<SequentialVerdict> {
  const predicateIsBad = options.direction === 'atMost'
  const stop = SEQUENTIAL_STOPS[sampling.end]
  const kind = sequentialKind(
    stop,
    correctedDecision(tally.successes, tally.n, correction),
    options.direction,
  )
  const failing = failingRun(tally, kind, stop)
  const { apparent, corrected } = correctedRates(tally.successes, tally.n, correction)
  const toDecide =
    kind === 'inconclusive' ? correctedRolloutsToDecide(tally.successes, tally.n, correction) : null
  const verdict = sequentialVerdict(subject, options, tally, sampling, {
    kind,
    stop,
    observed: corrected,
    passK: correctedPassK(corrected, predicateIsBad, options.passK),
    failing,
    decision:
      tally.n === 0
        ? null
        : {
            interval: {
              point: corrected.point,
              low: corrected.low,
              high: corrected.high,
              confidence: corrected.confidence,
              method: 'rogan-gladen',
            },
            method: JUDGE_CORRECTION_METHOD,
          },
    rolloutsToDecide: toDecide !== null && toDecide > tally.n ? toDecide : null,
    extra: { judgeCorrection: judgeCorrectionRecord(correction, apparent) },
  })
  return { verdict, failing, isBad: (trajectory) => tally.isBad(trajectory) }
}

/** pass^k of a corrected rate: p̂^k, and the corrected interval's ends raised to the k-th power. */
function correctedPassK(
  corrected: Estimate,
  predicateIsBad: boolean,
  ks: readonly number[],
): PassKReport | undefined {
  if (ks.length === 0 || corrected.n === 0) return undefined
  const success = predicateIsBad
    ? { point: 1 - corrected.point, low: 1 - corrected.high, high: 1 - corrected.low }
    : corrected
  return {
    confidence: corrected.confidence,
    method: CORRECTED_PASS_K_METHOD,
    values: ks
      .filter((k) => k <= corrected.n)
      .map((k) => ({ k, point: success.point ** k, low: success.low ** k, high: success.high ** k })),
  }
}

/** The method a judge-corrected pass^k names. */
export const CORRECTED_PASS_K_METHOD =
  "plug-in p̂^k of the judge-corrected rate; interval: the corrected rate's interval raised to the k-th power"

/**
 * Whether `sequentialRateTest` would decide on these counts: the same e-value threshold, without
 * the confidence sequence and the projection it also computes (checked after every rollout, the
 * full test would cost more than a synthetic agent's rollouts).
 */
function decides(tally: OutcomeTally, bound: number, alpha: number): boolean {
  const logE = mixtureLogEValues(tally.successes, tally.n, bound)
  const threshold = Math.log(1 / alpha)
  return logE.below >= threshold || logE.above >= threshold
}
