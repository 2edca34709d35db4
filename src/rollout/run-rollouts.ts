import { toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import type { Scenario } from '../agent/types.js'
import { BudgetExceededError, RolloutAbortedError } from '../errors.js'
import { SAMPLE_EVERYTHING, type Plan } from './plan.js'
import type { Trajectory } from '../trajectory/schema.js'
import { createExecution, resolveRolloutOptions, type Execution, type RolloutOptions } from './options.js'
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
  const resolved = resolveRolloutOptions(options)
  const batch = { seed: resolved.seed, first: 0, rollouts: resolved.rollouts }
  return runPlanned(scenario, SAMPLE_EVERYTHING, createExecution(resolved), batch, 'count')
}

/** Which rollouts a batch runs: `first … first + rollouts − 1`, on the streams of `seed`. */
export interface RolloutBatch {
  seed: number
  first: number
  rollouts: number
}

/**
 * The engine of `runRollouts` and `replay`: the rollouts of `batch` of `scenario` under `plan`, in
 * `execution`. (A non-zero `first` lets sequential callers add batches.) Throws a
 * `BudgetExceededError` whose `partial` is the `RolloutSet` of the rollouts that finished when the
 * budget runs out, and a `RolloutAbortedError` when `signal` aborts.
 */
export async function runPlanned(
  scenario: Scenario<unknown, unknown>,
  plan: Plan,
  execution: Execution,
  batch: RolloutBatch,
  onDivergence: 'count' | 'error',
): Promise<RolloutSet> {
  const { trajectories, budgetSpent } = await runPlannedBatch(scenario, plan, execution, batch, onDivergence)
  const set = new RolloutSet(trajectories, batch.seed, plan.label)
  if (budgetSpent) {
    throw new BudgetExceededError(
      `The budget ran out after ${trajectories.length} of ${batch.rollouts} rollouts (${execution.budget.describe()}); the error's \`partial\` holds them.`,
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
  execution: Execution,
  { seed, first, rollouts }: RolloutBatch,
  onDivergence: 'count' | 'error',
): Promise<PlannedBatch> {
  const pool = new RolloutPool({ execution, scenario, onDivergence })
  let completed = 0
  let errors = 0
  const tasks = Array.from({ length: rollouts }, (_, offset) => ({ seed, rollout: first + offset, plan }))
  const { ended, finished } = await pool.run(tasks, {
    finished: (_task, trajectory) => {
      completed++
      if (trajectory.error !== undefined) errors++
      execution.onProgress?.({ completed, total: rollouts, errors })
      return trajectory
    },
  })
  if (ended === 'cancelled') {
    throw new RolloutAbortedError(`The rollouts were cancelled after ${finished.length} of ${rollouts}.`)
  }
  return { trajectories: finished, budgetSpent: ended === 'budget' }
}
