import { describe, expect, it } from 'vitest'
import { InvalidOptionError } from '../../../src/errors.js'
import { checkPredicateResult } from '../../../src/trajectory/predicate-result.js'

const asked = { caller: 'rate', option: 'predicate', rollout: 3 } as const

function problemOf(value: unknown, rollout: number | null = 3): InvalidOptionError {
  try {
    checkPredicateResult(value, { ...asked, rollout })
  } catch (error) {
    if (error instanceof InvalidOptionError) return error
    throw error
  }
  throw new Error('no error')
}

function circular(): object {
  const value: { self?: unknown } = {}
  value.self = value
  return value
}

describe('checkPredicateResult', () => {
  it('returns a boolean as it is', () => {
    expect(checkPredicateResult(true, asked)).toBe(true)
    expect(checkPredicateResult(false, asked)).toBe(false)
  })

  it.each<[string, unknown, string]>([
    ['a bigint', 1n, '1n'],
    ['a circular object', circular(), 'an object with keys {self}'],
    ['a symbol', Symbol('yes'), 'a symbol (yes)'],
    ['a function', function judge() {}, 'a function (judge)'],
    ['a number', 1, '1'],
    ['a string', 'true', 'a string "true"'],
    ['null', null, 'null'],
  ])('refuses %s, naming the caller, the value and the rollout', (_name, value, received) => {
    const problem = problemOf(value)
    expect(problem).toMatchObject({
      caller: 'rate',
      option: 'predicate',
      expected: 'a function (trajectory) => boolean (or a promise of one)',
      received: `one that returned ${received} on rollout 3`,
    })
    expect(problem.hint).toBeUndefined()
    expect(problem.message).toBe(
      `rate: \`predicate\` must be a function (trajectory) => boolean (or a promise of one), got one that returned ${received} on rollout 3.`,
    )
  })

  it('asks about a missing `return`, and names no rollout when told not to', () => {
    const problem = problemOf(undefined, null)
    expect(problem.received).toBe('one that returned undefined')
    expect(problem.message).toBe(
      'rate: `predicate` must be a function (trajectory) => boolean (or a promise of one), got one that returned undefined. A missing `return`?',
    )
  })
})
