import { describe, expect, it } from 'vitest'
import { check, rarely, type Trajectory } from '../../../src/index.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'
import { coinAgent, returnedBad } from '../verdict/gate-helpers.js'

// Values JSON.stringify cannot print (a BigInt, a circular object) or prints as nothing (a symbol,
// a function): each must reach the user as a sentence that names it.
function circular(): Record<string, unknown> {
  const value: Record<string, unknown> = { atMost: 0.05 }
  value['self'] = value
  return value
}

// The claim builders parse their options at once (a sync throw); `check` runs the gate (a rejection).
async function problemOf(run: () => Promise<unknown>): Promise<InvalidOptionError> {
  try {
    await run()
  } catch (error) {
    if (error instanceof InvalidOptionError) return error
    throw error
  }
  throw new Error('no error')
}

describe('a predicate that returns something other than a boolean', () => {
  it.each<[string, unknown, string]>([
    ['a bigint', 1n, '1n'],
    ['a circular object', circular(), 'an object with keys {atMost, self}'],
    ['a symbol', Symbol('yes'), 'a symbol (yes)'],
    ['a function', returnedBad, 'a function (returnedBad)'],
  ])('is refused by the gate, naming the predicate and %s', async (_name, value, received) => {
    const predicate = (() => value) as unknown as (trajectory: Trajectory) => boolean
    const problem = await problemOf(() =>
      check(coinAgent(0.5), rarely(predicate, { atMost: 0.05, seed: 1, label: 'refunds' })),
    )
    expect(problem.message).toBe(
      `the predicate "refunds": \`predicate\` must be a function (trajectory) => boolean (or a promise of one), got one that returned ${received} on rollout 0.`,
    )
  })
})

describe('options that JSON cannot print', () => {
  it('names a bigint inside `attribute`', async () => {
    const options = { atMost: 0.05, attribute: { rollouts: 1n } } as never
    const problem = await problemOf(() => check(coinAgent(0.5), rarely(returnedBad, options)))
    expect(problem).toMatchObject({ option: 'attribute.rollouts', received: '1n' })
    expect(problem.message).toBe('rarely: `attribute.rollouts` must be a positive integer, got 1n.')
  })

  it('names an unknown key of a circular options object', async () => {
    const problem = await problemOf(() => check(coinAgent(0.5), rarely(returnedBad, circular() as never)))
    expect(problem).toMatchObject({ option: 'self' })
    expect(problem.message).toMatch(/^rarely: unknown option `self`\./)
  })

  it('names a symbol given as `atMost`', async () => {
    const problem = await problemOf(() =>
      check(coinAgent(0.5), rarely(returnedBad, { atMost: Symbol() } as never)),
    )
    expect(problem).toMatchObject({ option: 'atMost', received: 'a symbol' })
    expect(problem.message).toBe('rarely: `atMost` must be a rate in (0, 1), e.g. 0.05, got a symbol.')
  })

  it('names a bigint given as the predicate', async () => {
    const problem = await problemOf(() => check(coinAgent(0.5), rarely(1n as never, { atMost: 0.05 })))
    expect(problem.received).toBe('1n')
    expect(problem.message).toMatch(/, got 1n\.$/)
  })
})
