import { isDatasetScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { caseOfRollout } from '../dataset/case-order.js'
import type { Dataset } from '../dataset/schema.js'
import { clopperPearson } from '../stats/clopper-pearson.js'
import {
  comparePairedWithBaseline,
  compareWithBaseline,
  type BaselineFinding,
  type BaselinePairs,
} from './baseline-comparison.js'
import {
  readBaselines,
  storedEntry,
  writeBaseline,
  type BaselineEntry,
  type UpdateState,
} from './baseline-file.js'
import { compareCasesWithBaseline, type CaseBaselineResult, type CurrentCase } from './baseline-cases.js'
import { refuseOverDataset } from './dataset-gate.js'
import { DatasetTally } from './dataset-tally.js'
import type { GateRun, GateSubject } from './gate.js'
import type { ResolvedBaseline } from './options.js'
import { passKReport } from './pass-k-report.js'
import { refuseJudgeCorrection } from './judge-correction.js'
import { failingRun, OutcomeTally, sampleInOrder, tallyFields } from './sampling.js'
import type { BaselineComparison, BaselineVerdict, DatasetReport } from './schema.js'

/** Where the baseline lives and how the run may change it. */
export interface BaselineTarget {
  /** The baseline file (absolute). */
  file: string
  /** How messages and verdicts show it (relative to the project root). */
  displayFile: string
  /** The entry's key. */
  key: string
  updateState: UpdateState
}

/**
 * The regression gate of `toMatchRateBaseline`: measures the predicate's rate over a fixed sample
 * of `rollouts` and compares it with the stored one. It passes when the new rate is shown to be no
 * worse than the stored one by `tolerance` or more (a one-sided test at the gate's confidence; see
 * {@link compareWithBaseline}), or when the run reproduces the stored one exactly: the stored seed
 * and the same outcome in every rollout (an entry stored without its outcomes: the same count of n).
 * Anything else fails, a shown regression and one that cannot be ruled out alike.
 *
 * A missing entry is written (update state `new`) or fails with instructions (`none`); `all`
 * rewrites it. A corrupted file throws and is left unchanged, whatever the state.
 */
export async function runBaselineGate(
  scenario: Scenario<unknown, unknown>,
  subject: GateSubject,
  options: ResolvedBaseline,
  target: BaselineTarget,
): Promise<GateRun<BaselineVerdict>> {
  refuseJudgeCorrection(
    subject.predicate,
    'toMatchRateBaseline',
    'A stored baseline compares apparent rates; pass the judge without a calibration (a drift of its apparent rate is a drift of the true rate or of the judge), or use toRarely / toUsually for a judge-corrected rate.',
  )
  // Read first: a corrupted file fails before any rollout is spent (and is never replaced).
  const previous = storedEntry(await readBaselines(target.file), target.key)

  const predicateIsBad = options.better === 'lower'
  const dataset = isDatasetScenario(scenario) ? scenario.dataset : undefined
  if (isDatasetScenario(scenario)) refuseOverDataset(scenario, subject, options)
  const tally =
    dataset === undefined
      ? new OutcomeTally(subject.predicate, predicateIsBad, subject.label)
      : new DatasetTally(dataset, subject.predicate, predicateIsBad, subject.label)
  const sampling = await sampleInOrder(scenario, options, options.rollouts, tally, () => false)
  // A fixed sample: it only ends early on an error outcome, a spent budget or the test's deadline.
  const stop: BaselineVerdict['stop'] =
    sampling.end === 'error' || sampling.end === 'budget' || sampling.end === 'deadline'
      ? sampling.end
      : 'completed'

  const observed = clopperPearson(tally.successes, tally.n, options.confidence)
  const entry: BaselineEntry = {
    rate: tally.n === 0 ? 0 : tally.successes / tally.n,
    successes: tally.successes,
    n: Math.max(tally.n, 1),
    seed: options.seed,
    agent: subject.agent,
    predicate: subject.label,
    better: options.better,
    outcomes: tally.outcomes.join(''),
    ...(tally instanceof DatasetTally ? { dataset: storedCases(tally) } : {}),
  }
  const measured = stop === 'completed' && tally.n > 0

  // An entry of the same key recorded for another agent or predicate is someone else's baseline:
  // comparing with it would be silently wrong, so it fails unless `-u` rewrites it.
  const mismatched =
    previous !== null && (previous.agent !== subject.agent || previous.predicate !== subject.label)

  let status: BaselineComparison['status']
  let difference: BaselineComparison['difference'] = null
  let finding: BaselineFinding | null = null
  let pairs: BaselinePairs | null = null
  let cases: CaseBaselineResult | undefined
  let kind: BaselineVerdict['kind']
  if (mismatched && target.updateState !== 'all') {
    status = 'mismatch'
    kind = 'fail'
  } else if (!measured) {
    status = previous === null ? 'missing' : 'compared'
    kind = stop === 'error' ? 'fail' : 'inconclusive'
  } else if (target.updateState === 'all') {
    await writeBaseline(target.file, target.key, entry)
    status = previous === null ? 'created' : 'updated'
    kind = 'pass'
  } else if (previous === null) {
    if (target.updateState === 'new') {
      await writeBaseline(target.file, target.key, entry)
      status = 'created'
      kind = 'pass'
    } else {
      status = 'missing'
      kind = 'fail'
    }
  } else {
    status = 'compared'
    // On the stored seed the two runs share every rollout's numbers: compare them pair by pair. An
    // entry from an earlier version has no outcomes to pair with; a run on another seed is
    // independent of the stored one.
    // Over a dataset whose cases changed since the entry was stored, rollout r no longer runs the
    // same case: the population is compared on the cases both have, as independent samples.
    const changed =
      tally instanceof DatasetTally && previous.dataset !== undefined && !sameCases(tally.dataset, previous)
    const compared =
      changed && tally instanceof DatasetTally && previous.dataset !== undefined
        ? {
            ...compareWithBaseline(...commonCounts(tally, previous.dataset.cases, predicateIsBad), options),
            pairs: null,
          }
        : previous.outcomes !== undefined && previous.seed === options.seed
          ? comparePairedWithBaseline(tally.outcomes, previous.outcomes, options)
          : { ...compareWithBaseline(tally, previous, options), pairs: null }
    difference = compared.difference
    pairs = compared.pairs
    finding = reproduces(previous, entry) ? 'reproduced' : compared.finding
    if (tally instanceof DatasetTally && previous.dataset !== undefined) {
      cases = compareCasesWithBaseline(
        currentCases(tally, previous, options.seed, predicateIsBad, changed),
        previous.dataset.cases,
        options,
      )
    }
    kind =
      (finding === 'reproduced' || finding === 'within') &&
      (cases === undefined || cases.regressed.length === 0)
        ? 'pass'
        : 'fail'
  }

  // Over a dataset, a regressed case's first failing run (the most clearly regressed case first).
  const regressedCase = cases?.regressed[0]
  const failing =
    regressedCase !== undefined && tally instanceof DatasetTally && stop !== 'error'
      ? (tally.countOf(regressedCase)?.firstFailure ?? failingRun(tally, kind, stop))
      : tally instanceof DatasetTally && kind !== 'pass' && stop !== 'error'
        ? (tally.worstCase()?.firstFailure ?? failingRun(tally, kind, stop))
        : failingRun(tally, kind, stop)
  // Over a dataset pass^k is left out, as the dataset gate leaves it: a mixture of cases' pass^k is
  // not the pooled rate's power.
  const passK =
    dataset === undefined ? passKReport(observed, options.better === 'lower', options.passK) : undefined
  const verdict: BaselineVerdict = {
    gate: 'baseline',
    claim: 'baseline',
    kind,
    ...tallyFields(subject, options, tally, sampling),
    observed,
    ...(passK === undefined ? {} : { passK }),
    // Only a regression has a failing run worth explaining; a missing or mismatched baseline has none.
    replay:
      failing === null || status === 'missing' || status === 'mismatch'
        ? null
        : { seed: options.seed, rollout: failing.rollout },
    rollouts: options.rollouts,
    baseline: {
      file: target.displayFile,
      key: target.key,
      status,
      stored: previous === null ? null : clopperPearson(previous.successes, previous.n, options.confidence),
      storedSeed: previous?.seed ?? null,
      storedFor: previous === null ? null : { agent: previous.agent, predicate: previous.predicate },
      difference,
      pairs,
      finding,
      tolerance: options.tolerance,
      better: options.better,
      ...(cases === undefined
        ? {}
        : {
            cases: {
              compared: cases.compared,
              regressed: [...cases.regressed],
              added: [...cases.added],
              removed: [...cases.removed],
              method: cases.method,
            },
          }),
    },
    stop,
    ...(tally instanceof DatasetTally
      ? { dataset: datasetReport(tally, options.confidence, previous, regressedCase) }
      : {}),
  }
  return {
    verdict,
    failing: verdict.replay === null ? null : failing,
    isBad: (trajectory) => tally.isBad(trajectory),
  }
}

/**
 * Whether a new measurement is the stored run itself: the stored seed and the same outcome in every
 * rollout. An unchanged agent whose randomness all flows through its steps' streams reproduces its
 * stored run exactly, so it passes whatever the tolerance (a statistical comparison could not show
 * "no worse by 0"). For an agent with randomness of its own the chance of matching every one of n
 * outcomes is negligible; an entry stored without outcomes falls back to matching the count.
 */
function reproduces(stored: BaselineEntry, current: BaselineEntry): boolean {
  if (stored.seed !== current.seed || stored.n !== current.n) return false
  return stored.outcomes === undefined
    ? stored.successes === current.successes
    : stored.outcomes === current.outcomes
}

/** The entry's per-case counts of a dataset run, in the dataset's order. */
function storedCases(tally: DatasetTally): NonNullable<BaselineEntry['dataset']> {
  return {
    name: tally.dataset.name,
    cases: tally.dataset.cases.map(({ id }) => {
      const count = tally.countOf(id)
      return { id, runs: count?.runs ?? 0, failures: count?.failures ?? 0 }
    }),
  }
}

/** Whether the stored entry was measured over the same cases, in the same order. */
function sameCases(dataset: Dataset<unknown>, stored: BaselineEntry): boolean {
  const storedCases = stored.dataset?.cases ?? []
  return (
    storedCases.length === dataset.cases.length &&
    storedCases.every((entry, i) => entry.id === dataset.cases[i]?.id)
  )
}

/**
 * The new and stored predicate counts over the cases both have, for a population comparison after
 * cases were added or removed. The stored counts are of failures; the predicate's are recovered.
 */
function commonCounts(
  tally: DatasetTally,
  stored: NonNullable<BaselineEntry['dataset']>['cases'],
  predicateIsBad: boolean,
): [{ successes: number; n: number }, { successes: number; n: number }] {
  let now = { successes: 0, n: 0 }
  let then = { successes: 0, n: 0 }
  for (const entry of stored) {
    const count = tally.countOf(entry.id)
    if (count === undefined) continue
    const completed = count.runs - count.errors
    now = {
      successes: now.successes + (predicateIsBad ? count.failures : completed - count.failures),
      n: now.n + completed,
    }
    then = {
      successes: then.successes + (predicateIsBad ? entry.failures : entry.runs - entry.failures),
      n: then.n + entry.runs,
    }
  }
  return [now, { successes: then.successes, n: Math.max(then.n, 1) }]
}

/**
 * The new run's cases for the per-case comparison: each with its runs and failures, and, when the
 * run reuses the stored seed over the same cases with the stored outcomes at hand, its outcomes
 * paired rollout by rollout with the stored ones (as bad `1` / not `0`).
 */
function currentCases(
  tally: DatasetTally,
  previous: BaselineEntry,
  seed: number,
  predicateIsBad: boolean,
  changed: boolean,
): CurrentCase[] {
  const canPair = !changed && previous.outcomes !== undefined && previous.seed === seed
  const paired = new Map<string, { current: string; stored: string }>()
  if (canPair) {
    const stored = previous.outcomes as string
    const bad = (outcome: string | undefined) =>
      outcome === '-' || outcome === undefined ? '-' : (outcome === '1') === predicateIsBad ? '1' : '0'
    tally.outcomes.forEach((outcome, rollout) => {
      const { id } = caseOfRollout(tally.dataset, seed, rollout)
      const entry = paired.get(id) ?? { current: '', stored: '' }
      paired.set(id, { current: entry.current + bad(outcome), stored: entry.stored + bad(stored[rollout]) })
    })
  }
  return tally.dataset.cases.map(({ id }) => {
    const count = tally.countOf(id)
    const pairs = paired.get(id)
    return {
      id,
      runs: (count?.runs ?? 0) - (count?.errors ?? 0),
      failures: count?.failures ?? 0,
      ...(pairs === undefined ? {} : { paired: pairs }),
    }
  })
}

/** The verdict's per-case table, each case with its stored counts (null: added since the baseline). */
function datasetReport(
  tally: DatasetTally,
  confidence: number,
  previous: BaselineEntry | null,
  regressedCase: string | undefined,
): DatasetReport {
  const report = tally.report(confidence)
  const stored = new Map((previous?.dataset?.cases ?? []).map((entry) => [entry.id, entry]))
  return {
    ...report,
    worst: regressedCase ?? report.worst,
    table: report.table.map((row) => {
      if (previous?.dataset === undefined) return row
      const entry = stored.get(row.id)
      return { ...row, stored: entry === undefined ? null : { runs: entry.runs, failures: entry.failures } }
    }),
  }
}
