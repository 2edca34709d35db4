import type { Json } from '../json.js'
import type { Observation, Step, Trajectory } from './schema.js'

/**
 * An outcome predicate: true when the trajectory is "bad" (or, for `toUsually`, "good"). `I` and
 * `O` are the agent's input and output types (default: any JSON value), so that a predicate given
 * for an `Agent<I, O>` sees `trajectory.input` as `I` and `trajectory.output` as `O | undefined`.
 */
export type Predicate<I = Json, O = Json> = (trajectory: Trajectory<I, O>) => boolean | Promise<boolean>

/**
 * A trajectory of any agent: the queries below read only its steps and tool calls, so they take
 * every `Trajectory<I, O>`.
 */
export type AnyTrajectory = Trajectory<unknown, unknown>

/**
 * A predicate that reads only what every run has (its steps and tool calls), so it fits every
 * agent. Generic rather than taking `Trajectory<unknown, unknown>`, so that in
 * `and(calledTool('issue_refund'), (t) => t.input.orderId === 'A1')` the agent's types reach `t`.
 */
export type TrajectoryPredicate = <I, O>(trajectory: Trajectory<I, O>) => boolean

/**
 * A predicate that is true when the run called tool `name` (optionally: with arguments that
 * `argsMatch` accepts). `calledTool('issue_refund')` is the paper's "refunded" outcome. It fits
 * every agent: its parameter is a trajectory of any input and output.
 */
export function calledTool(name: string, argsMatch?: (args: unknown) => boolean): TrajectoryPredicate {
  const predicate = (trajectory: AnyTrajectory) =>
    allObservations(trajectory).some(
      (observation) => observation.tool === name && (argsMatch === undefined || argsMatch(observation.args)),
    )
  // A readable name for messages: "calledTool(issue_refund)".
  Object.defineProperty(predicate, 'name', { value: `calledTool(${name})` })
  return predicate
}

/** Every tool call of the run, preamble first, in call order. */
export function allObservations(trajectory: AnyTrajectory): Observation[] {
  return [...trajectory.preamble, ...trajectory.steps.flatMap((step) => step.observations)]
}

/** The first step named `name`, or undefined. */
export function findStep(trajectory: AnyTrajectory, name: string): Step | undefined {
  return trajectory.steps.find((step) => step.name === name)
}

/** Every step named `name`, in order. */
export function findSteps(trajectory: AnyTrajectory, name: string): Step[] {
  return trajectory.steps.filter((step) => step.name === name)
}
