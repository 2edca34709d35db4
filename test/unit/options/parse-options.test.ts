import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { InvalidOptionError } from '../../../src/errors.js'
import { BooleanField, expecting, oneOf, PositiveIntegerField } from '../../../src/options/fields.js'
import { parseOptions, type DescribesSchema } from '../../../src/options/parse-options.js'
import { Budget, BudgetField } from '../../../src/rollout/budget.js'

// An entry point's schema in miniature: defaults, a Budget-or-limits union, a `false | {…}` union,
// an object two levels deep.
const Schema = z.strictObject({
  rollouts: PositiveIntegerField.default(100),
  budget: BudgetField,
  attribute: z
    .union([
      z.literal(false),
      z.strictObject({
        rollouts: PositiveIntegerField.optional(),
        method: oneOf(['contrastive', 'shapley']).optional(),
      }),
    ])
    .optional(),
  report: z.strictObject({ html: z.strictObject({ open: BooleanField.optional() }).optional() }).optional(),
  list: z.array(PositiveIntegerField).optional(),
  plain: z.number().optional(),
})

/** The error `parseOptions('runRollouts', Schema, value)` throws, as the data it carries. */
function problemOf(value: unknown, schema: z.ZodType = Schema): Record<string, unknown> {
  try {
    parseOptions('runRollouts', schema, value)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError)
    return { ...(error as InvalidOptionError), message: (error as InvalidOptionError).message }
  }
  throw new Error(`parseOptions accepted ${JSON.stringify(value)}`)
}

describe('parseOptions', () => {
  it('returns the parsed value with every default filled in', () => {
    const budget = new Budget({ maxRollouts: 3 })
    const parsed = parseOptions('runRollouts', Schema, { budget, attribute: false })
    expect(parsed.rollouts).toBe(100)
    expect(parsed.budget).toBe(budget)
    expect(parsed.attribute).toBe(false)
    expect(parseOptions('runRollouts', Schema, {}).budget.maxRollouts).toBe(Infinity)
    expect(parseOptions('runRollouts', Schema, { budget: { maxRollouts: 7 } }).budget.maxRollouts).toBe(7)
  })

  it('names an unknown key at the top level and lists the accepted keys', () => {
    expect(problemOf({ rollout: 5 })).toEqual({
      name: 'InvalidOptionError',
      caller: 'runRollouts',
      option: 'rollout',
      expected: 'a known option',
      received: '5',
      accepted: ['rollouts', 'budget', 'attribute', 'report', 'list', 'plain'],
      message:
        'runRollouts: unknown option `rollout`. It accepts: rollouts, budget, attribute, report, list, plain.',
    })
  })

  it('names an unknown key inside `budget` by its dotted path and lists the keys of that level', () => {
    expect(problemOf({ budget: { maxRolouts: 5 } })).toEqual({
      name: 'InvalidOptionError',
      caller: 'runRollouts',
      option: 'budget.maxRolouts',
      expected: 'a known option',
      received: '5',
      accepted: ['maxRollouts', 'maxCostUsd'],
      message: 'runRollouts: unknown option `budget.maxRolouts`. It accepts: maxRollouts, maxCostUsd.',
    })
  })

  it('names an unknown key two objects down', () => {
    expect(problemOf({ report: { html: { opne: true } } })).toMatchObject({
      option: 'report.html.opne',
      accepted: ['open'],
      message: 'runRollouts: unknown option `report.html.opne`. It accepts: open.',
    })
  })

  it('names `budget` when it is null, with what it accepts', () => {
    const problem = problemOf({ budget: null })
    expect(problem).toEqual({
      name: 'InvalidOptionError',
      caller: 'runRollouts',
      option: 'budget',
      expected: 'a Budget or limits { maxRollouts?, maxCostUsd? }',
      received: 'null',
      message: 'runRollouts: `budget` must be a Budget or limits { maxRollouts?, maxCostUsd? }, got null.',
    })
    // A field exists only where it means something: no `accepted` or `hint` on this one.
    expect(Object.keys(problem)).not.toContain('accepted')
    expect(Object.keys(problem)).not.toContain('hint')
  })

  it.each([
    [{ rollouts: '5' }, 'rollouts', 'a string "5"', 'a positive integer'],
    [{ rollouts: null }, 'rollouts', 'null', 'a positive integer'],
    [{ rollouts: [5] }, 'rollouts', 'an array', 'a positive integer'],
    [{ rollouts: -1 }, 'rollouts', '-1', 'a positive integer'],
    [{ budget: { maxRollouts: -1 } }, 'budget.maxRollouts', '-1', 'a non-negative integer'],
    [{ budget: 'lots' }, 'budget', 'a string "lots"', 'a Budget or limits { maxRollouts?, maxCostUsd? }'],
    [{ list: [1, 0] }, 'list[1]', '0', 'a positive integer'],
  ])('names the option of a wrong value in %j', (value, option, received, expected) => {
    expect(problemOf(value)).toMatchObject({ option, received, expected })
  })

  it('reports the union branch the value is shaped for', () => {
    // An object: the object branch's own issue, at its path.
    expect(problemOf({ attribute: { rollouts: 0 } })).toMatchObject({
      option: 'attribute.rollouts',
      expected: 'a positive integer',
      received: '0',
    })
    expect(problemOf({ attribute: { metod: 'shapley' } })).toMatchObject({
      option: 'attribute.metod',
      accepted: ['rollouts', 'method'],
    })
    expect(problemOf({ attribute: { method: 'lime' } })).toMatchObject({
      option: 'attribute.method',
      expected: "'contrastive' or 'shapley'",
      received: 'a string "lime"',
    })
    // A value no branch is shaped for: the union itself, worded from its branches.
    expect(problemOf({ attribute: true })).toMatchObject({
      option: 'attribute',
      expected: 'false or an object',
      received: 'true',
    })
  })

  it('picks the branch of a union of two objects whose issue is inside the value', () => {
    const Either = z.strictObject({
      source: z
        .union([
          z.strictObject({ file: expecting(z.string(), 'a file path') }),
          z.strictObject({ url: expecting(z.string(), 'a URL') }),
        ])
        .optional(),
    })
    expect(problemOf({ source: { url: 3 } }, Either)).toMatchObject({
      option: 'source.url',
      expected: 'a URL',
      received: '3',
    })
    expect(problemOf({ source: { url: 'x', path: 'y' } }, Either)).toMatchObject({
      option: 'source.path',
      accepted: ['url'],
    })
    expect(problemOf({ source: 3 }, Either)).toMatchObject({ option: 'source', received: '3' })
  })

  it('names the whole value `options` (or the given name) when it is not an object', () => {
    expect(problemOf(null)).toMatchObject({
      option: 'options',
      message: 'runRollouts: `options` must be an object, got null.',
    })
    expect(() => parseOptions('new Budget', z.strictObject({}), 'x', 'limits')).toThrow(
      'new Budget: `limits` must be an object, got a string "x".',
    )
  })

  it("falls back to zod's expectation for a field without attached words", () => {
    expect(problemOf({ plain: 'x' })).toMatchObject({ option: 'plain', expected: 'a number' })
  })

  it('keeps its data across a JSON round trip, as errors do across the worker boundary', () => {
    const error = (() => {
      try {
        parseOptions('runRollouts', Schema, { budget: { maxRolouts: 5 } })
      } catch (thrown) {
        return thrown as InvalidOptionError
      }
    })()
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'InvalidOptionError',
      message: 'runRollouts: unknown option `budget.maxRolouts`. It accepts: maxRollouts, maxCostUsd.',
      caller: 'runRollouts',
      option: 'budget.maxRolouts',
      expected: 'a known option',
      received: '5',
      accepted: ['maxRollouts', 'maxCostUsd'],
    })
  })
})

describe('InvalidOptionError', () => {
  it('builds its message from the data, with a hint when there is one', () => {
    const error = new InvalidOptionError({
      caller: 'shapley',
      option: 'method',
      expected: "'auto' or 'permutation' above 10 steps",
      received: "'exact' on a run of 12 steps",
      hint: "Use method: 'permutation'.",
    })
    expect(error.message).toBe(
      "shapley: `method` must be 'auto' or 'permutation' above 10 steps, got 'exact' on a run of 12 steps. Use method: 'permutation'.",
    )
    expect(error.hint).toBe("Use method: 'permutation'.")
    expect(error.accepted).toBeUndefined()
  })
})

describe('DescribesSchema', () => {
  it('holds when an interface and a schema have the same keys and compatible types', () => {
    const Small = z.strictObject({ rollouts: PositiveIntegerField.default(1), label: z.string().optional() })
    expect(Small.parse({})).toEqual({ rollouts: 1 })
    expectTypeOf<DescribesSchema<{ rollouts?: number; label?: string }, typeof Small>>().toEqualTypeOf<true>()
    // A key the schema lacks, a key the interface lacks, a type the schema refuses.
    expectTypeOf<
      DescribesSchema<{ rollouts?: number; label?: string; extra?: 1 }, typeof Small>
    >().toEqualTypeOf<false>()
    expectTypeOf<DescribesSchema<{ rollouts?: number }, typeof Small>>().toEqualTypeOf<false>()
    expectTypeOf<
      DescribesSchema<{ rollouts?: string; label?: string }, typeof Small>
    >().toEqualTypeOf<false>()
  })
})
