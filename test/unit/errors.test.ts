import { describe, expect, it } from 'vitest'
import * as errors from '../../src/errors.js'
import * as errorsEntry from '../../src/entries/errors.js'
import {
  BudgetExceededError,
  CausalReplayError,
  InvalidTrajectoryError,
  isCausalReplayError,
} from '../../src/errors.js'
import { RolloutSet } from '../../src/rollout/rollout-set.js'

// Every class `src/errors.ts` exports, found by enumeration: a class added there is tested here
// without a copied list of names to keep in step. Each takes a message first; extra arguments
// (a file, a partial result, a package name) are optional for this test.
const classes = Object.entries(errors).flatMap(([exportName, value]) =>
  typeof value === 'function' && value.prototype instanceof Error
    ? [[exportName, value as unknown as new (message: string) => Error] as const]
    : [],
)
const instances = classes.map(([exportName, Class]) => [exportName, new Class(`a ${exportName}`)] as const)

describe('the error hierarchy', () => {
  it('finds the classes of src/errors.ts, base class included', () => {
    expect(classes.map(([exportName]) => exportName)).toContain('CausalReplayError')
    expect(classes.length).toBeGreaterThan(5)
  })

  it.each(instances)('%s is a CausalReplayError named after its class', (exportName, error) => {
    expect(error).toBeInstanceOf(CausalReplayError)
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe(exportName)
    expect(error.constructor.name).toBe(exportName)
    expect(error.stack?.startsWith(`${exportName}: ${error.message}`)).toBe(true)
  })

  it.each(instances)('%s is exported from vitest-causal-replay/errors', (exportName) => {
    expect(errorsEntry).toHaveProperty(exportName, errors[exportName as keyof typeof errors])
  })

  it.each(instances)(
    'isCausalReplayError recognises a %s as is, after a JSON round trip and after structuredClone',
    (_exportName, error) => {
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
    const invalid = new InvalidTrajectoryError('bad file', '/tmp/t.json')
    const budget = new BudgetExceededError('spent', new RolloutSet([], 1))
    expect(invalid.file).toBe('/tmp/t.json')
    expect(budget.partial).toBeInstanceOf(RolloutSet)
    expect(JSON.parse(JSON.stringify(budget))).toEqual({
      name: 'BudgetExceededError',
      message: 'spent',
      partial: { seed: 1, trajectories: [] },
    })
  })
})
