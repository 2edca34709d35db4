import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NotJsonError } from '../../src/errors.js'
import {
  assertJson,
  canonicalJson,
  contextDigest,
  copyJson,
  MAX_JSON_DEPTH,
  type Json,
} from '../../src/json.js'

describe('assertJson', () => {
  it('accepts every JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(() => assertJson(value, 'x')).not.toThrow()
      }),
      { numRuns: 300, seed: 1 },
    )
    expect(() => assertJson(Object.assign(Object.create(null), { a: 1 }), 'x')).not.toThrow()
  })

  it.each<[string, unknown, string]>([
    ['undefined', undefined, 'undefined'],
    ['a function', () => 1, 'function'],
    ['NaN', Number.NaN, 'NaN is not a finite number'],
    ['-Infinity in an array', [1, -Infinity], '-Infinity is not a finite number at [1]'],
    [
      'a Date deep inside',
      { a: { b: [new Date(0)] } },
      'a Date instance at .a.b[0] (convert it to plain JSON first)',
    ],
    ['a hole in an array', Object.assign(new Array<number>(3), { 0: 1, 2: 3 }), 'undefined at [1]'],
    ['a symbol', Symbol('s'), 'symbol'],
    ['a bigint', 1n, 'bigint'],
    [
      'a cycle',
      (() => {
        const a: unknown[] = []
        a.push(a)
        return a
      })(),
      'circular reference at [0]',
    ],
  ])('rejects %s, naming where and the path', (_label, value, problem) => {
    expect(() => assertJson(value, 'The action of step 2 "decide"')).toThrow(
      new NotJsonError(`The action of step 2 "decide" is not a JSON value: ${problem}.`),
    )
  })

  it('accepts the same object twice (shared, not circular)', () => {
    const shared = { x: 1 }
    expect(() => assertJson({ a: shared, b: [shared, shared] }, 'x')).not.toThrow()
  })
})

describe('copyJson', () => {
  it('property: a deep copy equal to the value, sharing no object with it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = copyJson(value, 'x')
        expect(copy).toStrictEqual(value)
        const objects = (v: unknown, into: Set<unknown>): Set<unknown> => {
          if (typeof v === 'object' && v !== null) {
            into.add(v)
            for (const child of Object.values(v)) objects(child, into)
          }
          return into
        }
        const original = objects(value, new Set())
        for (const object of objects(copy, new Set())) expect(original.has(object)).toBe(false)
      }),
      { numRuns: 300, seed: 2 },
    )
  })

  it('keeps a "__proto__" key as data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Json
    const copy = copyJson(value, 'x') as Record<string, Json>
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.keys(copy)).toEqual(['__proto__', 'a'])
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value))
  })

  it('copies values deeper than its recursion guard, and still finds cycles', () => {
    let deep: Json = 0
    for (let i = 0; i < 1000; i++) deep = [deep]
    expect(copyJson(deep, 'x')).toEqual(deep)
    const cyclic: Record<string, unknown> = {}
    cyclic.me = { again: cyclic }
    expect(() => copyJson(cyclic, 'The context')).toThrow(
      'The context is not a JSON value: circular reference at .me.again.',
    )
  })

  it('rejects a value nested deeper than MAX_JSON_DEPTH, naming where and the start of its path', () => {
    const nested = (levels: number): Json => {
      let value: Json = 'leaf'
      for (let i = 0; i < levels; i++) value = { a: value }
      return value
    }
    expect(copyJson(nested(MAX_JSON_DEPTH), 'x')).toEqual(nested(MAX_JSON_DEPTH))
    // Ten thousand levels would overflow the stack of every walk after the copy.
    for (const levels of [MAX_JSON_DEPTH + 1, 10_000]) {
      expect(() => copyJson(nested(levels), 'The context of step 0 "decide"')).toThrow(
        new NotJsonError(
          `The context of step 0 "decide" is nested too deeply: more than 1000 levels of arrays and objects, below ${'.a'.repeat(30)}…. A recorded value is copied, digested and shown by code that descends it one level at a time: flatten it, or record a summary of it instead.`,
        ),
      )
    }
  })

  it('rejects what assertJson rejects, with the same message', () => {
    expect(() => copyJson({ when: new Date(0) }, 'The result of tool call "t"')).toThrow(
      'The result of tool call "t" is not a JSON value: a Date instance at .when (convert it to plain JSON first).',
    )
  })
})

describe('canonicalJson and contextDigest', () => {
  it('ignore key order and nothing else', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}')
    expect(contextDigest({ b: 1, a: 2 })).toBe(contextDigest({ a: 2, b: 1 }))
    expect(contextDigest([1, 2])).not.toBe(contextDigest([2, 1]))
    expect(contextDigest({ a: '1' })).not.toBe(contextDigest({ a: 1 }))
    expect(contextDigest(null)).toMatch(/^[0-9a-f]{16}$/)
  })

  it('is the first 16 hex digits of SHA-256 over the canonical JSON', () => {
    // The canonical JSON of the string abc is the 5 bytes "abc" with quotes;
    // SHA-256 of them (sha256sum) = 6cc43f858fbb7633 01637b5af970e2a4 6b46f461f27e5a0f 41e009c59b827b25.
    expect(contextDigest('abc')).toBe('6cc43f858fbb7633')
  })

  it('property: canonicalJson parses back to the value, and the digest ignores key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value as Json))).toStrictEqual(JSON.parse(JSON.stringify(value)))
        const reversed = JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
          typeof v === 'object' && v !== null && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).reverse())
            : v,
        ) as Json
        expect(contextDigest(reversed)).toBe(contextDigest(value as Json))
      }),
      { numRuns: 200, seed: 3 },
    )
  })
})
