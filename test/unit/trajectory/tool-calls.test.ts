import { describe, expect, it } from 'vitest'
import { calledToolWith, calledTools, type Trajectory } from '../../../src/index.js'
import type { Json, TrajectoryMatchMode } from '../../../src/entries/types.js'
import { TRAJECTORY_SCHEMA } from '../../../src/entries/schemas.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'

/** A run whose tool calls are `calls` (the first in the preamble, the rest after one step). */
function runWith(calls: readonly (string | [string, Json])[]): Trajectory {
  const observations = calls.map((call) => {
    const [tool, args] = typeof call === 'string' ? [call, {}] : call
    return { tool, args, result: null, source: 'live' as const }
  })
  return {
    schema: TRAJECTORY_SCHEMA,
    agent: 'tools',
    input: null,
    seed: 1,
    rollout: 0,
    preamble: observations.slice(0, 1),
    steps: [
      {
        index: 0,
        name: 'model',
        action: null,
        contextDigest: null,
        source: 'policy',
        observations: observations.slice(1),
      },
    ],
  }
}

const MODES: readonly TrajectoryMatchMode[] = ['strict', 'ordered', 'unordered', 'superset', 'subset']

describe('calledTools: the truth table of each mode against [a, b]', () => {
  // calls → strict, ordered, unordered, superset, subset
  const table: [string[], boolean, boolean, boolean, boolean, boolean][] = [
    [['a', 'b'], true, true, true, true, true],
    [['b', 'a'], false, false, true, true, true],
    [['a', 'c', 'b'], false, true, false, true, false],
    [['c', 'a', 'b', 'c'], false, true, false, true, false],
    [['a', 'b', 'b'], false, true, false, true, false],
    [['a'], false, false, false, false, true],
    [['b'], false, false, false, false, true],
    [[], false, false, false, false, true],
    [['c'], false, false, false, false, false],
    [['a', 'a'], false, false, false, false, false],
    [['b', 'c', 'a'], false, false, false, true, false],
  ]
  it.each(table)('%j', (calls, ...expected) => {
    const run = runWith(calls)
    const got = MODES.map((mode) => calledTools(['a', 'b'], { mode })(run))
    expect(got).toEqual(expected)
  })

  it('defaults to ordered (a subsequence)', () => {
    expect(calledTools(['a', 'b'])(runWith(['a', 'c', 'b']))).toBe(true)
    expect(calledTools(['a', 'b'])(runWith(['b', 'a']))).toBe(false)
  })

  it('an empty list: strict, unordered and subset ask for no calls; ordered and superset always hold', () => {
    const none = runWith([])
    const some = runWith(['a'])
    expect(MODES.map((mode) => calledTools([], { mode })(none))).toEqual([true, true, true, true, true])
    expect(MODES.map((mode) => calledTools([], { mode })(some))).toEqual([false, true, false, true, false])
  })
})

describe('calledTools with argument patterns', () => {
  const run = runWith([
    ['lookup_order', { id: 7 }],
    ['issue_refund', { amount: 99, currency: 'EUR' }],
  ])

  it('compares arguments as toEqual does, asymmetric matchers included', () => {
    expect(
      calledTools(['lookup_order', { name: 'issue_refund', args: { amount: 99, currency: 'EUR' } }])(run),
    ).toBe(true)
    expect(calledTools([{ name: 'issue_refund', args: { amount: 99 } }])(run)).toBe(false)
    expect(calledTools([{ name: 'issue_refund', args: expect.objectContaining({ amount: 99 }) }])(run)).toBe(
      true,
    )
    expect(
      calledTools([{ name: 'lookup_order', args: { id: expect.any(Number) } }], { mode: 'superset' })(run),
    ).toBe(true)
    expect(
      calledTools([{ name: 'lookup_order', args: { id: expect.any(String) } }], { mode: 'superset' })(run),
    ).toBe(false)
  })

  it('finds a one-to-one assignment where first-fit would not', () => {
    // First-fit gives the x{id:1} call to the `anything` pattern, leaving {id: 1} without a call.
    const twoCalls = runWith([
      ['x', { id: 1 }],
      ['x', { id: 2 }],
    ])
    const patterns = [
      { name: 'x', args: expect.anything() },
      { name: 'x', args: { id: 1 } },
    ]
    expect(calledTools(patterns, { mode: 'superset' })(twoCalls)).toBe(true)
    expect(calledTools(patterns, { mode: 'unordered' })(twoCalls)).toBe(true)
    expect(calledTools(patterns, { mode: 'subset' })(twoCalls)).toBe(true)
    expect(calledTools(patterns, { mode: 'strict' })(twoCalls)).toBe(false)
  })
})

describe('calledToolWith', () => {
  const run = runWith([['issue_refund', { amount: 99, reason: 'late', meta: { by: 'agent' } }]])

  it('is true when some call of the tool has equal arguments', () => {
    expect(calledToolWith('issue_refund', { amount: 99, reason: 'late', meta: { by: 'agent' } })(run)).toBe(
      true,
    )
    expect(calledToolWith('issue_refund', { amount: 99 })(run)).toBe(false)
    expect(
      calledToolWith('issue_refund', expect.objectContaining({ reason: expect.stringMatching(/lat/) }))(run),
    ).toBe(true)
    expect(calledToolWith('other', expect.anything())(run)).toBe(false)
  })
})

describe('labels read after "to rarely"', () => {
  it.each([
    [calledTools(['lookup_order', 'issue_refund']), 'call lookup_order, then issue_refund'],
    [calledTools(['a', 'b'], { mode: 'strict' }), 'call exactly a, b, in that order'],
    [calledTools(['a'], { mode: 'strict' }), 'call only a, once'],
    [calledTools(['a', 'b', 'c'], { mode: 'unordered' }), 'call exactly a, b and c, in any order'],
    [calledTools(['a', 'b'], { mode: 'superset' }), 'call at least a and b'],
    [calledTools(['a', 'b'], { mode: 'subset' }), 'call no tools beyond a and b'],
    [calledTools([], { mode: 'strict' }), 'call no tools'],
    [calledToolWith('issue_refund', { amount: 99 }), 'call issue_refund with {"amount": 99}'],
    [
      calledToolWith('issue_refund', expect.objectContaining({ amount: 99 })),
      'call issue_refund with ObjectContaining {"amount": 99}',
    ],
    [calledToolWith('refund', { amount: expect.any(Number) }), 'call refund with {"amount": Any<Number>}'],
  ])('%#: %s', (predicate, label) => {
    expect(predicate.name).toBe(label)
  })
})

describe('bad arguments name the field', () => {
  it('an unknown mode', () => {
    expect(() => calledTools(['a'], { mode: 'in-order' as TrajectoryMatchMode })).toThrowError(
      InvalidOptionError,
    )
    expect(() => calledTools(['a'], { mode: 'in-order' as TrajectoryMatchMode })).toThrowError(/mode/)
  })

  it('a pattern with no name', () => {
    expect(() => calledTools(['a', { args: {} } as never])).toThrowError(/expected\[1\]/)
    expect(() => calledTools('a' as never)).toThrowError(/expected/)
    expect(() => calledToolWith('', {})).toThrowError(/name/)
  })
})
