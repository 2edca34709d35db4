import { hash } from 'node:crypto'
import { sortKeys } from '../../../src/cassette/cassette-file.js'
import { CASSETTE_SCHEMA, CassetteFileV2Schema, type CassetteEntry } from '../../../src/cassette/schema.js'
import { parseJsonValue } from '../../../src/files/json-file.js'
import { canonicalJson, type Json } from '../../../src/json.js'

/**
 * The serializer cassettes were written with before they were written in chunks, kept verbatim as
 * the oracle: the chunked writer must give the same bytes, or every committed cassette would churn.
 * `bench/cassette-save.ts` measures it as the before.
 */
export function formatCassetteAsOneString(entries: ReadonlyMap<string, CassetteEntry>): string {
  const values = new Map<string, Json>()
  const store = (value: Json): string => {
    const sorted = sortKeys(value)
    const ref = hash('sha256', canonicalJson(sorted), 'hex').slice(0, 32)
    values.set(ref, sorted)
    return ref
  }
  const sortedEntries: Record<string, Json> = {}
  for (const key of [...entries.keys()].sort()) {
    const entry = entries.get(key) as CassetteEntry
    if (entry.kind === 'tool') {
      const out: Record<string, Json> = {
        kind: 'tool',
        tool: entry.tool,
        stream: { ...entry.stream },
        args: store(entry.args),
      }
      if (entry.result !== undefined) out['result'] = store(entry.result)
      sortedEntries[key] = out
      continue
    }
    const out: Record<string, Json> = { kind: 'step', name: entry.name }
    if (entry.model !== undefined) out['model'] = entry.model
    out['stream'] = { ...entry.stream }
    out['summary'] = entry.summary
    if (entry.request !== undefined) out['request'] = store(entry.request)
    out['action'] = store(entry.action)
    if (entry.meta !== undefined) out['meta'] = store(entry.meta)
    sortedEntries[key] = out
  }
  const sortedValues: Record<string, Json> = {}
  for (const ref of [...values.keys()].sort()) sortedValues[ref] = values.get(ref) as Json
  const file = parseJsonValue(
    { schema: CASSETTE_SCHEMA, entries: sortedEntries, values: sortedValues },
    CassetteFileV2Schema,
    'cassette',
  )
  const head = JSON.stringify({ schema: file.schema, entries: file.entries }, null, 2).slice(0, -2)
  const lines = Object.entries(file.values).map(
    ([ref, value]) => `    ${JSON.stringify(ref)}: ${JSON.stringify(value)}`,
  )
  const valuesText = lines.length === 0 ? '{}' : `{\n${lines.join(',\n')}\n  }`
  return `${head},\n  "values": ${valuesText}\n}\n`
}
