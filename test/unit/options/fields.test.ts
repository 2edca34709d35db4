import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { InvalidOptionError } from '../../../src/errors.js'
import { DEFAULTS } from '../../../src/options/defaults.js'
import {
  AbortSignalField,
  BooleanField,
  ConfidenceField,
  functionField,
  NonEmptyPathField,
  NonNegativeIntegerField,
  oneOf,
  PositiveIntegerField,
  RateField,
  SeedField,
  TimeoutMsField,
} from '../../../src/options/fields.js'
import { parseOptions } from '../../../src/options/parse-options.js'
import { Budget, BudgetField } from '../../../src/rollout/budget.js'

/** The message for `{ value }` under `field`, or `'accepted'`. */
function verdictOf(field: z.ZodType, value: unknown): string {
  try {
    parseOptions('f', z.strictObject({ value: field }), { value })
    return 'accepted'
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError)
    return (error as Error).message
  }
}

describe('the shared fields', () => {
  it.each<[string, z.ZodType, unknown[], unknown[], string]>([
    [
      'confidence',
      ConfidenceField,
      [0.95, 0.51, 0.999],
      [0.5, 0.3, 1, 0, Number.NaN, '0.95'],
      `a confidence in (0.5, 1), e.g. ${DEFAULTS.confidence}`,
    ],
    [
      'positive integer',
      PositiveIntegerField,
      [1, 400],
      [0, -1, 1.5, Infinity, '5', null],
      'a positive integer',
    ],
    ['non-negative integer', NonNegativeIntegerField, [0, 3], [-1, 0.5, true], 'a non-negative integer'],
    [
      'seed',
      SeedField,
      [0, -7, Number.MAX_SAFE_INTEGER],
      [1.5, 2 ** 53, Number.NaN],
      'a safe integer, e.g. 42',
    ],
    [
      'timeoutMs',
      TimeoutMsField,
      [1, 0.5, 60_000, Infinity],
      [0, -1, Number.NaN, '1000'],
      'a positive number of milliseconds',
    ],
    ['rate', RateField, [0.05, 0.5], [0, 1, -0.1, 1.5], 'a rate in (0, 1), e.g. 0.05'],
    ['boolean', BooleanField, [true, false], ['true', 1, null], 'true or false'],
    ['non-empty path', NonEmptyPathField, ['.causal-replay', '/tmp/x'], ['', 3], 'a non-empty path'],
    [
      'AbortSignal',
      AbortSignalField,
      [new AbortController().signal, AbortSignal.abort()],
      [{}, null, 'abort'],
      'an AbortSignal',
    ],
    ['function', functionField(), [() => 1, async () => 2], [{}, 'f', null], 'a function'],
    [
      'function with its signature',
      functionField('a function (trajectory) => boolean'),
      [() => true],
      [true],
      'a function (trajectory) => boolean',
    ],
  ])(
    '%s: accepts what it should, and names what it expects otherwise',
    (_name, field, good, bad, expected) => {
      for (const value of good) expect(verdictOf(field, value)).toBe('accepted')
      for (const value of bad)
        expect(verdictOf(field, value)).toMatch(`f: \`value\` must be ${expected}, got `)
    },
  )

  it('words one of a few strings as a list', () => {
    expect(verdictOf(oneOf(['live']), 'x')).toBe('f: `value` must be \'live\', got a string "x".')
    expect(verdictOf(oneOf(['live', 'recorded']), null)).toBe(
      "f: `value` must be 'live' or 'recorded', got null.",
    )
    expect(verdictOf(oneOf(['linear', 'binary', 'auto']), 3)).toBe(
      "f: `value` must be 'linear', 'binary' or 'auto', got 3.",
    )
    expect(verdictOf(oneOf(['linear', 'binary', 'auto']), 'binary')).toBe('accepted')
  })

  it('keeps its words through .optional() and .default()', () => {
    expect(verdictOf(PositiveIntegerField.optional(), 0)).toBe(
      'f: `value` must be a positive integer, got 0.',
    )
    expect(verdictOf(PositiveIntegerField.default(3), null)).toBe(
      'f: `value` must be a positive integer, got null.',
    )
    expect(verdictOf(ConfidenceField.default(0.9).optional(), 2)).toMatch(
      /must be a confidence in \(0\.5, 1\)/,
    )
  })
})

describe('the budget field', () => {
  const parse = (budget: unknown): Budget =>
    parseOptions('f', z.strictObject({ budget: BudgetField }), budget === undefined ? {} : { budget }).budget

  it('passes a shared Budget through, makes one from limits, and an unlimited one when absent', () => {
    const shared = new Budget({ maxRollouts: 10 })
    expect(parse(shared)).toBe(shared)
    const fromLimits = parse({ maxRollouts: 5, maxCostUsd: 0.5 })
    expect(fromLimits).toBeInstanceOf(Budget)
    expect([fromLimits.maxRollouts, fromLimits.maxCostUsd]).toEqual([5, 0.5])
    const unlimited = parse(undefined)
    expect([unlimited.maxRollouts, unlimited.maxCostUsd]).toEqual([Infinity, Infinity])
    // Two calls without a budget must not share one.
    expect(parse(undefined)).not.toBe(unlimited)
  })

  it.each([
    [null, 'f: `budget` must be a Budget or limits { maxRollouts?, maxCostUsd? }, got null.'],
    [5, 'f: `budget` must be a Budget or limits { maxRollouts?, maxCostUsd? }, got 5.'],
    [[], 'f: `budget` must be a Budget or limits { maxRollouts?, maxCostUsd? }, got an array.'],
    [{ maxRolouts: 5 }, 'f: unknown option `budget.maxRolouts`. It accepts: maxRollouts, maxCostUsd.'],
    [{ maxRollouts: 2.5 }, 'f: `budget.maxRollouts` must be a non-negative integer, got 2.5.'],
    [{ maxCostUsd: null }, 'f: `budget.maxCostUsd` must be a non-negative number, got null.'],
  ])('rejects %j, naming the option', (budget, message) => {
    expect(() => parse(budget)).toThrow(message)
  })
})
