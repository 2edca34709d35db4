import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { CODEC_TAG, decodeJson, encodeJson, type CodecOptions } from '../../src/adapters/shared/json-codec.js'
import { NotJsonError } from '../../src/entries/errors.js'

/** What replay does with a recorded value: encode, write as JSON text, read back, revive. */
function roundTrip(value: unknown, options?: CodecOptions): unknown {
  return decodeJson(JSON.parse(JSON.stringify(encodeJson(value, 'The value', options))), options)
}

class Usage {
  requests = 1
  inputTokens = 10
  constructor(readonly outputTokens: number) {}
  get totalTokens(): number {
    return this.inputTokens + this.outputTokens
  }
}

describe('encodeJson / decodeJson', () => {
  test('SDK values that plain JSON loses come back as the same values', () => {
    const value = {
      timestamp: new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 6)),
      invalidDate: new Date(Number.NaN),
      bytes: new Uint8Array([0, 1, 254, 255]),
      buffer: new Uint8Array([9, 8, 7]).buffer,
      floats: new Float32Array([1.5, -2.25]),
      url: new URL('https://example.test/a?b=c'),
      map: new Map<unknown, unknown>([
        ['a', 1],
        [2, new Date(0)],
      ]),
      set: new Set(['x', 'y']),
      big: 12345678901234567890n,
      notFinite: [Number.NaN, Infinity, -Infinity],
      holes: [1, undefined, 3],
      nested: { deeper: [{ at: new Date(1) }] },
    }
    const back = roundTrip(value) as typeof value
    expect(back).toEqual(value)
    expect(back.timestamp).toBeInstanceOf(Date)
    expect(back.bytes).toBeInstanceOf(Uint8Array)
    expect(back.buffer).toBeInstanceOf(ArrayBuffer)
    expect([...new Uint8Array(back.buffer)]).toEqual([9, 8, 7])
    expect(back.floats).toBeInstanceOf(Float32Array)
    expect(back.url).toBeInstanceOf(URL)
    expect(back.holes).toHaveLength(3)
  })

  test('a Buffer (a Uint8Array view into a shared pool) is recorded by its own bytes only', () => {
    const pooled = Buffer.from('hello')
    expect(roundTrip(pooled)).toEqual(new Uint8Array([104, 101, 108, 108, 111]))
  })

  test('errors keep their name, message, fields and cause', () => {
    const cause = new TypeError('socket closed')
    const error = Object.assign(new Error('Too Many Requests', { cause }), {
      statusCode: 429,
      isRetryable: true,
    })
    error.name = 'AI_APICallError'
    const back = roundTrip(error) as Error & { statusCode: number; isRetryable: boolean }
    expect(back).toBeInstanceOf(Error)
    expect(back).toMatchObject({
      name: 'AI_APICallError',
      message: 'Too Many Requests',
      statusCode: 429,
      isRetryable: true,
    })
    expect(back.cause).toMatchObject({ name: 'TypeError', message: 'socket closed' })
  })

  test('registered classes are revived by prototype: instanceof and getters work again', () => {
    const options = { classes: [{ name: 'Usage', ctor: Usage }] }
    const back = roundTrip({ usage: new Usage(5) }, options) as { usage: Usage }
    expect(back.usage).toBeInstanceOf(Usage)
    expect(back.usage.totalTokens).toBe(15)
    expect(() => decodeJson(encodeJson(new Usage(5), 'x', options))).toThrow(/no class "Usage" is registered/)
  })

  test('an object that owns the tag key is escaped, never mistaken for a tag', () => {
    const tricky = { [CODEC_TAG]: 'Date', value: 'not a date' }
    expect(roundTrip(tricky)).toEqual(tricky)
    expect(roundTrip({ inner: tricky })).toEqual({ inner: tricky })
  })

  test('undefined object fields are dropped, as JSON.stringify drops them', () => {
    expect(encodeJson({ a: 1, b: undefined }, 'x')).toEqual({ a: 1 })
  })

  test('objects with toJSON are recorded as what it returns', () => {
    const decimal = { toJSON: () => '1.50' }
    expect(roundTrip({ price: Object.assign(Object.create({ toJSON: () => '1.50' }) as object) })).toEqual({
      price: '1.50',
    })
    expect(roundTrip([decimal])).toEqual(['1.50'])
  })

  test('what cannot be revived throws a NotJsonError naming where and the path', () => {
    class Opaque {
      secret = 1
    }
    expect(() => encodeJson({ a: [{ fn: () => 1 }] }, 'The result of model "m"')).toThrow(NotJsonError)
    expect(() => encodeJson({ a: [{ fn: () => 1 }] }, 'The result of model "m"')).toThrow(
      'The result of model "m" cannot be recorded: a function at .a[0].fn.',
    )
    expect(() => encodeJson({ at: new Opaque() }, 'The value')).toThrow(
      /an instance of Opaque at \.at, which a JSON recording cannot revive/,
    )
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(() => encodeJson(cycle, 'The value')).toThrow(/circular reference at \.self/)
    expect(() => encodeJson(Symbol('s'), 'The value')).toThrow(/a symbol/)
  })

  test('a shared (non-circular) object may appear twice', () => {
    const shared = { n: 1 }
    expect(roundTrip([shared, shared])).toEqual([{ n: 1 }, { n: 1 }])
  })

  test('a corrupted tag is reported with its path', () => {
    expect(() => decodeJson({ a: { [CODEC_TAG]: 'Date', value: 5 } })).toThrow(
      /at \.a: field "value" must be a string/,
    )
    expect(() => decodeJson([{ [CODEC_TAG]: 'Weird' }])).toThrow(/at \[0\]: unknown tag "Weird"/)
  })

  test('property: any mix of JSON, dates, bytes, maps, sets and tag-like keys survives the round trip', () => {
    const leaf = fc.oneof(
      fc.jsonValue().filter((value) => !Object.is(value, -0)),
      fc.date({ noInvalidDate: true }),
      fc.uint8Array({ maxLength: 16 }),
      fc.bigInt(),
      fc.constantFrom(Number.NaN, Infinity, -Infinity),
    )
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object'), tie('map'), tie('set')),
      array: fc.array(tie('tree'), { maxLength: 4 }),
      object: fc.dictionary(fc.oneof(fc.string(), fc.constant(CODEC_TAG)), tie('tree'), { maxKeys: 4 }),
      map: fc.array(fc.tuple(fc.string(), tie('tree')), { maxLength: 3 }).map((entries) => new Map(entries)),
      set: fc.uniqueArray(fc.string(), { maxLength: 3 }).map((values) => new Set(values)),
    }))
    fc.assert(
      fc.property(tree, (value) => {
        expect(roundTrip(value)).toEqual(value)
      }),
      { seed: 20250101, numRuns: 300 },
    )
  })
})
