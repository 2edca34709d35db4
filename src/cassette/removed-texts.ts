import { setJsonKey, type Json } from '../json.js'
import { REDACTED } from './redact.js'

/**
 * Removed texts shorter than this are not scrubbed from other strings: replacing every `"1"` or
 * `"id"` of a report would garble it while hiding nothing worth hiding. Values of redacted keys
 * are redacted whatever their length; only the search in derived text stops here.
 */
export const SHORTEST_SCRUBBED = 4

/**
 * The texts a redaction took out of values, to scrub from strings that were derived from those
 * values before they were redacted: a step's summary quotes its tool call's arguments, a context
 * part's text is a message's content, an error message may quote an argument. Each such string
 * gets every removed text (and its JSON-escaped form) replaced by `[redacted]`.
 */
export class RemovedTexts {
  private readonly texts = new Set<string>()
  // Longest first, so a removed text that contains another is replaced whole.
  private sorted: string[] | undefined

  /** Notes what a redaction removed from `raw` to give `redacted`. */
  note(raw: Json, redacted: Json): void {
    this.compare(raw, redacted)
  }

  /** `text` with every noted text in it replaced by `[redacted]`. */
  scrub(text: string): string {
    if (this.texts.size === 0) return text
    this.sorted ??= [...this.texts].sort((a, b) => b.length - a.length)
    let scrubbed = text
    for (const removed of this.sorted)
      if (scrubbed.includes(removed)) scrubbed = scrubbed.replaceAll(removed, REDACTED)
    return scrubbed
  }

  /** `value` with every string in it scrubbed (the same value when nothing changed). */
  scrubJson(value: Json): Json {
    if (this.texts.size === 0) return value
    if (typeof value === 'string') return this.scrub(value)
    if (value === null || typeof value !== 'object') return value
    if (Array.isArray(value)) return value.map((item) => this.scrubJson(item))
    const out: { [key: string]: Json } = {}
    for (const key of Object.keys(value)) setJsonKey(out, key, this.scrubJson(value[key] as Json))
    return out
  }

  private compare(raw: Json, redacted: Json | undefined): void {
    if (raw === redacted) return
    if (typeof raw === 'string') {
      if (typeof redacted !== 'string') return this.add(raw)
      // A JSON text redacted inside (tool-call arguments) is written back reformatted: compare values.
      const inner = parsedContainer(raw)
      const innerRedacted = inner === undefined ? undefined : parsedContainer(redacted)
      if (inner !== undefined && innerRedacted !== undefined) return this.compare(inner, innerRedacted)
      return this.add(changedMiddle(raw, redacted))
    }
    if (raw === null || typeof raw !== 'object') {
      // A number is text in a summary; true, false and null say nothing secret.
      if (typeof raw === 'number') this.add(String(raw))
      return
    }
    if (
      redacted === null ||
      redacted === undefined ||
      typeof redacted !== 'object' ||
      Array.isArray(raw) !== Array.isArray(redacted)
    ) {
      for (const leaf of leaves(raw)) this.compare(leaf, undefined)
      return
    }
    if (Array.isArray(raw)) {
      const other = redacted as Json[]
      raw.forEach((item, i) => this.compare(item, other[i]))
      return
    }
    const other = redacted as { [key: string]: Json }
    for (const key of Object.keys(raw))
      this.compare(raw[key] as Json, Object.hasOwn(other, key) ? other[key] : undefined)
  }

  private add(text: string): void {
    if (text.length < SHORTEST_SCRUBBED) return
    this.texts.add(text)
    const escaped = JSON.stringify(text).slice(1, -1)
    if (escaped !== text) this.texts.add(escaped)
    this.sorted = undefined
  }
}

/** The part of `raw` that differs from `redacted`: what is left once their shared start and end are cut. */
function changedMiddle(raw: string, redacted: string): string {
  const shortest = Math.min(raw.length, redacted.length)
  let start = 0
  while (start < shortest && raw[start] === redacted[start]) start++
  let end = 0
  while (end < shortest - start && raw[raw.length - 1 - end] === redacted[redacted.length - 1 - end]) end++
  return raw.slice(start, raw.length - end)
}

/** The object or array a string holds as JSON text, if it holds one. */
function parsedContainer(text: string): Json | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined
  try {
    return JSON.parse(text) as Json
  } catch {
    return undefined
  }
}

function* leaves(value: Json): Generator<Json> {
  if (value === null || typeof value !== 'object') yield value
  else for (const item of Array.isArray(value) ? value : Object.values(value)) yield* leaves(item)
}
