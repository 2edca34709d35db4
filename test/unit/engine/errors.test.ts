import { describe, expect, it } from 'vitest'
import {
  BudgetExceededError,
  CausalReplayError,
  InvalidOptionError,
  InvalidTrajectoryError,
  isCausalReplayError,
  MaxStepsExceededError,
  NotJsonError,
  ReplayDivergenceError,
  RolloutAbortedError,
  RolloutSet,
  RolloutTimeoutError,
} from '../../../src/index.js'

const errors = [
  new CausalReplayError('base'),
  new NotJsonError('not json'),
  new InvalidTrajectoryError('bad file', '/tmp/t.json'),
  new RolloutTimeoutError('slow'),
  new MaxStepsExceededError('loops'),
  new RolloutAbortedError('cancelled'),
  new ReplayDivergenceError('diverged'),
  new BudgetExceededError('spent', new RolloutSet([], 1)),
  new InvalidOptionError('bad option'),
]

describe('the error hierarchy', () => {
  it('gives each class its own name, and all of them one base class', () => {
    expect(errors.map((e) => e.name)).toEqual([
      'CausalReplayError',
      'NotJsonError',
      'InvalidTrajectoryError',
      'RolloutTimeoutError',
      'MaxStepsExceededError',
      'RolloutAbortedError',
      'ReplayDivergenceError',
      'BudgetExceededError',
      'InvalidOptionError',
    ])
    for (const error of errors) {
      expect(error).toBeInstanceOf(CausalReplayError)
      expect(error).toBeInstanceOf(Error)
      expect(error.stack?.startsWith(`${error.name}: ${error.message}`)).toBe(true)
    }
  })

  it.each(errors.map((e) => [e.name, e] as const))(
    'isCausalReplayError recognises a %s after a JSON round trip and after structuredClone',
    (_name, error) => {
      expect(isCausalReplayError(error)).toBe(true)
      const viaJson = JSON.parse(JSON.stringify(error)) as { name: string; message: string }
      expect(viaJson).toMatchObject({ name: error.name, message: error.message })
      expect(isCausalReplayError(viaJson)).toBe(true)
      // structuredClone (worker postMessage) keeps only standard error names; the stack keeps ours.
      const cloned = structuredClone(error)
      expect(cloned.message).toBe(error.message)
      expect(isCausalReplayError(cloned)).toBe(true)
    },
  )

  it('does not recognise other errors, however they travel', () => {
    for (const other of [new Error('x'), new TypeError('y'), new DOMException('z', 'AbortError')]) {
      expect(isCausalReplayError(other)).toBe(false)
      expect(isCausalReplayError(structuredClone(other))).toBe(false)
      expect(
        isCausalReplayError(JSON.parse(JSON.stringify({ name: other.name, message: other.message }))),
      ).toBe(false)
    }
    expect(isCausalReplayError({ name: 'Error', stack: 'Error: BudgetExceededError: nope' })).toBe(false)
    for (const value of [null, undefined, 'BudgetExceededError', 42])
      expect(isCausalReplayError(value)).toBe(false)
  })

  it('keeps the data a caller needs: the file of an InvalidTrajectoryError, the partial of a BudgetExceededError', () => {
    const [, , invalid, , , , , budget] = errors
    expect((invalid as InvalidTrajectoryError).file).toBe('/tmp/t.json')
    expect((budget as BudgetExceededError<RolloutSet>).partial).toBeInstanceOf(RolloutSet)
    expect(JSON.parse(JSON.stringify(budget))).toEqual({
      name: 'BudgetExceededError',
      message: 'spent',
      partial: { seed: 1, trajectories: [] },
    })
  })
})
