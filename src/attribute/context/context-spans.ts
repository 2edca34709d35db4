import type { TextSpan } from '../context-schema.js'

/** How a part's text is cut for refinement. */
export type TextUnit = 'sentence' | 'line'

/** A part's text cut into consecutive units that cover it. */
export interface TextUnits {
  unit: TextUnit
  /** Consecutive spans: unit i ends where unit i + 1 starts, and together they cover the text. */
  spans: TextSpan[]
}

/**
 * Cuts `text` into the units refinement removes: lines when the text has two or more non-blank
 * lines (a list, a document, tool output), else sentences. Each unit carries the whitespace after
 * it, so removing units [i, j) leaves the text around them as it was. A sentence ends at `.`, `!`
 * or `?` (with any closing quotes or brackets) followed by whitespace; abbreviations may split a
 * sentence in two, which only makes the search finer.
 */
export function splitUnits(text: string): TextUnits {
  const lines = text.split('\n').filter((line) => line.trim() !== '')
  if (lines.length >= 2) return { unit: 'line', spans: cut(text, /\n+/g) }
  return { unit: 'sentence', spans: cut(text, /(?<=[.!?]["')\]]*)\s+/g) }
}

/**
 * Cuts a text made of several leaves (joined by `separator`) leaf by leaf: each leaf into its own
 * lines or sentences as {@link splitUnits} cuts it, so a sentence inside one field of a tool's JSON
 * output is a unit of its own. The separator after a leaf belongs to that leaf's last unit. The unit
 * is `sentence` when every leaf was cut into sentences, else `line`. One leaf: `splitUnits`.
 */
export function splitLeafUnits(leaves: readonly string[], separator: string): TextUnits {
  if (leaves.length === 1) return splitUnits(leaves[0] as string)
  const spans: TextSpan[] = []
  let unit: TextUnit = 'sentence'
  let offset = 0
  for (const leaf of leaves) {
    const units = splitUnits(leaf)
    if (units.unit === 'line') unit = 'line'
    const [first] = units.spans
    const previous = spans[spans.length - 1]
    // The separators (and empty leaves) before this leaf close the previous unit.
    if (first !== undefined && previous !== undefined) previous.end = offset + first.start
    for (const span of units.spans) spans.push({ start: offset + span.start, end: offset + span.end })
    offset += leaf.length + separator.length
  }
  const [first] = spans
  if (first !== undefined) first.start = 0
  const last = spans[spans.length - 1]
  if (last !== undefined) last.end = Math.max(last.end, offset - separator.length)
  return { unit, spans }
}

/** Spans of `text` ending after each match of `boundary` (and at the end), leading space joined to the first. */
function cut(text: string, boundary: RegExp): TextSpan[] {
  const spans: TextSpan[] = []
  let start = 0
  for (const match of text.matchAll(boundary)) {
    const end = match.index + match[0].length
    // A boundary at the very start (leading whitespace) belongs to the first unit.
    if (text.slice(start, match.index).trim() === '') continue
    spans.push({ start, end })
    start = end
  }
  if (start < text.length) {
    if (spans.length > 0 && text.slice(start).trim() === '') {
      const last = spans[spans.length - 1] as TextSpan
      last.end = text.length
    } else {
      spans.push({ start, end: text.length })
    }
  }
  return spans
}

/** The text span covering units [from, to). */
export function unitRange(units: TextUnits, from: number, to: number): TextSpan {
  const first = units.spans[from]
  const last = units.spans[to - 1]
  if (first === undefined || last === undefined || from >= to) {
    throw new RangeError(`unitRange: [${from}, ${to}) is not a range of ${units.spans.length} units.`)
  }
  return { start: first.start, end: last.end }
}
