import { hash, createHash } from 'node:crypto'
import type { Json } from '../json.js'

// A chunk is handed on once it reaches this many characters: large enough that the per-chunk cost
// (a hash update, a stream write) is noise, small enough that a 200 MB value never exists as one
// string on the way to the file or the hash.
const CHUNK_CHARACTERS = 1 << 20

/**
 * The canonical JSON of `value` (see `canonicalJson`: compact, object keys sorted) as a sequence of
 * chunks whose concatenation is that text, each about 1 Mi characters. A value too large for one
 * string (V8 caps strings at about 512 Mi characters) can be hashed and written this way; a long
 * string inside it is escaped in slices, so even it never exists twice in memory whole.
 */
export function* canonicalJsonChunks(value: Json): Generator<string, void, undefined> {
  const pending = { text: '' }
  yield* emit(value, pending)
  if (pending.text !== '') yield pending.text
}

/** What {@link canonicalJsonDigest} returns. */
export interface CanonicalJsonDigest {
  /** SHA-256 over the canonical JSON, hex. */
  sha256: string
  /** The canonical JSON's length in characters (UTF-16 code units, as `String#length` counts). */
  length: number
}

/** SHA-256 and length of `value`'s canonical JSON, computed chunk by chunk (see {@link canonicalJsonChunks}). */
export function canonicalJsonDigest(value: Json): CanonicalJsonDigest {
  const chunks = canonicalJsonChunks(value)
  const first = chunks.next()
  const firstText = first.done === true ? '' : first.value
  const second = chunks.next()
  // Nearly every value is one chunk: one-shot `hash` is 2–3× faster than a Hash object on short text.
  if (second.done === true) return { sha256: hash('sha256', firstText, 'hex'), length: firstText.length }
  const sha = createHash('sha256').update(firstText).update(second.value)
  let length = firstText.length + second.value.length
  for (const chunk of chunks) {
    sha.update(chunk)
    length += chunk.length
  }
  return { sha256: sha.digest('hex'), length }
}

/** Appends `value`'s canonical JSON to `pending.text`, yielding (and emptying) it after any member that fills it. */
function* emit(value: Json, pending: { text: string }): Generator<string, void, undefined> {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'string' && value.length > CHUNK_CHARACTERS) yield* emitLongString(value, pending)
    else pending.text += JSON.stringify(value)
  } else if (Array.isArray(value)) {
    pending.text += '['
    for (let i = 0; i < value.length; i++) {
      if (i > 0) pending.text += ','
      yield* emitItem(value[i] as Json, pending)
      if (pending.text.length >= CHUNK_CHARACTERS) yield take(pending)
    }
    pending.text += ']'
  } else {
    // Sorted as `canonicalJson` sorts them (UTF-16 order), own enumerable keys, `__proto__` included.
    const keys = Object.keys(value).sort()
    pending.text += '{'
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string
      pending.text += `${i > 0 ? ',' : ''}${JSON.stringify(key)}:`
      yield* emitItem(value[key] as Json, pending)
      if (pending.text.length >= CHUNK_CHARACTERS) yield take(pending)
    }
    pending.text += '}'
  }
}

/** The pending text, emptied. */
function take(pending: { text: string }): string {
  const text = pending.text
  pending.text = ''
  return text
}

/** One member of an array or object: short primitives inline, without a generator of their own. */
function* emitItem(item: Json, pending: { text: string }): Generator<string, void, undefined> {
  if (item !== null && typeof item === 'object') yield* emit(item, pending)
  else if (typeof item === 'string' && item.length > CHUNK_CHARACTERS) yield* emitLongString(item, pending)
  else pending.text += JSON.stringify(item)
}

/** A string longer than a chunk, escaped slice by slice. */
function* emitLongString(text: string, pending: { text: string }): Generator<string, void, undefined> {
  pending.text += '"'
  let start = 0
  while (start < text.length) {
    let end = Math.min(start + CHUNK_CHARACTERS, text.length)
    // Never split a surrogate pair: each half alone would be escaped as `\udXXX`, not copied.
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--
    // Handed on as it is: joined to the pending text, each megabyte would be copied once more.
    if (pending.text !== '') yield take(pending)
    yield JSON.stringify(text.slice(start, end)).slice(1, -1)
    start = end
  }
  pending.text += '"'
}
