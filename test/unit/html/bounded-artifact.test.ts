import { describe, expect, it } from 'vitest'
import { boundArtifact, REPEATED_CHARACTERS, SHOWN_CHARACTERS } from '../../../src/html/bounded-artifact.js'
import { prettyJson } from '../../../src/html/json-text.js'
import type { Artifact } from '../../../src/verdict/schema.js'

// The walk is generic: any artifact-shaped value shows what it does.
const asArtifact = (value: unknown) => value as Artifact

describe('boundArtifact', () => {
  it('cuts a long text at 20,000 characters, then the same text met again at 500, each with a marker', () => {
    const page = `PAGE ${'x'.repeat(1_000_000)}`
    const { artifact, cuts } = boundArtifact(
      asArtifact({ failing: { preamble: [{ result: { body: page } }], output: { quoted: page } } }),
      'reader/page-1a2b3c4d.json',
    )
    expect(cuts).toBe(2)
    const shown = artifact as unknown as {
      failing: { preamble: [{ result: { body: string } }]; output: { quoted: string } }
    }
    const first = shown.failing.preamble[0].result.body
    const again = shown.failing.output.quoted
    expect(first).toBe(
      `${page.slice(0, SHOWN_CHARACTERS)}… [cut: 1,000,005 characters in all; the whole value is in reader/page-1a2b3c4d.json]`,
    )
    expect(again).toBe(
      `${page.slice(0, REPEATED_CHARACTERS)}… [cut: 1,000,005 characters in all, the same text as elsewhere on this page; the whole value is in reader/page-1a2b3c4d.json]`,
    )
  })

  it('keeps texts up to 20,000 characters, and every other value, as they are', () => {
    const value = { a: 'y'.repeat(SHOWN_CHARACTERS), b: [1, null, true, { c: 'short' }] }
    const { artifact, cuts } = boundArtifact(asArtifact(value), 'a.json')
    expect(cuts).toBe(0)
    expect(artifact).toEqual(value)
  })

  it('never splits a surrogate pair at the cut', () => {
    const text = `${'a'.repeat(SHOWN_CHARACTERS - 1)}😀${'b'.repeat(SHOWN_CHARACTERS)}`
    const { artifact } = boundArtifact(asArtifact({ text }), 'a.json')
    expect(
      (artifact as unknown as { text: string }).text.startsWith(`${'a'.repeat(SHOWN_CHARACTERS - 1)}…`),
    ).toBe(true)
  })

  it('keeps an own key named __proto__ as data, without touching any prototype', () => {
    const value = JSON.parse('{"__proto__":{"admin":true},"text":"hi"}') as unknown
    const { artifact } = boundArtifact(asArtifact(value), 'a.json')
    expect(Object.keys(artifact)).toEqual(['__proto__', 'text'])
    expect(JSON.stringify(artifact)).toBe('{"__proto__":{"admin":true},"text":"hi"}')
    expect(Object.getPrototypeOf(artifact)).toBe(Object.prototype)
    expect(({} as { admin?: boolean }).admin).toBeUndefined()
  })
})

describe('prettyJson', () => {
  it('cuts a block of many short parts at 100,000 characters, saying how long it was', () => {
    const numbers = Array.from({ length: 100_000 }, (_, i) => i)
    const full = JSON.stringify(numbers, null, 2)
    const text = prettyJson(numbers)
    expect(text).toBe(
      `${full.slice(0, 100_000)}\n… [cut: ${full.length.toLocaleString('en-US')} characters in all; the JSON artifact holds the whole value]`,
    )
    expect(prettyJson([1, 2])).toBe('[\n  1,\n  2\n]')
  })
})
