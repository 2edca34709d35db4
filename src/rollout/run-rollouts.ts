import { toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { BudgetExceededError, RolloutAbortedError } from '../errors.js'
import { SAMPLE_EVERYTHING, type Plan } from './plan.js'
import type { Trajectory } from '../trajectory/schema.js'
import { resolveRolloutOptions, type ResolvedRolloutOptions, type RolloutOptions } from './options.js'
import { RolloutPool } from './rollout-pool.js'
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
 * Throws a `BudgetExceededError` whose `partial` is the `RolloutSet` of the rollouts that finished
 * when the budget runs out, and a `RolloutAbortedError` when `signal` aborts.
 */
export async function runPlanned(
  scenario: Scenario<unknown, unknown>,
  plan: Plan,
  options: ResolvedRolloutOptions,
  onDivergence: 'count' | 'error',
  firstRollout: number,
): Promise<RolloutSet> {
  const { trajectories, budgetSpent } = await runPlannedBatch(
    scenario,
    plan,
    options,
    onDivergence,
    firstRollout,
  )
  const set = new RolloutSet(trajectories, options.seed, plan.label)
  if (budgetSpent) {
    throw new BudgetExceededError(
      `The budget ran out after ${trajectories.length} of ${options.rollouts} rollouts (${options.budget.describe()}); the error's \`partial\` holds them.`,
      set,
    )
  }
  return set
}

/** What a batch of rollouts gave. */
export interface PlannedBatch {
  /** The rollouts that finished, in rollout order (error outcomes included). */
  trajectories: readonly Trajectory[]
  /** True when the budget stopped the batch before every rollout finished. */
  budgetSpent: boolean
}

/**
 * {@link runPlanned} for callers that go on after a spent budget (the sampling gates): the budget
 * ends the batch with the rollouts that finished, as data. Throws a `RolloutAbortedError` when
 * `signal` aborts.
 */
export async function runPlannedBatch(
  scenario: Scenario<unknown, unknown>,
  plan: Plan,
  options: ResolvedRolloutOptions,
  onDivergence: 'count' | 'error',
  firstRollout: number,
): Promise<PlannedBatch> {
  const pool = new RolloutPool({ ...options, scenario, onDivergence })
  let completed = 0
  let errors = 0
  const tasks = Array.from({ length: options.rollouts }, (_, offset) => ({
    seed: options.seed,
    rollout: firstRollout + offset,
    plan,
  }))
  const { ended, finished } = await pool.run(tasks, {
    finished: (_task, trajectory) => {
      completed++
      if (trajectory.error !== undefined) errors++
      options.onProgress?.({ completed, total: options.rollouts, errors })
      return trajectory
    },
  })
  if (ended === 'cancelled') {
    throw new RolloutAbortedError(
      `The rollouts were cancelled after ${finished.length} of ${options.rollouts}.`,
    )
  }
  return { trajectories: finished, budgetSpent: ended === 'budget' }
}
