import { InvalidOptionError } from '../errors.js'
import type { Json } from '../json.js'
import { describeReceived } from '../options/received.js'
import { describeExpected, matchesValue } from './match-value.js'
import type { AnyTrajectory, TrajectoryPredicate } from './queries.js'
import type { Step } from './schema.js'

/** What a step's action is compared with: a value (asymmetric matchers allowed) or a test of the step. */
export type StepExpectation = ((action: Json, step: Step) => boolean) | Json | object

/**
 * A predicate that is true when some step named `name` took an action that `expected` accepts:
 * a value compared as `toEqual` compares (`stepMatches('decide', 'refund')`,
 * `stepMatches('model', expect.objectContaining({ toolCalls: expect.any(Array) }))`), or a
 * function of the action and the step.
 */
export function stepMatches(name: string, expected: StepExpectation): TrajectoryPredicate {
  if (typeof name !== 'string' || name === '') {
    throw new InvalidOptionError({
      caller: 'stepMatches',
      option: 'name',
      expected: 'a step name (a non-empty string)',
      received: describeReceived(name),
    })
  }
  const accepts =
    typeof expected === 'function'
      ? (step: Step) => (expected as (action: Json, step: Step) => boolean)(step.action, step) === true
      : (step: Step) => matchesValue(step.action, expected)
  const predicate = (trajectory: AnyTrajectory) =>
    trajectory.steps.some((step) => step.name === name && accepts(step))
  const what =
    typeof expected === 'function'
      ? expected.name === '' || expected.name === 'expected'
        ? 'an action the test accepts'
        : `an action that ${expected.name} accepts`
      : describeExpected(expected)
  Object.defineProperty(predicate, 'name', { value: `take ${what} at step ${name}` })
  return predicate
}
