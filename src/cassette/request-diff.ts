import diff from 'microdiff'
import { canonicalJson, type Json } from '../json.js'

/** At most this many changed paths are listed. */
const SHOWN_CHANGES = 4
/** Each side of a change is cut to this many characters. */
const SHOWN_CHARACTERS = 60

/** How many paths differ between two requests (0: equal). */
export function requestDistance(stored: Json | undefined, current: Json | undefined): number {
  return requestChanges(stored, current).length
}

/**
 * The changes from `stored` to `current`, one line each: `path: old → new`, both sides as short
 * JSON (`∅` where a side is absent), at most four lines and a count of the rest.
 */
export function describeRequestDiff(stored: Json | undefined, current: Json | undefined): string[] {
  const changes = requestChanges(stored, current)
  const lines = changes
    .slice(0, SHOWN_CHANGES)
    .map((change) => `${change.path}: ${shorten(change.old)} → ${shorten(change.new)}`)
  if (changes.length > SHOWN_CHANGES) lines.push(`… and ${changes.length - SHOWN_CHANGES} more`)
  return lines
}

interface RequestChange {
  path: string
  old: Json | undefined
  new: Json | undefined
}

function requestChanges(stored: Json | undefined, current: Json | undefined): RequestChange[] {
  if (!isContainer(stored) || !isContainer(current)) {
    return canonicalJson(stored ?? null) === canonicalJson(current ?? null)
      ? []
      : [{ path: '(request)', old: stored, new: current }]
  }
  return diff(stored, current).map((change) => ({
    path: change.path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`))
      .join('')
      .replace(/^\./, ''),
    old: change.type === 'CREATE' ? undefined : (change.oldValue as Json),
    new: change.type === 'REMOVE' ? undefined : (change.value as Json),
  }))
}

function isContainer(value: Json | undefined): value is Record<string, Json> | Json[] {
  return typeof value === 'object' && value !== null
}

function shorten(value: Json | undefined): string {
  if (value === undefined) return '∅'
  const text = JSON.stringify(value)
  return text.length <= SHOWN_CHARACTERS ? text : `${text.slice(0, SHOWN_CHARACTERS - 1)}…`
}
