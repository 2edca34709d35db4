import type { Json } from '../json.js'

// A value of many short parts (a long array of numbers) is not cut by the page's cut of long
// texts: its block is cut here instead.
const PRETTY_CHARACTERS = 100_000

/**
 * A JSON value as indented text for a `<pre>` block; `undefined` (no value recorded) as "(none)".
 * Text past 100,000 characters is cut, with a marker that says how long it was.
 */
export function prettyJson(value: Json | undefined): string {
  if (value === undefined) return '(none)'
  const text = JSON.stringify(value, null, 2)
  if (text.length <= PRETTY_CHARACTERS) return text
  return `${text.slice(0, PRETTY_CHARACTERS)}\n… [cut: ${text.length.toLocaleString('en-US')} characters in all; the JSON artifact holds the whole value]`
}

/**
 * A JSON value on one line, cut to `maxLength` characters with an ellipsis: `"refund"`,
 * `{"orderId":"A-1001",…}`. For table cells and chart labels, where a whole LLM reply would not fit.
 */
export function jsonSummary(value: Json | undefined, maxLength = 48): string {
  return cutEnd(value === undefined ? '(none)' : JSON.stringify(value), maxLength)
}

/** `text`, cut to `maxLength` characters with an ellipsis at the end. */
export function cutEnd(text: string, maxLength: number): string {
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 1)}…`
}
