import type { Json } from '../json.js'

/** A JSON value as indented text for a `<pre>` block; `undefined` (no value recorded) as "(none)". */
export function prettyJson(value: Json | undefined): string {
  return value === undefined ? '(none)' : JSON.stringify(value, null, 2)
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
