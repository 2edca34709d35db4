import { z } from 'zod'
import { toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import { BudgetExceededError, InvalidOptionError, RolloutAbortedError } from '../errors.js'
import { DEFAULTS } from '../options/defaults.js'
import { NonNegativeIntegerField, oneOf, PositiveIntegerField, SeedField } from '../options/fields.js'
import { parseOptions, type StrictOptions } from '../options/parse-options.js'
import { rolloutLimitFields, signalField } from '../options/run-fields.js'
import { deriveSeed } from '../random/streams.js'
import { accountOf, type Budget } from '../rollout/budget.js'
import { createExecution, rolloutFields } from '../rollout/options.js'
import { RolloutPool } from '../rollout/rollout-pool.js'
import type { RolloutSet } from '../rollout/rollout-set.js'
import { runPlanned } from '../rollout/run-rollouts.js'
import type { Trajectory } from '../trajectory/schema.js'
import { describeIntervention, type Intervention } from './interventions.js'
import { SAMPLE_EVERYTHING } from '../rollout/plan.js'
import { planFor, ToolModeField } from './plan.js'

const recordOwnFields = {
  /** The run seed. */
  seed: SeedField,
  /** Default 0. The rollout index: `record(s, { seed, rollout: r })` is rollout r of `runRollouts(s, { seed })`. */
  rollout: NonNegativeIntegerField.default(DEFAULTS.recordRollout),
}
// Annotated with the fragments' types so that their doc comments reach the emitted `.d.ts`.
const recordFields: typeof recordOwnFields &
  typeof rolloutLimitFields &
  Pick<typeof rolloutFields, 'budget'> &
  typeof signalField = {
  ...recordOwnFields,
  ...rolloutLimitFields,
  budget: rolloutFields.budget,
  ...signalField,
}
const RecordOptionsSchema: StrictOptions<typeof recordFields> = z.strictObject(recordFields)

/** Options of `record`. */
export type RecordOptions = z.input<typeof RecordOptionsSchema>

/**
 * Records one rollout: the same trajectory that rollout `rollout` of `runRollouts` with `seed`
 * produced, so the `{ seed, rollout }` printed with a failure brings the failing run back.
 */
export async function record(target: AgentOrScenario, options: RecordOptions): Promise<Trajectory> {
  const scenario = toScenario(target, 'record')
  const resolved = parseOptions('record', RecordOptionsSchema, options)
  const { budget, signal } = resolved
  // The pool refuses a rollout whose signal has aborted without charging it; `record` charges its
  // rollout first, so that a spent budget is the error it reports, whatever the signal.
  if (signal?.aborted) {
    if (!accountOf(budget).tryChargeRollouts(1)) throw noRolloutLeft(budget)
    throw new RolloutAbortedError('record: the rollout was cancelled.')
  }
  // One rollout: it shares the process's calls to a model as a claim at the default concurrency.
  const execution = createExecution({ ...resolved, concurrency: DEFAULTS.concurrency })
  const pool = new RolloutPool({ execution, scenario, onDivergence: 'count' })
  let partial: Trajectory | undefined
  const task = { seed: resolved.seed, rollout: resolved.rollout, plan: SAMPLE_EVERYTHING }
  const { finished } = await pool.run([task], {
    finished: (_task, trajectory) => trajectory,
    stopped: (_task, trajectory) => (partial = trajectory),
  })
  if (pool.started === 0) throw noRolloutLeft(budget)
  // A run cut short by the budget or a cancellation is not the rollout asked for: say so, as
  // runRollouts does, instead of returning a trajectory that merely looks shorter.
  if (partial !== undefined) {
    throw new BudgetExceededError(
      `record: the cost budget ran out during the rollout (${budget.describe()}); the error's \`partial\` holds the steps so far.`,
      partial,
    )
  }
  if (signal?.aborted) throw new RolloutAbortedError('record: the rollout was cancelled.')
  return finished[0] as Trajectory
}

function noRolloutLeft(budget: Budget): BudgetExceededError {
  return new BudgetExceededError(`record: the budget has no rollout left (${budget.describe()}).`, undefined)
}

const replayCountField = {
  /** Default 32. How many rollouts to run. */
  rollouts: PositiveIntegerField.default(DEFAULTS.replayRollouts),
}
const replayOwnFields = {
  /**
   * Default `'live'`. Tool calls of held steps run live, or (`'recorded'`) are answered from the
   * recording, so replay costs no tool calls and cannot differ through a flaky tool.
   */
  tools: ToolModeField.default(DEFAULTS.tools),
  /** Default `'count'`. A held step that diverges is counted (see `actionMatchRate`), or (`'error'`) ends its rollout. */
  onDivergence: oneOf(['count', 'error']).default(DEFAULTS.onDivergence),
  /** Default 0. Index of the first rollout (sequential callers add batches with it). */
  firstRollout: NonNegativeIntegerField.default(DEFAULTS.firstRollout),
}
const replayFields: typeof replayCountField & typeof rolloutFields & typeof replayOwnFields = {
  ...replayCountField,
  ...rolloutFields,
  ...replayOwnFields,
}
const ReplayOptionsSchema: StrictOptions<typeof replayFields> = z.strictObject(replayFields)

/** Options of `replay`. */
export type ReplayOptions = z.input<typeof ReplayOptionsSchema>

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
  const parsed = parseOptions('replay', ReplayOptionsSchema, options)
  const seed = parsed.seed ?? deriveSeed(factual.seed, `replay/${factual.rollout}`)
  const named =
    intervention.kind === 'hold'
      ? intervention.steps === 'all'
        ? []
        : intervention.steps
      : [intervention.step]
  const outside = named.find((step) => step >= factual.steps.length)
  if (outside !== undefined) {
    const count = factual.steps.length
    throw new InvalidOptionError({
      caller: 'replay',
      option: 'intervention',
      expected:
        count === 0
          ? 'an intervention that names no step (the recording has none)'
          : `an intervention on steps 0–${count - 1} (the recording has ${count})`,
      received: `${describeIntervention(intervention)}, which names step ${outside}`,
    })
  }
  const plan = planFor(factual, intervention, parsed.tools)
  const batch = { seed, first: parsed.firstRollout, rollouts: parsed.rollouts }
  return runPlanned(scenario, plan, createExecution(parsed), batch, parsed.onDivergence)
}
