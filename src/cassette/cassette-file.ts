import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'
import { InvalidFileError } from '../errors.js'
import { writeFileAtomically } from '../files/atomic-write.js'
import { parseJsonFile, parseJsonValue } from '../files/json-file.js'
import type { Json } from '../json.js'
import { CASSETTE_SCHEMA, CassetteFileSchema, type CassetteEntry } from './schema.js'

/** The entries of a cassette file, or an empty map when it does not exist. A bad file throws, naming the field. */
export async function readCassetteFile(file: string): Promise<Map<string, CassetteEntry>> {
  if (!existsSync(file)) return new Map()
  try {
    const parsed = await parseJsonFile(file, CassetteFileSchema, 'cassette')
    return new Map(Object.entries(parsed.entries))
  } catch (error) {
    if (!(error instanceof InvalidFileError)) throw error
    throw new InvalidFileError(
      `${error.message}\nThe cassette was left unchanged. Fix it, or delete it to record every call again.`,
      file,
    )
  }
}

/**
 * The text of a cassette: entries sorted by key, each with its fields in schema order and the keys
 * of every JSON value inside sorted, two-space indented, ending in a newline. The same entries
 * always give the same bytes, so a re-recorded call shows in review as a change of that entry only.
 */
export function formatCassette(entries: ReadonlyMap<string, CassetteEntry>): string {
  const sorted: Record<string, Json> = {}
  for (const key of [...entries.keys()].sort()) sorted[key] = entryJson(entries.get(key) as CassetteEntry)
  const file = parseJsonValue({ schema: CASSETTE_SCHEMA, entries: sorted }, CassetteFileSchema, 'cassette')
  return `${JSON.stringify(file, null, 2)}\n`
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

/** The entry as written: fields in schema order, JSON values with sorted keys. */
function entryJson(entry: CassetteEntry): Json {
  if (entry.kind === 'tool') {
    const out: Record<string, Json> = {
      kind: 'tool',
      tool: entry.tool,
      stream: { ...entry.stream },
      args: sortKeys(entry.args),
    }
    if (entry.result !== undefined) out['result'] = sortKeys(entry.result)
    return out
  }
  const out: Record<string, Json> = { kind: 'step', name: entry.name }
  if (entry.model !== undefined) out['model'] = entry.model
  out['stream'] = { ...entry.stream }
  out['summary'] = entry.summary
  if (entry.request !== undefined) out['request'] = sortKeys(entry.request)
  out['action'] = sortKeys(entry.action)
  if (entry.meta !== undefined) out['meta'] = sortKeys(entry.meta)
  return out
}

/** A copy of `value` whose objects have their keys in sorted order. */
export function sortKeys(value: Json): Json {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(sortKeys)
  const out: Record<string, Json> = {}
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key] as Json)
  return out
}
