import type { Scenario } from '../agent/types.js'
import { contrastive, shapley } from '../attribute/index.js'
import type { ContrastiveResult, ShapleyResult } from '../attribute/schema.js'
import { deriveSeed } from '../random/streams.js'
import type { ResolvedCommon } from './options.js'
import type { GateRun } from './gate.js'

/** The attribution of a failing rollout (either part null when not run). */
export interface Diagnosis {
  contrastive: ContrastiveResult | null
  shapley: ShapleyResult | null
}

/** No attribution. */
export const NO_DIAGNOSIS: Diagnosis = { contrastive: null, shapley: null }

/**
 * Explains a failed (or inconclusive) gate: attribution of its first failing rollout by index,
 * scored by the gate's own predicate, spending from the gate's budget and stopped by its signal.
 * Runs only when there is a completed failing run to explain; an error outcome is shown as such,
 * not attributed. The attribution seed is derived from the gate's seed and the rollout, so the
 * whole message is reproducible. A spent budget truncates the attribution (it reports the work
 * done, and a locus only when it is already established).
 */
export async function diagnose(
  scenario: Scenario<unknown, unknown>,
  run: GateRun,
  options: ResolvedCommon,
  signal: AbortSignal | undefined,
): Promise<Diagnosis> {
  const failing = run.failing
  if (
    options.attribute === false ||
    run.verdict.kind === 'pass' ||
    failing === null ||
    failing.error !== undefined
  ) {
    return NO_DIAGNOSIS
  }
  if (options.budget.remainingRollouts <= 0) return NO_DIAGNOSIS
  const { method, rollouts } = options.attribute
  const seed = deriveSeed(options.seed, `attribution/${failing.rollout}`)
  const shared = {
    isBad: run.isBad,
    confidence: options.confidence,
    seed,
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    maxSteps: options.maxSteps,
    budget: options.budget,
    signal,
  }
  const contrastiveResult =
    method === 'shapley'
      ? null
      : await contrastive(scenario, failing, { ...shared, rollouts, crn: true, sequential: true })
  // Shapley keeps its own sample sizes (exact enumeration sizes each coalition to bound every
  // value's half-width by ±0.05); `budget` caps it, and a spent budget truncates it cleanly.
  const shapleyResult =
    method === 'contrastive' ? null : await shapley(scenario, failing, { ...shared, method: 'auto' })
  return { contrastive: contrastiveResult, shapley: shapleyResult }
}
