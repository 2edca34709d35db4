import type { Json } from '../json.js'

/** What a stored call is made of, as a {@link CassetteRedactor} is told. */
export type CassettePart = 'request' | 'action' | 'meta' | 'tool-args' | 'tool-result'

/** A function that returns what to store of `value` (one part of a call) in place of it. */
export type CassetteRedactor = (value: Json, part: CassettePart) => Json

/**
 * What a cassette writes in place of secrets: a list of object keys whose values are replaced
 * wherever they occur (case-insensitive, at any depth), or a function applied to each part.
 */
export type CassetteRedact = readonly string[] | CassetteRedactor

/** What a redacted key's value is stored as. */
export const REDACTED = '[redacted]'

/**
 * The redaction `redact` describes as one function, or undefined for none. Keys are matched
 * case-insensitively: providers spell the same header `Authorization` and `authorization`.
 */
export function redactorOf(redact: CassetteRedact | undefined): CassetteRedactor | undefined {
  if (redact === undefined) return undefined
  if (typeof redact === 'function') return redact
  if (redact.length === 0) return undefined
  const keys = new Set(redact.map((key) => key.toLowerCase()))
  return (value) => redactKeys(value, keys)
}

function redactKeys(value: Json, keys: ReadonlySet<string>): Json {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => redactKeys(item, keys))
  const out: Record<string, Json> = {}
  for (const [key, item] of Object.entries(value))
    out[key] = keys.has(key.toLowerCase()) ? REDACTED : redactKeys(item as Json, keys)
  return out
}
