import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { escapeHtml, hrefForRelativePath, jsonForScript } from '../../../src/html/escape.js'
import { markup, trusted } from '../../../src/html/markup.js'

describe('escapeHtml', () => {
  it('escapes the five characters that can open markup or end an attribute', () => {
    expect(escapeHtml(`<script>alert("x" + 'y')</script> & more`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; + &#39;y&#39;)&lt;/script&gt; &amp; more',
    )
  })

  it('leaves no raw markup character in any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(escapeHtml(text)).not.toMatch(/[<>"']/)
      }),
    )
  })
})

describe('escapeHtml of control characters', () => {
  it('shows bidi and other controls as visible escapes, keeps line feeds and tabs', () => {
    expect(escapeHtml('{"refund":"\u202eeurt"}\u2066<b>\u2069\n\t')).toBe(
      '{&quot;refund&quot;:&quot;\\u202eeurt&quot;}\\u2066&lt;b&gt;\\u2069\n\t',
    )
    expect(escapeHtml('\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2067\u2068\u001b')).toBe(
      '\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u2067\\u2068\\u001b',
    )
  })

  it('leaves no raw bidi control in any string, markup interpolation included', () => {
    const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(escapeHtml(text)).not.toMatch(bidi)
        expect(markup`<td>${text}</td>`.source).not.toMatch(bidi)
      }),
    )
  })
})

describe('jsonForScript', () => {
  it('cannot end its script element and parses back to the same value', () => {
    const value = {
      action: '</script><script>window.__pwned = true</script>',
      note: '<!-- a & b -->\u2028\u2029',
    }
    const text = jsonForScript(value)
    expect(text).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(text)).toEqual(value)
  })

  it('writes bidi and C1 controls as JSON escapes that parse back to them', () => {
    const value = { action: 'refund: \u202eeslaf\u2069', name: '\u0085\u007f' }
    const text = jsonForScript(value)
    expect(text).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    expect(text).toContain('\\u202e')
    expect(JSON.parse(text)).toEqual(value)
  })

  it('round-trips any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = jsonForScript(value)
        expect(text).not.toContain('<')
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)))
      }),
    )
  })
})

describe('hrefForRelativePath', () => {
  it('percent-encodes each segment so a name stays one relative link', () => {
    expect(hrefForRelativePath('support/rarely refunds #1?.html')).toBe(
      'support/rarely%20refunds%20%231%3F.html',
    )
    expect(hrefForRelativePath('javascript:alert(1)')).toBe('javascript%3Aalert(1)')
    expect(hrefForRelativePath('a\\b/../c.json')).toBe('a/b/../c.json')
  })
})

describe('markup', () => {
  it('escapes interpolated text and keeps nested markup', () => {
    const name = '<img src=x onerror=alert(1)>'
    const page = markup`<p title="${name}">${name} ${markup`<b>${name}</b>`} ${[1, 'a<', null, false, undefined]}</p>`
    expect(page.source).toBe(
      '<p title="&lt;img src=x onerror=alert(1)&gt;">&lt;img src=x onerror=alert(1)&gt; <b>&lt;img src=x onerror=alert(1)&gt;</b> 1a&lt;</p>',
    )
  })

  it('inserts trusted markup verbatim', () => {
    expect(markup`<style>${trusted('a > b {}')}</style>`.source).toBe('<style>a > b {}</style>')
  })
})
