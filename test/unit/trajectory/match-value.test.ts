import { describe, expect, it } from 'vitest'
import { describeExpected, matchesValue } from '../../../src/trajectory/match-value.js'

describe('matchesValue', () => {
  it('compares JSON values as toEqual does', () => {
    const cases: [unknown, unknown][] = [
      [1, 1],
      ['a', 'a'],
      [null, null],
      [
        [1, { a: [2] }],
        [1, { a: [2] }],
      ],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [Number.NaN, Number.NaN],
      [{ a: 1 }, { a: 1, b: undefined }],
    ]
    for (const [actual, expected] of cases) {
      expect(matchesValue(actual, expected)).toBe(true)
      expect(actual).toEqual(expected)
    }
  })

  it('tells unequal values apart where toEqual does', () => {
    const cases: [unknown, unknown][] = [
      [1, 2],
      ['1', 1],
      [null, {}],
      [[1, 2], [1]],
      [[1], { 0: 1 }],
      [{ 0: 1 }, [1]],
      [{ a: 1, b: 2 }, { a: 1 }],
      [{ a: 1 }, { a: 1, b: 2 }],
      [{ a: { b: 1 } }, { a: { b: 2 } }],
    ]
    for (const [actual, expected] of cases) {
      expect(matchesValue(actual, expected)).toBe(false)
      expect(actual).not.toEqual(expected)
    }
  })

  it('lets an asymmetric matcher decide its place, at any depth', () => {
    expect(matchesValue({ a: 1, b: 'x' }, expect.objectContaining({ a: 1 }))).toBe(true)
    expect(
      matchesValue(
        { a: [1, { b: 'hello' }] },
        { a: [expect.any(Number), { b: expect.stringContaining('ell') }] },
      ),
    ).toBe(true)
    expect(matchesValue({ a: 'x' }, { a: expect.any(Number) })).toBe(false)
    expect(matchesValue([1, 2, 3], expect.arrayContaining([3, 1]))).toBe(true)
    expect(matchesValue(null, expect.anything())).toBe(false)
  })
})

describe('describeExpected', () => {
  it('renders JSON and matchers as Vitest names them, cut on a whole token', () => {
    expect(describeExpected({ a: 1, b: ['x'] })).toBe('{"a": 1, "b": ["x"]}')
    expect(describeExpected(expect.stringMatching(/^ref/))).toBe('StringMatching /^ref/')
    expect(describeExpected(expect.anything())).toBe('Anything')
    const long = describeExpected({
      reason: 'a very long reason that goes on and on',
      amount: 99,
      currency: 'EUR',
    })
    expect(long.length).toBeLessThanOrEqual(60)
    expect(long).toMatch(/…$/)
    expect(long).not.toMatch(/"rea…|9…/)
  })
})
