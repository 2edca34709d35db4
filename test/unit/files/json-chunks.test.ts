import { hash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { canonicalJsonChunks, canonicalJsonDigest } from '../../../src/files/json-chunks.js'
import { canonicalJson, type Json } from '../../../src/json.js'

const CHUNK = 1 << 20

const ordinary: Json[] = [
  null,
  true,
  0,
  -1.5e-7,
  'plain',
  'quotes " and \\ and \n and \u2028 and \u0001',
  'emoji 😀 and a lone surrogate \ud800',
  [],
  {},
  [1, 'two', { z: 1, a: [null, false] }],
  { b: { d: 1, c: 2 }, a: [{ y: 2, x: 1 }], é: 'accent', A: 'capital', '10': 'digits', '9': 'digit' },
]

describe('canonicalJsonChunks', () => {
  it.each(ordinary.map((value) => [JSON.stringify(value), value]))(
    'joins to canonicalJson for %s, in one chunk',
    (_name, value) => {
      const chunks = [...canonicalJsonChunks(value)]
      expect(chunks).toHaveLength(1)
      expect(chunks.join('')).toBe(canonicalJson(value))
    },
  )

  it('keeps an own "__proto__" key, as canonicalJson does', () => {
    const value = JSON.parse('{"__proto__":{"admin":true},"text":"hi"}') as Json
    expect([...canonicalJsonChunks(value)].join('')).toBe('{"__proto__":{"admin":true},"text":"hi"}')
    expect([...canonicalJsonChunks(value)].join('')).toBe(canonicalJson(value))
  })

  it('cuts a long array into chunks of about 1 Mi characters that join to the same text', () => {
    const value: Json = Array.from({ length: 300_000 }, (_, i) => ({ b: i, a: `item ${i}` }))
    const chunks = [...canonicalJsonChunks(value)]
    expect(chunks.length).toBeGreaterThan(3)
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(CHUNK + 100)
    expect(chunks.join('')).toBe(canonicalJson(value))
  })

  it('escapes a long string slice by slice, never splitting a surrogate pair at a slice edge', () => {
    // The pair straddles the first slice's end: split, each half would be escaped as \udXXX.
    const text = `${'a'.repeat(CHUNK - 1)}😀"\n${'b'.repeat(CHUNK + 5)}\ud83d`
    const chunks = [...canonicalJsonChunks({ text })]
    expect(chunks.length).toBeGreaterThanOrEqual(3)
    expect(chunks.join('')).toBe(canonicalJson({ text }))
    expect(chunks.join('')).toContain('😀')
  })
})

describe('canonicalJsonDigest', () => {
  it('is SHA-256 and length of canonicalJson, for one chunk and for many', () => {
    const small: Json = { b: 1, a: 'two' }
    const large: Json = { list: Array.from({ length: 200_000 }, (_, i) => `value ${i}`) }
    for (const value of [small, large]) {
      const text = canonicalJson(value)
      expect(canonicalJsonDigest(value)).toEqual({ sha256: hash('sha256', text, 'hex'), length: text.length })
    }
  })
})
