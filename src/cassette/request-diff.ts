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
  const lines = changes.slice(0, SHOWN_CHANGES).map((change) => {
    // Two long strings that share a start are shown from just before where they part: a word
    // added at the end of a prompt is the change, not the prompt's first line.
    const from = partingPoint(change.old, change.new)
    return `${change.path}: ${shorten(change.old, from)} → ${shorten(change.new, from)}`
  })
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

/** Characters of shared start kept before the point where two strings part. */
const SHARED_CONTEXT = 20

/** Where to start showing two strings (in their JSON text): 0, or a little before they first differ. */
function partingPoint(a: Json | undefined, b: Json | undefined): number {
  if (typeof a !== 'string' || typeof b !== 'string') return 0
  const left = JSON.stringify(a)
  const right = JSON.stringify(b)
  if (left.length <= SHOWN_CHARACTERS && right.length <= SHOWN_CHARACTERS) return 0
  let shared = 0
  while (shared < left.length && left[shared] === right[shared]) shared++
  return shared > SHARED_CONTEXT + SHOWN_CHARACTERS / 2 ? shared - SHARED_CONTEXT : 0
}

function shorten(value: Json | undefined, from = 0): string {
  if (value === undefined) return '∅'
  const text = JSON.stringify(value)
  const shown = from === 0 ? text : `…${text.slice(from)}`
  return shown.length <= SHOWN_CHARACTERS ? shown : `${shown.slice(0, SHOWN_CHARACTERS - 1)}…`
}
