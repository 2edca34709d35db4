import { canonicalJson, type Json, type JsonObject } from '../json.js'

/** A step entry's one line: the adapter's summary when it gave one, else the start of the action. */
export function stepSummary(action: Json, meta: JsonObject | undefined): string {
  const summary = meta?.['summary']
  return typeof summary === 'string' ? summary : shortJson(action)
}

/** A value as canonical JSON, cut to 80 characters. */
export function shortJson(value: Json): string {
  const text = canonicalJson(value)
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`
}
