import { describe, expect, test } from 'vitest'
import { attemptOf, nextAssertion, type NumberedTest } from '../../../src/vitest/assertion-number.js'

function testIn(file: object): NumberedTest & { result: { retryCount: number; repeatCount: number } } {
  return { file, result: { retryCount: 0, repeatCount: 0 } }
}

describe('nextAssertion', () => {
  test('numbers the assertions of a test from 1, per kind', () => {
    const first = testIn({})
    expect(nextAssertion(first, 'gate', 'all')).toBe(1)
    expect(nextAssertion(first, 'gate', 'baseline')).toBe(1)
    expect(nextAssertion(first, 'gate', 'all')).toBe(2)
    expect(nextAssertion(first, 'gate', 'baseline')).toBe(2)
    // Outside a test: the first.
    expect(nextAssertion(undefined, 'gate', 'baseline')).toBe(1)
  })

  test('goes on over a second test of the same name in the same file, as Vitest numbers snapshots', () => {
    const file = {}
    const first = testIn(file)
    const second = testIn(file)
    const other = testIn(file)
    expect(nextAssertion(first, 'gate', 'baseline')).toBe(1)
    expect(nextAssertion(first, 'gate', 'baseline')).toBe(2)
    expect(nextAssertion(second, 'gate', 'baseline')).toBe(3)
    // Another name, and the same name in another file, count on their own.
    expect(nextAssertion(other, 'gate 3', 'baseline')).toBe(1)
    expect(nextAssertion(testIn({}), 'gate', 'baseline')).toBe(1)
  })

  test('gives a retry or a repeat its earlier numbers again, even after a test of the same name took some', () => {
    const file = {}
    const first = testIn(file)
    const second = testIn(file)
    expect(nextAssertion(first, 'gate', 'all')).toBe(1)
    expect(nextAssertion(second, 'gate', 'all')).toBe(2)
    first.result.retryCount = 1
    expect(attemptOf(first)).toBe('1/0')
    expect(nextAssertion(first, 'gate', 'all')).toBe(1)
    // An assertion the earlier attempt did not reach takes a fresh number.
    expect(nextAssertion(first, 'gate', 'all')).toBe(3)
    second.result.repeatCount = 1
    expect(nextAssertion(second, 'gate', 'all')).toBe(2)
  })
})
