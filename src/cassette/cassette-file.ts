import { constants } from 'node:buffer'
import { existsSync } from 'node:fs'
import { InvalidFileError } from '../errors.js'
import { removeStaleTemporaries, writeFileAtomically } from '../files/atomic-write.js'
import { lockFile } from '../files/file-lock.js'
import { canonicalJsonChunks, canonicalJsonDigest } from '../files/json-chunks.js'
import { parseJsonFile, parseJsonValue } from '../files/json-file.js'
import { setJsonKey, type Json } from '../json.js'
import {
  CASSETTE_SCHEMA,
  CASSETTE_SCHEMA_V1,
  CassetteFileSchema,
  CassetteFileV2Schema,
  type CassetteEntry,
  type CassetteFileV2,
  type StepEntry,
  type ToolEntry,
} from './schema.js'
import { CassetteTooLargeError } from './too-large-error.js'

/**
 * The entries of a cassette file (either version), their values resolved, or an empty map when it
 * does not exist. A bad file throws, naming the field; so does an entry whose digest is not in
 * `values`.
 */
export async function readCassetteFile(file: string): Promise<Map<string, CassetteEntry>> {
  if (!existsSync(file)) return new Map()
  try {
    const parsed = await parseJsonFile(file, CassetteFileSchema, 'cassette')
    if (parsed.schema === CASSETTE_SCHEMA_V1) return new Map(Object.entries(parsed.entries))
    return resolveEntries(parsed, file)
  } catch (error) {
    if (!(error instanceof InvalidFileError)) throw error
    throw new InvalidFileError(
      `${error.message}\nThe cassette was left unchanged. Fix it, or delete it to record every call again.`,
      file,
    )
  }
}

/** The entries of a current file with each digest replaced by its value. */
function resolveEntries(parsed: CassetteFileV2, file: string): Map<string, CassetteEntry> {
  const { values } = parsed
  const entries = new Map<string, CassetteEntry>()
  for (const [key, stored] of Object.entries(parsed.entries)) {
    const value = (field: string, ref: string): Json => {
      const found = values[ref]
      if (found === undefined) {
        throw new InvalidFileError(
          `Invalid cassette in ${file}:\n✖ entries["${key}"].${field}: no value ${ref} in values`,
          file,
        )
      }
      return found
    }
    if (stored.kind === 'tool') {
      const entry: ToolEntry = {
        kind: 'tool',
        tool: stored.tool,
        stream: stored.stream,
        args: value('args', stored.args),
      }
      if (stored.result !== undefined) entry.result = value('result', stored.result)
      entries.set(key, entry)
      continue
    }
    const entry: StepEntry = {
      kind: 'step',
      name: stored.name,
      stream: stored.stream,
      summary: stored.summary,
      action: value('action', stored.action),
    }
    if (stored.model !== undefined) entry.model = stored.model
    if (stored.request !== undefined) entry.request = value('request', stored.request)
    if (stored.meta !== undefined) {
      const meta = value('meta', stored.meta)
      if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
        throw new InvalidFileError(
          `Invalid cassette in ${file}:\n✖ entries["${key}"].meta: value ${stored.meta} is not an object`,
          file,
        )
      }
      entry.meta = meta
    }
    entries.set(key, entry)
  }
  return entries
}

/**
 * The text of a cassette: entries sorted by key, each with its fields in schema order and its
 * requests, responses and tool values replaced by digests into `values`, where each distinct value
 * is stored once, on one line (keys sorted, as is every object inside); two-space indented, ending
 * in a newline.
 * The same entries always give the same bytes, so a re-recorded call shows in review as a change
 * of that entry (and of the values only it used). {@link saveCassetteFile} writes the same text in
 * chunks, for files of any size.
 */
export function formatCassette(entries: ReadonlyMap<string, CassetteEntry>): string {
  return [...layOutCassette(entries, new Map()).chunks()].join('')
}

/** A distinct value of a cassette: its digest and its canonical JSON's length. */
interface StoredValue {
  /** Its address in `values`: the first 32 hex digits of SHA-256 over its canonical JSON. */
  ref: string
  value: Json
  length: number
}

/** A cassette laid out for writing: its head (schema and entries) as text, its values by digest. */
interface CassetteLayout {
  /** The digests of each entry's values, by entry key. */
  refs: ReadonlyMap<string, readonly string[]>
  values: ReadonlyMap<string, StoredValue>
  /** The text's length in characters (UTF-16 code units, as a string read back from it has). */
  length: number
  /** The text, in chunks whose concatenation it is (a value in chunks of about 1 Mi characters). */
  chunks(): Generator<string, void, undefined>
}

/**
 * Digests every value of `entries` (once per value: `digests` remembers them across the layouts
 * of one save) and builds the head. A value is never turned into one string: it is hashed, then
 * written, chunk by chunk, so any value that fits in memory can be stored.
 */
function layOutCassette(
  entries: ReadonlyMap<string, CassetteEntry>,
  digests: Map<Json, StoredValue>,
): CassetteLayout {
  const values = new Map<string, StoredValue>()
  const refs = new Map<string, string[]>()
  const sortedEntries: Record<string, Json> = {}
  for (const key of [...entries.keys()].sort()) {
    const entryRefs: string[] = []
    const store = (value: Json): string => {
      let stored = digests.get(value)
      if (stored === undefined) {
        const digest = canonicalJsonDigest(value)
        stored = { ref: digest.sha256.slice(0, 32), value, length: digest.length }
        digests.set(value, stored)
      }
      values.set(stored.ref, stored)
      entryRefs.push(stored.ref)
      return stored.ref
    }
    sortedEntries[key] = storedEntry(entries.get(key) as CassetteEntry, store)
    refs.set(key, entryRefs)
  }
  const file = parseJsonValue(
    { schema: CASSETTE_SCHEMA, entries: sortedEntries },
    CassetteHeadSchema,
    'cassette',
  )
  const entriesText = JSON.stringify({ schema: file.schema, entries: file.entries }, null, 2).slice(0, -2)
  const head = `${entriesText},\n  "values": `
  const sorted = [...values.values()].sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0))
  // Each value on one line: a value never changes in place (a changed request is another digest,
  // another line), so indenting it would only double the file without making a diff smaller.
  const linePrefix = (index: number, ref: string) =>
    `${index === 0 ? '{\n' : ',\n'}    ${JSON.stringify(ref)}: `
  const tail = `${sorted.length === 0 ? '{}' : '\n  }'}\n}\n`
  let length = head.length + tail.length
  sorted.forEach((stored, index) => (length += linePrefix(index, stored.ref).length + stored.length))
  return {
    refs,
    values,
    length,
    *chunks() {
      yield head
      for (const [index, stored] of sorted.entries()) {
        yield linePrefix(index, stored.ref)
        yield* canonicalJsonChunks(stored.value)
      }
      yield tail
    },
  }
}

/** The schema and entries of a current file, validated before writing (the values are JSON by construction). */
const CassetteHeadSchema = CassetteFileV2Schema.pick({ schema: true, entries: true })

/** What a save does to the file: entries to add or overwrite, and which stored ones to keep. */
export interface CassetteChanges {
  /** Entries recorded by this process: they replace stored entries of the same key. */
  put: ReadonlyMap<string, CassetteEntry>
  /** Undefined: keep every stored entry (merge). A set: keep only stored entries with these keys (prune). */
  keep: ReadonlySet<string> | undefined
}

/**
 * The most characters a cassette may hold: V8's longest string, so that the next run can read it
 * back (`readFile` gives the file as one string).
 */
export const MAX_CASSETTE_CHARACTERS = constants.MAX_STRING_LENGTH

/**
 * Applies `changes` to `file` under an exclusive lock (`<file>.lock`, proper-lockfile): it reads
 * what is on disk now, merges, and writes the result atomically, so two workers (or two test files
 * sharing one cassette) each keep the other's entries, and an interrupted run leaves either the old
 * file or the new one (the temporary files of writers killed earlier are removed here). The text is
 * written in chunks, never built whole. Writes nothing when the bytes would not change. Returns
 * whether it wrote.
 *
 * A file longer than `maxCharacters` (default {@link MAX_CASSETTE_CHARACTERS}) could not be read
 * back: this run's entries with the largest values are left out until it fits, the rest is written,
 * and then a {@link CassetteTooLargeError} names each entry left out and its size. A directory where
 * the lock cannot be created fails at once, without the retries meant for a lock held elsewhere.
 */
export async function saveCassetteFile(
  file: string,
  changes: CassetteChanges,
  maxCharacters: number = MAX_CASSETTE_CHARACTERS,
): Promise<boolean> {
  const release = await lockFile(file)
  try {
    await removeStaleTemporaries(file)
    const stored = await readCassetteFile(file)
    const merged = new Map<string, CassetteEntry>()
    for (const [key, entry] of stored)
      if (changes.keep === undefined || changes.keep.has(key)) merged.set(key, entry)
    for (const [key, entry] of changes.put) merged.set(key, entry)
    const digests = new Map<Json, StoredValue>()
    let layout = layOutCassette(merged, digests)
    const leftOut: TooLargeEntry[] = []
    for (
      let largest = largestNewEntry(layout, changes.put);
      // An entry whose values others use too would free nothing: it stays.
      layout.length > maxCharacters && largest !== undefined && largest.length > 0;
      largest = largestNewEntry(layout, changes.put)
    ) {
      merged.delete(largest.key)
      leftOut.push({ entry: changes.put.get(largest.key) as CassetteEntry, length: largest.length })
      layout = layOutCassette(merged, digests)
    }
    if (layout.length > maxCharacters)
      throw new CassetteTooLargeError(
        tooLargeMessage(file, leftOut, { length: layout.length }, maxCharacters),
      )
    const existed = existsSync(file)
    const wrote =
      (existed || merged.size > 0) &&
      (await writeFileAtomically(file, layout.chunks(), { unlessUnchanged: existed }))
    if (leftOut.length > 0) {
      const written = { written: merged.size }
      throw new CassetteTooLargeError(tooLargeMessage(file, leftOut, written, maxCharacters))
    }
    return wrote
  } finally {
    await release()
  }
}

/** An entry of this run left out of a cassette that would have been too large to read back. */
interface TooLargeEntry {
  entry: CassetteEntry
  /** The characters its values alone would have added. */
  length: number
}

/** The entry of `put` whose own values (those no other entry uses) take the most characters. */
function largestNewEntry(
  layout: CassetteLayout,
  put: ReadonlyMap<string, CassetteEntry>,
): { key: string; length: number } | undefined {
  const users = new Map<string, number>()
  for (const refs of layout.refs.values())
    for (const ref of new Set(refs)) users.set(ref, (users.get(ref) ?? 0) + 1)
  let largest: { key: string; length: number } | undefined
  for (const [key, refs] of layout.refs) {
    if (!put.has(key)) continue
    let length = 0
    for (const ref of new Set(refs)) if (users.get(ref) === 1) length += layout.values.get(ref)?.length ?? 0
    if (largest === undefined || length > largest.length) largest = { key, length }
  }
  return largest
}

/**
 * The message of a {@link CassetteTooLargeError}: `outcome` is the file's length when nothing could
 * be written, else how many entries the file holds.
 */
function tooLargeMessage(
  file: string,
  leftOut: readonly TooLargeEntry[],
  outcome: { length: number } | { written: number },
  maxCharacters: number,
): string {
  const limit = `${millions(maxCharacters)} characters, the longest text Node.js can read it back as`
  const lines = leftOut.map(
    ({ entry, length }) => `  ${describeEntry(entry)}: ${millions(length)} characters`,
  )
  if ('length' in outcome) {
    return [
      `The cassette ${file} would hold ${millions(outcome.length)} characters, over ${limit}, even without this run's largest calls; nothing was written.`,
      ...(lines.length === 0 ? [] : ['Left out to try to make it fit:', ...lines]),
      'Delete entries from it (or the file) to record them again, or split the test file.',
    ].join('\n')
  }
  return [
    `Too large to store in the cassette ${file} (it would pass ${limit}): these calls were left out and will be made again next run; the file holds the other ${outcome.written} ${outcome.written === 1 ? 'entry' : 'entries'}.`,
    ...lines,
    'Keep their requests and results smaller, or leave the large parts out with `redact`.',
  ].join('\n')
}

/** `step 2 "decide" (seed 1, rollout 0)`, `tool "fetch_page" at step 1, position 0 (seed 1, rollout 0)`. */
function describeEntry(entry: CassetteEntry): string {
  const { seed, rollout, step } = entry.stream
  if (entry.kind === 'tool')
    return `tool "${entry.tool}" at step ${step}, position ${entry.stream.position} (seed ${seed}, rollout ${rollout})`
  return `step ${step} "${entry.name}" (seed ${seed}, rollout ${rollout})`
}

/** 612345678 → "612.3 M". */
function millions(characters: number): string {
  return `${(characters / 1e6).toFixed(1)} M`
}

/** The entry as written: fields in schema order, each value replaced by its digest (`store`). */
function storedEntry(entry: CassetteEntry, store: (value: Json) => string): Json {
  if (entry.kind === 'tool') {
    const out: Record<string, Json> = {
      kind: 'tool',
      tool: entry.tool,
      stream: { ...entry.stream },
      args: store(entry.args),
    }
    if (entry.result !== undefined) out['result'] = store(entry.result)
    return out
  }
  const out: Record<string, Json> = { kind: 'step', name: entry.name }
  if (entry.model !== undefined) out['model'] = entry.model
  out['stream'] = { ...entry.stream }
  out['summary'] = entry.summary
  if (entry.request !== undefined) out['request'] = store(entry.request)
  out['action'] = store(entry.action)
  if (entry.meta !== undefined) out['meta'] = store(entry.meta)
  return out
}

/** A copy of `value` whose objects have their keys in sorted order. */
export function sortKeys(value: Json): Json {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(sortKeys)
  const out: Record<string, Json> = {}
  for (const key of Object.keys(value).sort()) setJsonKey(out, key, sortKeys(value[key] as Json))
  return out
}
