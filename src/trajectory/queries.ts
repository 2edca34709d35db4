import type { Observation, Step, Trajectory } from './schema.js'

/** An outcome predicate: true when the trajectory is "bad" (or, for `toUsually`, "good"). */
export type Predicate = (trajectory: Trajectory) => boolean | Promise<boolean>

/**
 * A predicate that is true when the run called tool `name` (optionally: with arguments that
 * `argsMatch` accepts). `calledTool('issue_refund')` is the paper's "refunded" outcome.
 */
export function calledTool(name: string, argsMatch?: (args: unknown) => boolean): (t: Trajectory) => boolean {
  const predicate = (trajectory: Trajectory) =>
    allObservations(trajectory).some(
      (observation) => observation.tool === name && (argsMatch === undefined || argsMatch(observation.args)),
    )
  // A readable name for messages: "calledTool(issue_refund)".
  Object.defineProperty(predicate, 'name', { value: `calledTool(${name})` })
  return predicate
}

/** Every tool call of the run, preamble first, in call order. */
export function allObservations(trajectory: Trajectory): Observation[] {
  return [...trajectory.preamble, ...trajectory.steps.flatMap((step) => step.observations)]
}

/** The first step named `name`, or undefined. */
export function findStep(trajectory: Trajectory, name: string): Step | undefined {
  return trajectory.steps.find((step) => step.name === name)
}

/** Every step named `name`, in order. */
export function findSteps(trajectory: Trajectory, name: string): Step[] {
  return trajectory.steps.filter((step) => step.name === name)
}
