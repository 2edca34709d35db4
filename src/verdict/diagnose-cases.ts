import type { Scenario } from '../agent/types.js'
import type { Trajectory } from '../trajectory/schema.js'
import { diagnose } from './diagnose.js'
import type { Diagnosis } from './diagnosis.js'
import type { GateRun } from './gate.js'
import type { ResolvedCommon } from './options.js'
import { rolloutTimeout } from './sampling.js'
import type { DatasetReport } from './schema.js'

/** One entry of a per-case failure's attributions. */
export type CaseAttribution = NonNullable<DatasetReport['attributions']>[number]

/**
 * Attributes the first failing run of every further case a per-case claim showed to violate it,
 * in the gate's order (worst first), after `diagnose` explained the verdict's own. Each spends from
 * the claim's budget like the first: once the budget (or the test's time) is spent, the cases left
 * are listed as not attributed rather than dropped, so that the message can name them. Returns the
 * list with the verdict's own attribution first, or undefined when the claim is not a failing
 * per-case claim or attribution is off.
 */
export async function attributeViolatingCases(
  scenario: Scenario<unknown, unknown>,
  run: GateRun,
  options: ResolvedCommon,
  first: Diagnosis,
): Promise<CaseAttribution[] | undefined> {
  const { verdict, failing } = run
  if (
    verdict.dataset?.per !== 'case' ||
    verdict.kind !== 'fail' ||
    options.attribute === false ||
    failing === null ||
    failing.error !== undefined
  ) {
    return undefined
  }
  const entries = [entryOf(failing, first)]
  let spent = false
  for (const further of run.furtherFailing ?? []) {
    // Once one is refused for want of budget or time, every later one would be too.
    spent ||= options.execution.budget.remainingRollouts <= 0 || rolloutTimeout(options.execution) === null
    const diagnosis = spent ? null : await diagnose(scenario, { ...run, failing: further }, options)
    entries.push(entryOf(further, diagnosis))
  }
  return entries
}

/** A case's entry: attributed when an attribution ran to a result (a locus, or none found). */
function entryOf(failing: Trajectory, diagnosis: Diagnosis | null): CaseAttribution {
  const contrastive = diagnosis?.contrastive ?? null
  const attributed = contrastive !== null || (diagnosis?.shapley ?? null) !== null
  const locus = contrastive?.locus ?? null
  const step = locus === null ? undefined : failing.steps[locus]
  return {
    id: failing.case?.id ?? '',
    rollout: failing.rollout,
    attributed,
    locus: step === undefined ? null : { index: step.index, name: step.name },
  }
}

/** `run` with its verdict's dataset report carrying `attributions`, when there are any. */
export function withCaseAttributions(run: GateRun, attributions: CaseAttribution[] | undefined): GateRun {
  const { dataset } = run.verdict
  if (attributions === undefined || dataset === undefined) return run
  return { ...run, verdict: { ...run.verdict, dataset: { ...dataset, attributions } } }
}
