import { CLAIMS, type ClaimKindOfGate } from './claim-table.js'
import type { AgentComparison, BaselineComparison, Verdict } from './schema.js'

/**
 * Why a verdict is what it is, decided once: which bound decided (and on which side), what was
 * left undecided, what an occurrence refuted, where a baseline stands. The terminal message and
 * the HTML page word this; neither recomputes it.
 */
export type Explanation =
  /** An error outcome stopped the gate and failed it (`allowErrors` is false). */
  | { reason: 'error-outcome'; rollout: number | null }
  /** No rollout completed, so nothing could be decided. */
  | { reason: 'no-completed-rollout' }
  /** The sequential test decided: `end` of its confidence sequence cleared the claim's bound. */
  | {
      reason: 'decided'
      end: 'upper' | 'lower'
      value: number
      /** How `value` relates to `bound`: ≤ or ≥ for a pass, < or > for a fail. */
      relation: '≤' | '<' | '≥' | '>'
      bound: number
      /** The one-sided level of each end of the sequence (the claim's confidence). */
      level: number
      method: string
    }
  /**
   * A per-case claim over a dataset (`per: 'case'`): how many cases were shown to satisfy it, which
   * were shown to violate it (Holm across the cases, each side at `level`), and what stopped it.
   */
  | {
      reason: 'per-case'
      cases: number
      satisfying: number
      /** The ids of the cases shown to violate the claim, in the dataset's order. */
      violating: string[]
      bound: number
      level: number
      method: string
      why: 'decided' | 'budget' | 'deadline' | 'max-rollouts'
    }
  /** The sequential test had not decided when the rollouts, the budget or the test's time ran out. */
  | {
      reason: 'undecided'
      low: number
      high: number
      bound: number
      level: number
      method: string
      why: 'budget' | 'deadline' | 'max-rollouts'
      rolloutsToDecide: number | null
      /** The rollouts the claim allowed (a dataset claim compares them with one round of its cases). */
      maxRollouts: number
      /** The observed rate, for the hint of how far it is from deciding. */
      observed: number
      completed: number
    }
  /** `never` saw the predicate, or `always` saw it fail: one occurrence refutes the claim. */
  | { reason: 'occurrence'; rollout: number | null; claim: ClaimKindOfGate<'zero-tolerance'> }
  /** No occurrence: what zero in n proves, as an exact one-sided bound on the rate. */
  | {
      reason: 'none-in-n'
      claim: ClaimKindOfGate<'zero-tolerance'>
      n: number
      /** The bound on the rate: at most `value` (`never`), at least `value` (`always`). */
      value: number
      level: number
      method: Verdict['observed']['method']
      /** What ended the run before its `rollouts`, if anything: the budget, or the test's timeout. */
      cutShort: 'budget' | 'deadline' | null
    }
  /** A `never` / `always` run that neither saw an occurrence nor proved a bound. */
  | { reason: 'nothing-concluded' }
  /** The score gate's betting test decided: `end` of its confidence sequence for the mean cleared the threshold. */
  | {
      reason: 'score-decided'
      end: 'upper' | 'lower'
      /** The decisive end, in the scorer's units. */
      value: number
      relation: '≤' | '<' | '≥' | '>'
      threshold: number
      level: number
      method: string
    }
  /** The score gate's test had not decided when the rollouts, the budget or the test's time ran out. */
  | {
      reason: 'score-undecided'
      low: number
      high: number
      threshold: number
      level: number
      method: string
      why: 'budget' | 'deadline' | 'max-rollouts'
    }
  /** Where a baseline claim stands against its stored rate. */
  | { reason: 'baseline'; comparison: BaselineComparison; regressed: boolean }
  /**
   * Where an A/B comparison stands: `no-worse` (the worse end of the difference is inside the
   * margin), `worse` (the better end is beyond it), `undecided` (the bounds straddle it when the
   * rollouts, the budget or the test's time ran out).
   */
  | {
      reason: 'comparison'
      comparison: AgentComparison
      difference: NonNullable<AgentComparison['difference']>
      finding: 'no-worse' | 'worse' | 'undecided'
      /** The one-sided level of each end of the difference (the claim's confidence). */
      level: number
      why: Exclude<Verdict['stop'], 'error' | 'occurrence' | 'completed'>
    }

/** The explanation of `verdict` (see {@link Explanation}). */
export function explainVerdict(verdict: Verdict): Explanation {
  if (verdict.stop === 'error') {
    return { reason: 'error-outcome', rollout: verdict.replay?.rollout ?? null }
  }
  switch (verdict.gate) {
    case 'sequential': {
      const decision = verdict.decision
      if (decision === null) return { reason: 'no-completed-rollout' }
      const { interval, method } = decision
      const level = oneSidedConfidence(interval.confidence)
      const dataset = verdict.dataset
      if (dataset?.per === 'case') {
        return {
          reason: 'per-case',
          cases: dataset.cases,
          satisfying: dataset.table.filter((row) => row.decision === 'satisfies').length,
          violating: dataset.table.filter((row) => row.decision === 'violates').map((row) => row.id),
          bound: verdict.bound,
          level,
          method,
          why:
            verdict.stop === 'budget' || verdict.stop === 'deadline'
              ? verdict.stop
              : verdict.stop === 'max-rollouts'
                ? 'max-rollouts'
                : 'decided',
        }
      }
      if (verdict.kind === 'inconclusive') {
        return {
          reason: 'undecided',
          low: interval.low,
          high: interval.high,
          bound: verdict.bound,
          level,
          method,
          why: verdict.stop === 'budget' || verdict.stop === 'deadline' ? verdict.stop : 'max-rollouts',
          rolloutsToDecide: verdict.rolloutsToDecide,
          maxRollouts: verdict.maxRollouts,
          observed: verdict.observed.point,
          completed: verdict.observed.n,
        }
      }
      // The decisive end is the one that cleared the bound: the upper one for a pass of "at most".
      const pass = verdict.kind === 'pass'
      const upper = (CLAIMS[verdict.claim].direction === 'atMost') === pass
      return {
        reason: 'decided',
        end: upper ? 'upper' : 'lower',
        value: upper ? interval.high : interval.low,
        relation: upper ? (pass ? '≤' : '<') : pass ? '≥' : '>',
        bound: verdict.bound,
        level,
        method,
      }
    }
    case 'zero-tolerance': {
      if (verdict.stop === 'occurrence') {
        return {
          reason: 'occurrence',
          rollout: verdict.replay?.rollout ?? null,
          claim: verdict.claim,
        }
      }
      const bound = verdict.oneSidedBound
      if (bound === null) return { reason: 'nothing-concluded' }
      return {
        reason: 'none-in-n',
        claim: verdict.claim,
        n: verdict.observed.n,
        value: CLAIMS[verdict.claim].direction === 'atMost' ? bound.high : bound.low,
        level: bound.confidence,
        method: bound.method,
        cutShort: verdict.stop === 'budget' || verdict.stop === 'deadline' ? verdict.stop : null,
      }
    }
    case 'baseline':
      return { reason: 'baseline', comparison: verdict.baseline, regressed: verdict.kind === 'fail' }
    case 'comparison': {
      const difference = verdict.comparison.difference
      if (difference === null) return { reason: 'no-completed-rollout' }
      return {
        reason: 'comparison',
        comparison: verdict.comparison,
        difference,
        finding: verdict.kind === 'pass' ? 'no-worse' : verdict.kind === 'fail' ? 'worse' : 'undecided',
        level: oneSidedConfidence(difference.confidence),
        why: verdict.stop,
      }
    }
    case 'score': {
      const { mean, threshold, method } = verdict.score
      if (mean === null) return { reason: 'no-completed-rollout' }
      const level = oneSidedConfidence(mean.confidence)
      if (verdict.kind === 'inconclusive') {
        return {
          reason: 'score-undecided',
          low: mean.low,
          high: mean.high,
          threshold,
          level,
          method,
          why: verdict.stop === 'budget' || verdict.stop === 'deadline' ? verdict.stop : 'max-rollouts',
        }
      }
      const pass = verdict.kind === 'pass'
      const upper = (CLAIMS[verdict.claim].direction === 'atMost') === pass
      return {
        reason: 'score-decided',
        end: upper ? 'upper' : 'lower',
        value: upper ? mean.high : mean.low,
        relation: upper ? (pass ? '≤' : '<') : pass ? '≥' : '>',
        threshold,
        level,
        method,
      }
    }
  }
}

/**
 * The one-sided level of each end of a two-sided interval: each end of a sequence at 1 − 2α bounds
 * the rate from its side at 1 − α, which is the level the claim is made at.
 */
export function oneSidedConfidence(twoSidedConfidence: number): number {
  return (1 + twoSidedConfidence) / 2
}
