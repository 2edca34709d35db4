import type { Scenario } from '../agent/types.js'
import { mixtureLogEValues } from '../stats/mixture-e-process.js'
import { confidenceSequence } from '../stats/confidence-sequence.js'
import { sequentialRateTest } from '../stats/sequential-rate-test.js'
import type { GateRun, GateSubject } from './gate.js'
import { passKReport } from './pass-k-report.js'
import type { ResolvedSequentialGate } from './options.js'
import { failingRun, OutcomeTally, sampleInOrder, SEQUENTIAL_STOPS, tallyFields } from './sampling.js'
import type { SequentialVerdict } from './schema.js'

/**
 * The sequential gate of `toRarely` (`direction: 'atMost'`) and `toUsually` (`'atLeast'`). Rollouts
 * run in batches of `concurrency`; after every rollout (once `minRollouts` have run) the
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
  options: ResolvedSequentialGate,
  signal: AbortSignal | undefined,
): Promise<GateRun<SequentialVerdict>> {
  const predicateIsBad = options.direction === 'atMost'
  const tally = new OutcomeTally(subject.predicate, predicateIsBad, subject.label)
  const alpha = 1 - options.confidence
  // The test is checked after every rollout, in index order: the stopping point is the same at
  // any concurrency, and checking this often is what the anytime-valid test allows.
  const sampling = await sampleInOrder(
    scenario,
    options,
    options.maxRollouts,
    tally,
    signal,
    (trajectory) =>
      trajectory.error === undefined &&
      tally.rollouts >= options.minRollouts &&
      decides(tally, options.bound, alpha),
  )
  const stop = SEQUENTIAL_STOPS[sampling.end]

  const test =
    tally.n === 0
      ? null
      : sequentialRateTest({ successes: tally.successes, n: tally.n, bound: options.bound, alpha })
  const decision = test?.decision ?? 'undecided'
  const passes = options.direction === 'atMost' ? decision === 'below' : decision === 'above'
  const kind: SequentialVerdict['kind'] =
    stop === 'error' ? 'fail' : decision === 'undecided' ? 'inconclusive' : passes ? 'pass' : 'fail'
  const more = test === null ? null : test.moreRolloutsToDecide
  const failing = failingRun(tally, kind, stop)
  const observed = confidenceSequence(tally.successes, tally.n, 2 * alpha)
  const passK = passKReport(observed, predicateIsBad, options.passK)
  const verdict: SequentialVerdict = {
    gate: 'sequential',
    claim: options.direction === 'atMost' ? 'rarely' : 'usually',
    kind,
    ...tallyFields(subject, options, tally, sampling),
    // The rate's interval is the anytime-valid confidence sequence the test decides with (each end
    // one-sided at 1 − α): a fixed-sample interval read where the test stopped covers less than its
    // level (a Wilson 95% covered 85–90% after early stops), and its point leans toward the verdict.
    observed,
    ...(passK === undefined ? {} : { passK }),
    replay: failing === null ? null : { seed: options.seed, rollout: failing.rollout },
    bound: options.bound,
    maxRollouts: options.maxRollouts,
    decision:
      test === null
        ? null
        : {
            interval: {
              point: test.point,
              low: test.low,
              high: test.high,
              confidence: 1 - 2 * alpha,
              method: 'confidence-sequence',
            },
            method: test.method,
          },
    rolloutsToDecide: kind === 'inconclusive' && more !== null && more > 0 ? tally.n + more : null,
    onInconclusive: options.onInconclusive,
    stop,
  }
  return { verdict, failing, isBad: (trajectory) => tally.isBad(trajectory) }
}

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
