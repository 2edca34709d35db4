import type { Trajectory } from '../trajectory/schema.js'
import type { GateSubject } from './gate.js'
import type { ResolvedSequentialGate } from './options.js'
import { tallyFields, type RolloutTally, type Sampling } from './sampling.js'
import type { SequentialVerdict } from './schema.js'

/**
 * What the sequential gates (one input, the mean over a dataset, every case of it, a judge-corrected
 * rate) find out in their own way; the rest of their verdict is the same everywhere.
 */
export interface SequentialFindings {
  kind: SequentialVerdict['kind']
  stop: SequentialVerdict['stop']
  observed: SequentialVerdict['observed']
  passK?: SequentialVerdict['passK'] | undefined
  /** The run to replay and attribute; null on a pass. */
  failing: Trajectory | null
  decision: SequentialVerdict['decision']
  rolloutsToDecide: SequentialVerdict['rolloutsToDecide']
  /** What one gate adds at the end: a dataset's per-case table, a judge's correction. */
  extra?: Pick<SequentialVerdict, 'dataset' | 'judgeCorrection'>
}

/**
 * A sequential gate's verdict. One literal, its keys in one order, so every gate's artifact prints
 * its fields alike (an artifact is JSON, and its key order is what a reader and a snapshot see).
 */
export function sequentialVerdict(
  subject: Omit<GateSubject, 'predicate'>,
  options: ResolvedSequentialGate<SequentialVerdict['claim']>,
  tally: RolloutTally,
  sampling: Sampling,
  findings: SequentialFindings,
): SequentialVerdict {
  const { failing, passK } = findings
  return {
    gate: 'sequential',
    claim: options.claim,
    kind: findings.kind,
    ...tallyFields(subject, options, tally, sampling),
    observed: findings.observed,
    ...(passK === undefined ? {} : { passK }),
    replay: failing === null ? null : { seed: options.seed, rollout: failing.rollout },
    bound: options.bound,
    maxRollouts: options.maxRollouts,
    decision: findings.decision,
    rolloutsToDecide: findings.rolloutsToDecide,
    onInconclusive: options.onInconclusive,
    stop: findings.stop,
    ...findings.extra,
  }
}

/**
 * The verdict a test's answer gives a claim in `direction`: an error stop fails it, no answer
 * leaves it inconclusive, and the answer passes it when it is on the claim's side of the bound.
 */
export function sequentialKind(
  stop: SequentialVerdict['stop'],
  decision: 'below' | 'above' | 'undecided',
  direction: 'atMost' | 'atLeast',
): SequentialVerdict['kind'] {
  if (stop === 'error') return 'fail'
  if (decision === 'undecided') return 'inconclusive'
  return (direction === 'atMost' ? decision === 'below' : decision === 'above') ? 'pass' : 'fail'
}

/**
 * A confidence sequence's interval as a verdict shows it: each end one-sided at 1 − α, so the
 * two-sided level is 1 − 2α.
 */
export function confidenceSequenceInterval(
  test: { point: number; low: number; high: number },
  alpha: number,
): NonNullable<SequentialVerdict['decision']>['interval'] {
  return {
    point: test.point,
    low: test.low,
    high: test.high,
    confidence: 1 - 2 * alpha,
    method: 'confidence-sequence',
  }
}

/**
 * The mean over a dataset's cases as a verdict shows it: the dataset test's confidence sequence
 * (each end one-sided at 1 − α) around the pooled share of the runs; [0, 1] before any run.
 */
export function observedMean(
  test: { point: number; low: number; high: number } | null,
  counts: { successes: number; n: number },
  alpha: number,
): SequentialVerdict['observed'] {
  return {
    point: test?.point ?? 0,
    low: test?.low ?? 0,
    high: test?.high ?? 1,
    successes: counts.successes,
    n: counts.n,
    confidence: 1 - 2 * alpha,
    method: 'confidence-sequence',
  }
}
