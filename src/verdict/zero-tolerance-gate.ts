import { isDatasetScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { clopperPearson } from '../stats/clopper-pearson.js'
import type { Interval } from '../stats/estimate.js'
import { refuseOverDataset } from './dataset-gate.js'
import { DatasetTally, type CaseDecision } from './dataset-tally.js'
import { furtherFailing } from './per-case-gate.js'
import { refusePerCaseOnOneInput } from './per-case-refusal.js'
import type { GateRun, GateSubject } from './gate.js'
import type { ResolvedZeroTolerance } from './options.js'
import { refuseJudgeCorrection } from './judge-correction.js'
import { passKReport } from './pass-k-report.js'
import { failingRun, OutcomeTally, sampleInOrder, tallyFields, type SamplingEnd } from './sampling.js'
import type { ZeroToleranceVerdict } from './schema.js'

/**
 * The gate of `toNever` (`direction: 'atMost'`: the predicate must hold in no rollout) and
 * `toAlways` (`'atLeast'`: in every rollout). It runs `rollouts` rollouts, `concurrency` at
 * a time, and stops at the first occurrence (by rollout index), which fails it. A pass reports
 * what zero occurrences in N prove: the exact one-sided Clopper–Pearson bound 1 − α^(1/N) on the
 * rate (≈ 3/N, the rule of three: 3.0% at N = 100, 95%).
 */
export async function runZeroToleranceGate(
  scenario: Scenario<unknown, unknown>,
  subject: GateSubject,
  options: ResolvedZeroTolerance<ZeroToleranceVerdict['claim']>,
): Promise<GateRun<ZeroToleranceVerdict>> {
  refuseJudgeCorrection(
    subject.predicate,
    options.direction === 'atMost' ? 'toNever' : 'toAlways',
    `An imperfect judge makes "${options.direction === 'atMost' ? 'never' : 'always'}" unprovable: it errs on some runs of a perfect agent. Use ${options.direction === 'atMost' ? 'toRarely' : 'toUsually'}(judge, bound) for a judge-corrected rate.`,
  )
  const predicateIsBad = options.direction === 'atMost'
  // Over a dataset the same rule decides the mean over cases: zero occurrences in n runs drawn in
  // rounds have probability at most (1 − p̄)ⁿ (Maclaurin's inequality within a round, the AM–GM
  // inequality across whole rounds), so the bound below holds for p̄.
  const dataset = isDatasetScenario(scenario) ? scenario.dataset : undefined
  refusePerCaseOnOneInput(scenario, options.per)
  if (isDatasetScenario(scenario)) refuseOverDataset(scenario, subject, options)
  // Every case on its own (`per: 'case'`): one occurrence still refutes the claim for its case, with
  // certainty, so no correction is needed to name it; the run goes on to the end of its round so
  // that every case has had the same runs, and names every case that showed one.
  const perCase = dataset !== undefined && options.per === 'case'
  const tally =
    dataset === undefined
      ? new OutcomeTally(subject.predicate, predicateIsBad, subject.label)
      : new DatasetTally(dataset, subject.predicate, predicateIsBad, subject.label)
  // One rollout at a time in index order, so the first occurrence is the same at any concurrency.
  const sampling = await sampleInOrder(
    scenario,
    options,
    options.rollouts,
    tally,
    () => tally.bad > 0 && (!perCase || tally.rollouts % (dataset?.cases.length ?? 1) === 0),
  )
  const stop = STOPS[sampling.end]

  const kind: ZeroToleranceVerdict['kind'] =
    stop === 'error' || stop === 'occurrence'
      ? 'fail'
      : stop === 'budget' || stop === 'deadline' || tally.n === 0
        ? 'inconclusive'
        : 'pass'
  const failing = failingRun(tally, kind, stop)
  // Two-sided at 1 − 2α, so its upper end (for toNever; its lower end for toAlways) is the
  // one-sided bound the pass line states: one number with one meaning.
  const observed = clopperPearson(tally.successes, tally.n, 1 - 2 * (1 - options.confidence))
  // pass^k of a mixture of cases is not the pooled rate's k-th power: none is printed over a dataset.
  const passK = dataset === undefined ? passKReport(observed, predicateIsBad, options.passK) : undefined
  const verdict: ZeroToleranceVerdict = {
    gate: 'zero-tolerance',
    claim: options.claim,
    kind,
    ...tallyFields(subject, options, tally, sampling),
    observed,
    ...(passK === undefined ? {} : { passK }),
    replay: failing === null ? null : { seed: options.seed, rollout: failing.rollout },
    rollouts: options.rollouts,
    oneSidedBound:
      kind === 'pass' || stop === 'budget' || stop === 'deadline'
        ? perCase && tally instanceof DatasetTally
          ? perCaseBound(tally, options)
          : oneSidedBound(tally, options)
        : null,
    stop,
    ...(tally instanceof DatasetTally
      ? { dataset: tally.report(options.confidence, perCase ? caseDecisions(tally, kind) : undefined) }
      : {}),
  }
  // A per-case failure attributes every case that showed an occurrence, after the first one.
  const further =
    perCase && kind === 'fail' && stop !== 'error' && tally instanceof DatasetTally
      ? furtherFailing(
          tally.dataset.cases.map(({ id }) => id).filter((id) => (tally.countOf(id)?.failures ?? 0) > 0),
          tally,
          failing,
        )
      : undefined
  return {
    verdict,
    failing,
    ...(further === undefined ? {} : { furtherFailing: further }),
    isBad: (trajectory) => tally.isBad(trajectory),
  }
}

/** How the sampling loop's end reads in a zero-tolerance verdict. */
const STOPS: Record<SamplingEnd, ZeroToleranceVerdict['stop']> = {
  exhausted: 'completed',
  stopped: 'occurrence',
  error: 'error',
  budget: 'budget',
  deadline: 'deadline',
}

/**
 * The exact one-sided bound zero occurrences in n give: [0, 1 − α^(1/n)] for `toNever`,
 * [α^(1/n), 1] for `toAlways` — the one-sided end of a two-sided Clopper–Pearson interval at
 * 1 − 2α. Its `confidence` is the one-sided level.
 */
function oneSidedBound(tally: OutcomeTally, options: ResolvedZeroTolerance): Interval {
  const alpha = 1 - options.confidence
  const twoSided = clopperPearson(tally.successes, tally.n, 1 - 2 * alpha)
  return options.direction === 'atMost'
    ? {
        point: twoSided.point,
        low: 0,
        high: twoSided.high,
        confidence: options.confidence,
        method: 'clopper-pearson',
      }
    : {
        point: twoSided.point,
        low: twoSided.low,
        high: 1,
        confidence: options.confidence,
        method: 'clopper-pearson',
      }
}

/**
 * On a per-case claim, each case's standing: a case with an occurrence violates it; when the gate
 * passed (no occurrence in any case), every case satisfies it as a claim about one input does;
 * otherwise the rest are undecided.
 */
function caseDecisions(tally: DatasetTally, kind: ZeroToleranceVerdict['kind']): Map<string, CaseDecision> {
  return new Map(
    tally.dataset.cases.map(({ id }): [string, CaseDecision] => {
      const failures = tally.countOf(id)?.failures ?? 0
      return [id, failures > 0 ? 'violates' : kind === 'pass' ? 'satisfies' : 'undecided']
    }),
  )
}

/**
 * What zero occurrences prove of every case at once: the exact one-sided bound of the case with
 * the fewest completed runs, at 1 − α / N (Bonferroni across the N cases), so that all the cases'
 * bounds hold together at the claim's confidence.
 */
function perCaseBound(tally: DatasetTally, options: ResolvedZeroTolerance): Interval {
  const cases = tally.dataset.cases
  const fewest = Math.min(
    ...cases.map(({ id }) => {
      const count = tally.countOf(id)
      return count === undefined ? 0 : count.runs - count.errors
    }),
  )
  const alpha = (1 - options.confidence) / cases.length
  const high = fewest === 0 ? 1 : 1 - alpha ** (1 / fewest)
  return options.direction === 'atMost'
    ? { point: 0, low: 0, high, confidence: options.confidence, method: 'clopper-pearson' }
    : { point: 1, low: 1 - high, high: 1, confidence: options.confidence, method: 'clopper-pearson' }
}
