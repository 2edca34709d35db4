import type { Json } from '../json.js'
import {
  TRAJECTORY_SCHEMA,
  type CaseRef,
  type Observation,
  type RolloutError,
  type Step,
  type Trajectory,
} from '../trajectory/schema.js'

/** A step whose policy failed while a later step had already started: a gap in the trajectory. */
export interface FailedStep {
  index: number
  name: string
  message: string
}

/** Everything a rollout recorded, as the recorder holds it when the rollout has ended. */
export interface RecordedRollout {
  agent: string
  input: Json
  seed: number
  rollout: number
  /** The dataset case the rollout ran; undefined for a run of one input. */
  case: CaseRef | undefined
  /** The plan's intervention label; undefined for a plain rollout. */
  intervention: string | undefined
  preamble: Observation[]
  /** Finished steps by index; a hole is a step that was still running or whose policy failed. */
  steps: Array<Step | undefined>
  /** The first gap, if a step's policy failed after a later step had started. */
  failedStep: FailedStep | undefined
  output: Json | undefined
  error: RolloutError | undefined
  heldSteps: number
  matchedSteps: number
  costUsd: number
}

/**
 * The trajectory of a finished rollout. Keeps the steps up to the first hole; a hole followed by
 * completed steps makes the rollout an error (unless it already has one), since a trajectory's step
 * indexes must equal their positions. The output is kept only when there is no error; `replay` only
 * under an intervention; `costUsd` only when something cost money. Keys are in schema order, as
 * after a file round trip. The result shares `preamble`; its `steps` is a new array.
 */
export function assembleTrajectory(recorded: RecordedRollout): Trajectory {
  const { steps: recordedSteps, intervention } = recorded
  let kept = 0
  while (kept < recordedSteps.length && recordedSteps[kept] !== undefined) kept++
  let { error } = recorded
  if (kept < recordedSteps.length && error === undefined) {
    const gap = recorded.failedStep
    const why =
      gap === undefined
        ? `step ${kept} was still running`
        : `step ${gap.index} "${gap.name}" failed (${gap.message})`
    error = {
      kind: 'threw',
      name: 'Error',
      message: `The rollout ended but ${why} while later steps completed; a trajectory cannot have a gap (await each ctx.step).`,
    }
  }
  const steps = recordedSteps.slice(0, kept) as Step[]
  const { agent, input, seed, rollout, preamble, case: caseRef } = recorded
  // Literals rather than a spread: this runs once per rollout, on the hot path. Keys in schema order.
  const trajectory: Trajectory =
    caseRef !== undefined
      ? intervention === undefined
        ? { schema: TRAJECTORY_SCHEMA, agent, input, seed, rollout, case: caseRef, preamble, steps }
        : {
            schema: TRAJECTORY_SCHEMA,
            agent,
            input,
            seed,
            rollout,
            case: caseRef,
            intervention,
            preamble,
            steps,
          }
      : intervention === undefined
        ? { schema: TRAJECTORY_SCHEMA, agent, input, seed, rollout, preamble, steps }
        : { schema: TRAJECTORY_SCHEMA, agent, input, seed, rollout, intervention, preamble, steps }
  if (recorded.output !== undefined && error === undefined) trajectory.output = recorded.output
  if (error !== undefined) trajectory.error = error
  if (intervention !== undefined)
    trajectory.replay = { heldSteps: recorded.heldSteps, matchedSteps: recorded.matchedSteps }
  if (recorded.costUsd > 0) trajectory.costUsd = recorded.costUsd
  return trajectory
}
