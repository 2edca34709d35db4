// The error record a trajectory keeps: kind from the error's name (so it survives a worker
// boundary), the name, and a message for anything thrown.
import { describe, expect, it } from 'vitest'
import { classifyError, errorMessage } from '../../../src/rollout/classify-error.js'
import {
  BudgetExceededError,
  MaxStepsExceededError,
  NotJsonError,
  ReplayDivergenceError,
  RolloutAbortedError,
  RolloutTimeoutError,
} from '../../../src/errors.js'

describe('classifyError', () => {
  it.each([
    [new RolloutTimeoutError('late'), 'timeout', 'RolloutTimeoutError'],
    [new MaxStepsExceededError('loops'), 'max-steps', 'MaxStepsExceededError'],
    [new RolloutAbortedError('cancelled'), 'aborted', 'RolloutAbortedError'],
    [new NotJsonError('a function'), 'not-json', 'NotJsonError'],
    [new ReplayDivergenceError('diverged'), 'threw', 'ReplayDivergenceError'],
    [new BudgetExceededError('spent', undefined), 'threw', 'BudgetExceededError'],
    [new TypeError('bad'), 'threw', 'TypeError'],
  ] as const)('classifies %s as %s', (error, kind, name) => {
    expect(classifyError(error)).toEqual({ kind, name, message: error.message })
  })

  it('reads the kind from the name, not the class: a DOM AbortError is aborted', () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError')
    expect(classifyError(abort)).toEqual({
      kind: 'aborted',
      name: 'AbortError',
      message: 'The operation was aborted.',
    })
    const renamed = Object.assign(new Error('from a worker'), { name: 'RolloutTimeoutError' })
    expect(classifyError(renamed).kind).toBe('timeout')
  })

  it('keeps a thrown value that is not an Error, named by its typeof', () => {
    expect(classifyError({ code: 42 })).toEqual({
      kind: 'threw',
      name: 'object',
      message: '{"code":42} (thrown value, not an Error)',
    })
    expect(classifyError('oops')).toEqual({
      kind: 'threw',
      name: 'string',
      message: '"oops" (thrown value, not an Error)',
    })
    expect(classifyError(undefined)).toEqual({
      kind: 'threw',
      name: 'undefined',
      message: 'undefined (thrown value, not an Error)',
    })
  })
})

/** A value whose every read throws: `instanceof`, `String()` and `JSON.stringify` all fail on it. */
function hostileProxy(prototype: object | null = null): object {
  const trap = () => {
    throw new Error('trapped')
  }
  return new Proxy(
    {},
    {
      get: trap,
      has: trap,
      ownKeys: trap,
      getOwnPropertyDescriptor: trap,
      getPrototypeOf: prototype === null ? trap : () => prototype,
    },
  )
}

describe('classifyError of a value that cannot be read', () => {
  it('never throws: a Proxy whose traps throw is named by its typeof, with a message that says so', () => {
    const unreadable = {
      kind: 'threw',
      name: 'object',
      message: 'a thrown object that cannot be read: its properties throw',
    }
    expect(classifyError(hostileProxy())).toEqual(unreadable)
    // One that passes for an Error but throws on `name` and `message`.
    expect(classifyError(hostileProxy(Error.prototype))).toEqual(unreadable)
    const revocable = Proxy.revocable({}, {})
    revocable.revoke()
    expect(classifyError(revocable.proxy)).toEqual(unreadable)
  })

  it('keeps what can be read: an Error whose name is not a string is named by its String()', () => {
    const error = Object.assign(new Error('odd'), { name: 42 })
    expect(classifyError(error)).toEqual({ kind: 'threw', name: '42', message: 'odd' })
  })
})

describe('errorMessage', () => {
  it('falls back to String() for a value JSON cannot encode', () => {
    expect(errorMessage(10n)).toBe('10')
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(errorMessage(cyclic)).toBe('[object Object]')
  })
})
