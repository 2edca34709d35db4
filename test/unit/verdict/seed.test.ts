import { describe, expect, it } from 'vitest'
import { chooseSeed, testSeed } from '../../../src/verdict/seed.js'

const test = { file: 'test/agent.test.ts', name: 'support > rarely refunds' }

describe('chooseSeed', () => {
  it('derives a stable 31-bit seed from the file and full name, the same on every platform', () => {
    const seed = chooseSeed(undefined, test, {})
    expect(seed.source).toBe('test')
    expect(seed.seed).toBe(testSeed('test/agent.test.ts', 'support > rarely refunds'))
    expect(testSeed('test\\agent.test.ts', 'support > rarely refunds')).toBe(seed.seed)
    expect(seed.seed).toBeGreaterThanOrEqual(0)
    expect(seed.seed).toBeLessThan(2 ** 31)
    expect(chooseSeed(undefined, { ...test, name: 'support > usually escalates' }, {}).seed).not.toBe(
      seed.seed,
    )
  })

  it('CAUSAL_REPLAY_SEED overrides the derived seed; an explicit seed option overrides both', () => {
    expect(chooseSeed(undefined, test, { CAUSAL_REPLAY_SEED: '1834512' })).toEqual({
      seed: 1834512,
      source: 'env',
    })
    expect(chooseSeed(5, test, { CAUSAL_REPLAY_SEED: '1834512' })).toEqual({ seed: 5, source: 'option' })
    expect(chooseSeed(undefined, test, { CAUSAL_REPLAY_SEED: ' ' }).source).toBe('test')
  })

  it('rejects a seed variable that is not an integer', () => {
    expect(() => chooseSeed(undefined, test, { CAUSAL_REPLAY_SEED: 'abc' })).toThrow(
      'vitest-causal-replay: `CAUSAL_REPLAY_SEED` must be a safe integer, e.g. 1834512, got a string "abc".',
    )
  })
})
