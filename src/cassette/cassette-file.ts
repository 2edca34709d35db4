import { hash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'
import { InvalidFileError } from '../errors.js'
import { writeFileAtomically } from '../files/atomic-write.js'
import { parseJsonFile, parseJsonValue } from '../files/json-file.js'
import { canonicalJson, setJsonKey, type Json } from '../json.js'
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
 * of that entry (and of the values only it used).
 */
export function formatCassette(entries: ReadonlyMap<string, CassetteEntry>): string {
  const values = new Map<string, Json>()
  const store = (value: Json): string => {
    const sorted = sortKeys(value)
    const ref = valueDigest(sorted)
    values.set(ref, sorted)
    return ref
  }
  const sortedEntries: Record<string, Json> = {}
  for (const key of [...entries.keys()].sort())
    sortedEntries[key] = storedEntry(entries.get(key) as CassetteEntry, store)
  const sortedValues: Record<string, Json> = {}
  for (const ref of [...values.keys()].sort()) sortedValues[ref] = values.get(ref) as Json
  const file = parseJsonValue(
    { schema: CASSETTE_SCHEMA, entries: sortedEntries, values: sortedValues },
    CassetteFileV2Schema,
    'cassette',
  )
  // Each value on one line: a value never changes in place (a changed request is another digest,
  // another line), so indenting it would only double the file without making a diff smaller.
  const head = JSON.stringify({ schema: file.schema, entries: file.entries }, null, 2).slice(0, -2)
  const lines = Object.entries(file.values).map(
    ([ref, value]) => `    ${JSON.stringify(ref)}: ${JSON.stringify(value)}`,
  )
  const valuesText = lines.length === 0 ? '{}' : `{\n${lines.join(',\n')}\n  }`
  return `${head},\n  "values": ${valuesText}\n}\n`
}

/** A value's address in a cassette's `values`: the first 32 hex digits of SHA-256 over its canonical JSON. */
export function valueDigest(value: Json): string {
  return hash('sha256', canonicalJson(value), 'hex').slice(0, 32)
}

/** What a save does to the file: entries to add or overwrite, and which stored ones to keep. */
export interface CassetteChanges {
  /** Entries recorded by this process: they replace stored entries of the same key. */
  put: ReadonlyMap<string, CassetteEntry>
  /** Undefined: keep every stored entry (merge). A set: keep only stored entries with these keys (prune). */
  keep: ReadonlySet<string> | undefined
}

/**
 * Applies `changes` to `file` under an exclusive lock (`<file>.lock`, proper-lockfile): it reads
 * what is on disk now, merges, and writes the result atomically, so two workers (or two test files
 * sharing one cassette) each keep the other's entries, and an interrupted run leaves either the old
 * file or the new one. Writes nothing when the text would not change. Returns whether it wrote.
 */
export async function saveCassetteFile(file: string, changes: CassetteChanges): Promise<boolean> {
  await mkdir(dirname(file), { recursive: true })
  const release = await lockfile.lock(file, {
    realpath: false,
    // A worker killed while holding the lock leaves it behind: after 10 s it counts as stale.
    stale: 10_000,
    retries: { retries: 100, minTimeout: 20, maxTimeout: 250, factor: 1.5 },
  })
  try {
    const stored = await readCassetteFile(file)
    const merged = new Map<string, CassetteEntry>()
    for (const [key, entry] of stored)
      if (changes.keep === undefined || changes.keep.has(key)) merged.set(key, entry)
    for (const [key, entry] of changes.put) merged.set(key, entry)
    const existed = existsSync(file)
    if (!existed && merged.size === 0) return false
    const text = formatCassette(merged)
    if (existed && (await readFile(file, 'utf8')) === text) return false
    await writeFileAtomically(file, text)
    return true
  } finally {
    await release()
  }
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
