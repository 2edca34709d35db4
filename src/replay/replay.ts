import { toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import { BudgetExceededError, InvalidOptionError, RolloutAbortedError } from '../errors.js'
import { deriveSeed } from '../random/streams.js'
import { executeRollout } from '../rollout/execute.js'
import { resolveRolloutOptions, type RolloutOptions } from '../rollout/options.js'
import type { RolloutSet } from '../rollout/rollout-set.js'
import { runPlanned } from '../rollout/run-rollouts.js'
import type { Trajectory } from '../trajectory/schema.js'
import { describeIntervention, type Intervention } from './interventions.js'
import { SAMPLE_EVERYTHING } from '../rollout/plan.js'
import { planFor, type ToolMode } from './plan.js'

/** Options of `record`. */
export interface RecordOptions extends Pick<RolloutOptions, 'timeoutMs' | 'maxSteps' | 'budget' | 'signal'> {
  /** The run seed. */
  seed: number
  /** Default 0. The rollout index: `record(s, { seed, rollout: r })` is rollout r of `runRollouts(s, { seed })`. */
  rollout?: number
}

/**
 * Records one rollout: the same trajectory that rollout `rollout` of `runRollouts` with `seed`
 * produced, so the `{ seed, rollout }` printed with a failure brings the failing run back.
 */
export async function record(target: AgentOrScenario, options: RecordOptions): Promise<Trajectory> {
  const scenario = toScenario(target, 'record')
  const resolved = resolveRolloutOptions({ ...options, rollouts: 1 })
  const rollout = options.rollout ?? 0
  if (!Number.isInteger(rollout) || rollout < 0) {
    throw new InvalidOptionError(`record: \`rollout\` must be a non-negative integer, got ${rollout}.`)
  }
  if (!resolved.budget.tryChargeRollouts(1)) {
    throw new BudgetExceededError(
      `record: the budget has no rollout left (${resolved.budget.describe()}).`,
      undefined,
    )
  }
  const { trajectory, stoppedByBudget } = await executeRollout(scenario, {
    seed: resolved.seed,
    rollout,
    plan: SAMPLE_EVERYTHING,
    timeoutMs: resolved.timeoutMs,
    maxSteps: resolved.maxSteps,
    budget: resolved.budget,
    signal: resolved.signal,
    onDivergence: 'count',
  })
  // A run cut short by the budget or a cancellation is not the rollout asked for: say so, as
  // runRollouts does, instead of returning a trajectory that merely looks shorter.
  if (stoppedByBudget) {
    throw new BudgetExceededError(
      `record: the cost budget ran out during the rollout (${resolved.budget.describe()}); the error's \`partial\` holds the steps so far.`,
      trajectory,
    )
  }
  if (resolved.signal?.aborted) throw new RolloutAbortedError('record: the rollout was cancelled.')
  return trajectory
}

/** Options of `replay`. */
export interface ReplayOptions extends RolloutOptions {
  /**
   * Default `'live'`. Tool calls of held steps run live, or (`'recorded'`) are answered from the
   * recording, so replay costs no tool calls and cannot differ through a flaky tool.
   */
  tools?: ToolMode
  /** Default `'count'`. A held step that diverges is counted (see `actionMatchRate`), or (`'error'`) ends its rollout. */
  onDivergence?: 'count' | 'error'
  /** Default 0. Index of the first rollout (sequential callers add batches with it). */
  firstRollout?: number
}

/**
 * Replays `factual` under `intervention`, `rollouts` times (default 32): P(outcome | do). Each
 * rollout re-runs the agent from the start on the recorded input; held steps return the recorded
 * action (checked against its name and context digest), the others draw from their own stream
 * (seed, rollout, step), so two replays with the same seed share random numbers step by step.
 *
 * The default seed is derived from the recording's, so it differs from the factual run's streams.
 */
export async function replay(
  target: AgentOrScenario,
  factual: Trajectory,
  intervention: Intervention,
  options: ReplayOptions = {},
): Promise<RolloutSet> {
  const agent = toScenario(target, 'replay').agent
  const scenario = agent.on(factual.input)
  const seed = options.seed ?? deriveSeed(factual.seed, `replay/${factual.rollout}`)
  const resolved = resolveRolloutOptions({ ...options, seed }, 32)
  const named =
    intervention.kind === 'hold'
      ? intervention.steps === 'all'
        ? []
        : intervention.steps
      : [intervention.step]
  const outside = named.find((step) => step >= factual.steps.length)
  if (outside !== undefined) {
    throw new InvalidOptionError(
      `replay: ${describeIntervention(intervention)} names step ${outside}, but the recording has ${factual.steps.length} steps (0–${factual.steps.length - 1}).`,
    )
  }
  const plan = planFor(factual, intervention, options.tools ?? 'live')
  return runPlanned(scenario, plan, resolved, options.onDivergence ?? 'count', options.firstRollout ?? 0)
}
