import { describe, expect, it } from 'vitest'
import { Budget } from '../../../src/rollout/budget.js'
import { describeReceived } from '../../../src/options/received.js'

function circular(): object {
  const value: { self?: unknown } = {}
  value.self = value
  return value
}

function hostileProxy(): object {
  return new Proxy(
    {},
    {
      getPrototypeOf() {
        throw new Error('no')
      },
    },
  )
}

describe('describeReceived', () => {
  function run(): void {}
  it.each<[string, unknown, string]>([
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['a boolean', false, 'false'],
    ['a negative number', -1, '-1'],
    ['negative zero', -0, '-0'],
    ['NaN', Number.NaN, 'NaN'],
    ['Infinity', Infinity, 'Infinity'],
    ['a bigint', 5n, '5n'],
    ['a string, quoted', '5', 'a string "5"'],
    ['a long string, cut', 'x'.repeat(100), `a string "${'x'.repeat(39)}…"`],
    ['an array', [1, 2], 'an array'],
    ['a named function', run, 'a function (run)'],
    ['a symbol, by its description', Symbol('s'), 'a symbol (s)'],
    ['a symbol without a description', Symbol(), 'a symbol'],
    ['a circular object, by its keys', circular(), 'an object with keys {self}'],
    ['an arrow function', () => true, 'a function'],
    ['a Proxy whose traps throw', hostileProxy(), 'an object'],
    ['an empty object', {}, 'an empty object'],
    ['an object, by its keys', { maxRolouts: 5 }, 'an object with keys {maxRolouts}'],
    [
      'an object with many keys',
      { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 },
      'an object with keys {a, b, c, d, e, …}',
    ],
    ['a class instance, by its class', new Date(0), 'a Date'],
    ['a class whose name starts with a vowel', new AbortController(), 'an AbortController'],
    ['one of ours', new Budget(), 'a Budget'],
  ])('describes %s', (_name, value, description) => {
    expect(describeReceived(value)).toBe(description)
  })
})
