import { describe, expect, it } from 'vitest'
import { Budget } from '../../../src/rollout/budget.js'
import {
  DEFAULTS,
  resolveBaseline,
  resolveSequentialGate,
  resolveZeroTolerance,
} from '../../../src/verdict/options.js'

describe('resolveSequentialGate', () => {
  it('fills every default; the plugin defaults sit between the call and the built-ins', () => {
    const resolved = resolveSequentialGate('toRarely', {}, {}, 11)
    expect(resolved).toMatchObject({
      kind: 'sequential',
      direction: 'atMost',
      bound: 0.05,
      confidence: 0.95,
      maxRollouts: DEFAULTS.maxRollouts,
      minRollouts: 0,
      concurrency: 8,
      onInconclusive: 'fail',
      allowErrors: false,
      attribute: { rollouts: 64, method: 'contrastive' },
      seed: 11,
    })
    const fromPlugin = resolveSequentialGate(
      'toUsually',
      {},
      { confidence: 0.9, maxRollouts: 50, concurrency: 2 },
      1,
    )
    expect(fromPlugin).toMatchObject({
      direction: 'atLeast',
      bound: 0.95,
      confidence: 0.9,
      maxRollouts: 50,
      concurrency: 2,
    })
    const fromCall = resolveSequentialGate(
      'toUsually',
      { confidence: 0.99, maxRollouts: 70 },
      { confidence: 0.9, maxRollouts: 50 },
      1,
    )
    expect(fromCall).toMatchObject({ confidence: 0.99, maxRollouts: 70 })
  })

  it('keeps a shared Budget instance so the gate and its attribution spend from it', () => {
    const budget = new Budget({ maxRollouts: 10 })
    expect(resolveSequentialGate('toRarely', { budget }, {}, 1).budget).toBe(budget)
    expect(resolveSequentialGate('toRarely', { budget: { maxRollouts: 3 } }, {}, 1).budget.maxRollouts).toBe(
      3,
    )
  })

  it('a perfect agent can pass the defaults: maxRollouts exceeds the 59 clean rollouts a 5% claim needs', () => {
    expect(DEFAULTS.maxRollouts).toBeGreaterThan(59)
  })

  it.each([
    [{ atMost: 0 }, /`atMost` must be a rate strictly between 0 and 1.*use toNever/],
    [{ atMost: 1.5 }, /`atMost` must be a rate strictly between 0 and 1/],
    [{ confidence: 0.4 }, /`confidence` must be in \(0\.5, 1\)/],
    [{ maxRollouts: 0 }, /`maxRollouts` must be a positive integer, got 0/],
    [{ maxRollouts: 10, minRollouts: 20 }, /`minRollouts` \(20\) is larger than `maxRollouts` \(10\)/],
    [{ onInconclusive: 'skip' }, /`onInconclusive` must be 'fail' or 'pass', got "skip"/],
    [{ attribute: { method: 'lime' } }, /`attribute.method` must be 'contrastive', 'shapley' or 'both'/],
    [{ attribute: { rollouts: 0 } }, /`attribute.rollouts` must be a positive integer/],
    [{ atMots: 0.1 }, /unknown option `atMots`. It accepts: .*atMost/],
    [{ budget: { maxRollouts: -1 } }, /toRarely: budget.maxRollouts must be a non-negative integer/],
  ])('rejects %j with a message naming the option', (options, message) => {
    expect(() => resolveSequentialGate('toRarely', options as never, {}, 1)).toThrow(message)
  })

  it('toUsually points at toAlways for atLeast: 1', () => {
    expect(() => resolveSequentialGate('toUsually', { atLeast: 1 }, {}, 1)).toThrow(/use toAlways/)
  })
})

describe('resolveZeroTolerance and resolveBaseline', () => {
  it('default to 100 rollouts', () => {
    expect(resolveZeroTolerance('toNever', {}, {}, 1)).toMatchObject({ rollouts: 100, direction: 'atMost' })
    expect(resolveZeroTolerance('toAlways', {}, {}, 1)).toMatchObject({ rollouts: 100, direction: 'atLeast' })
    expect(resolveBaseline({}, {}, 1)).toMatchObject({
      rollouts: 100,
      tolerance: 0,
      better: 'lower',
      name: undefined,
    })
  })

  it('reject options of other matchers and bad values', () => {
    expect(() => resolveZeroTolerance('toNever', { maxRollouts: 5 } as never, {}, 1)).toThrow(
      /unknown option `maxRollouts`/,
    )
    expect(() => resolveBaseline({ tolerance: -0.1 }, {}, 1)).toThrow(
      /`tolerance` must be a rate in \[0, 1\)/,
    )
    expect(() => resolveBaseline({ better: 'up' as never }, {}, 1)).toThrow(
      /`better` must be 'lower' or 'higher'/,
    )
  })
})
