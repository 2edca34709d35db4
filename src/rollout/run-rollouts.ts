import { toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { BudgetExceededError, RolloutAbortedError } from '../errors.js'
import { accountOf } from './budget.js'
import { SAMPLE_EVERYTHING, type Plan } from './plan.js'
import type { Trajectory } from '../trajectory/schema.js'
import { executeRollout } from './execute.js'
import { resolveRolloutOptions, type ResolvedRolloutOptions, type RolloutOptions } from './options.js'
import { limitConcurrency } from './pool.js'
import { RolloutSet } from './rollout-set.js'

/**
 * Runs `rollouts` independent rollouts of an agent (on its default input) or a scenario. Rollout r
 * draws step j from stream (seed, r, j), so the result does not depend on `concurrency`.
 *
 * Throws a `BudgetExceededError` whose `partial` is the `RolloutSet` of the rollouts that finished
 * when the budget runs out, and a `RolloutAbortedError` when `signal` aborts.
 */
export async function runRollouts(
  target: AgentOrScenario,
  options: RolloutOptions = {},
): Promise<RolloutSet> {
  const scenario = toScenario(target, 'runRollouts')
  return runPlanned(scenario, SAMPLE_EVERYTHING, resolveRolloutOptions(options), 'count', 0)
}

/**
 * The engine of `runRollouts` and `replay`: rollouts `firstRollout … firstRollout + rollouts − 1`
 * of `scenario` under `plan`. (A non-zero `firstRollout` lets sequential callers add batches.)
 */
export async function runPlanned(
  scenario: Scenario<unknown, unknown>,
  plan: Plan,
  options: ResolvedRolloutOptions,
  onDivergence: 'count' | 'error',
  firstRollout: number,
): Promise<RolloutSet> {
  const { budget, signal } = options
  const account = accountOf(budget)
  const limit = limitConcurrency(options.concurrency)
  const results: Array<Trajectory | undefined> = new Array(options.rollouts)
  let completed = 0
  let errors = 0
  let budgetStop = false

  const runOne = async (offset: number): Promise<void> => {
    if (budgetStop || signal?.aborted) return
    // Charged before it starts, so the limit holds at any concurrency.
    if (!account.tryChargeRollouts(1)) {
      budgetStop = true
      return
    }
    const { trajectory, stoppedByBudget } = await executeRollout(scenario, {
      seed: options.seed,
      rollout: firstRollout + offset,
      plan,
      timeoutMs: options.timeoutMs,
      maxSteps: options.maxSteps,
      budget,
      signal,
      onDivergence,
    })
    if (stoppedByBudget) {
      budgetStop = true
      return
    }
    results[offset] = trajectory
    completed++
    if (trajectory.error !== undefined) errors++
    options.onProgress?.({ completed, total: options.rollouts, errors })
  }

  await Promise.all(Array.from({ length: options.rollouts }, (_, offset) => limit(() => runOne(offset))))

  const finished = results.filter((trajectory): trajectory is Trajectory => trajectory !== undefined)
  const set = new RolloutSet(finished, options.seed, plan.label)
  if (signal?.aborted) {
    throw new RolloutAbortedError(
      `The rollouts were cancelled after ${finished.length} of ${options.rollouts}.`,
    )
  }
  if (budgetStop) {
    throw new BudgetExceededError(
      `The budget ran out after ${finished.length} of ${options.rollouts} rollouts (${budget.describe()}); the error's \`partial\` holds them.`,
      set,
    )
  }
  return set
}
