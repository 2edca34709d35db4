import type { Scenario } from '../agent/types.js'
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
import type { GateRun, GateSubject } from './gate.js'
import type { ResolvedBaseline } from './options.js'
import { passKReport } from './pass-k-report.js'
import { refuseJudgeCorrection } from './judge-correction.js'
import { failingRun, OutcomeTally, sampleInOrder, tallyFields } from './sampling.js'
import type { BaselineComparison, BaselineVerdict } from './schema.js'

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
  const tally = new OutcomeTally(subject.predicate, predicateIsBad, subject.label)
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
    const compared =
      previous.outcomes !== undefined && previous.seed === options.seed
        ? comparePairedWithBaseline(tally.outcomes, previous.outcomes, options)
        : { ...compareWithBaseline(tally, previous, options), pairs: null }
    difference = compared.difference
    pairs = compared.pairs
    finding = reproduces(previous, entry) ? 'reproduced' : compared.finding
    kind = finding === 'reproduced' || finding === 'within' ? 'pass' : 'fail'
  }

  const failing = failingRun(tally, kind, stop)
  const passK = passKReport(observed, options.better === 'lower', options.passK)
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
    },
    stop,
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
