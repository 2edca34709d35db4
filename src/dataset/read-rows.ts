import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { extname } from 'node:path'
import type { parse as parseCsv } from 'csv-parse/sync'

// csv-parse is loaded when a CSV is first read, not with the package root that every test file
// imports; `defineDataset` is synchronous, so it is required, not imported.
const require = createRequire(import.meta.url)

/** A row read from a dataset's file: the parsed value and the line it starts on. */
export interface ReadRow {
  readonly value: unknown
  readonly line: number
}

/** What is wrong with a file, before any case of it could be read (a place, when there is one). */
export class RowsProblem extends Error {
  constructor(
    readonly problem: string,
    readonly line?: number,
  ) {
    super(problem)
  }
}

/** The formats a dataset file may have, by extension. */
export const DATASET_FORMATS = ['.json', '.jsonl', '.ndjson', '.csv'] as const

/**
 * The rows of a dataset file, each with the line it starts on: a JSON array, JSON Lines (one value
 * a line, blank lines skipped) or CSV with a header row (through `csv-parse`; every value a
 * string, an empty cell left out). Read synchronously, so `defineDataset` can be called at the top
 * of a test file and its errors point at that line. Throws a {@link RowsProblem}.
 */
export function readRows(path: string): ReadRow[] {
  const format = extname(path).toLowerCase()
  if (!(DATASET_FORMATS as readonly string[]).includes(format)) {
    throw new RowsProblem(
      `cannot read a "${format || 'extensionless'}" file; a dataset file is .json (an array of cases), .jsonl or .ndjson (a case a line) or .csv (a header row, then a case a row)`,
    )
  }
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new RowsProblem(
      code === 'ENOENT' ? 'the file does not exist' : `the file cannot be read (${String(code)})`,
    )
  }
  // A byte-order mark is not part of the first value.
  if (text.startsWith('\uFEFF')) text = text.slice(1)
  if (format === '.csv') return csvRows(text)
  if (format === '.json') return jsonArrayRows(text)
  return jsonLines(text)
}

function jsonLines(text: string): ReadRow[] {
  const rows: ReadRow[] = []
  text.split(/\r?\n/).forEach((source, index) => {
    if (source.trim() === '') return
    try {
      rows.push({ value: JSON.parse(source), line: index + 1 })
    } catch {
      // JSON.parse's own message quotes the text around the error, which may be a secret.
      throw new RowsProblem('the line is not valid JSON', index + 1)
    }
  })
  return rows
}

function jsonArrayRows(text: string): ReadRow[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new RowsProblem('the file is not valid JSON')
  }
  if (!Array.isArray(value)) {
    throw new RowsProblem(
      'a .json dataset must be an array of cases (one object per case); for a case a line, use .jsonl',
    )
  }
  const lines = elementLines(text)
  return value.map((element: unknown, index) => ({ value: element, line: lines[index] ?? 1 }))
}

/**
 * The line each element of a top-level JSON array starts on, for messages: a scan of the text
 * that tracks strings and nesting (the text is known to be valid JSON).
 */
function elementLines(text: string): number[] {
  const lines: number[] = []
  let line = 1
  let depth = 0
  let inString = false
  let expectingElement = false
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (char === '\n') line++
    if (inString) {
      if (char === '\\') index++
      else if (char === '"') inString = false
      continue
    }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\n') continue
    if (depth === 1 && expectingElement && char !== ']') {
      lines.push(line)
      expectingElement = false
    }
    if (char === '"') inString = true
    else if (char === '[' || char === '{') {
      depth++
      if (depth === 1) expectingElement = true
    } else if (char === ']' || char === '}') depth--
    else if (char === ',' && depth === 1) expectingElement = true
  }
  return lines
}

function csvRows(text: string): ReadRow[] {
  type Parsed = { record: Record<string, string>; info: { lines: number }; raw: string }
  let records: Parsed[]
  try {
    const { parse } = require('csv-parse/sync') as { parse: typeof parseCsv }
    records = parse(text, {
      columns: true,
      skip_empty_lines: true,
      info: true,
      raw: true,
      bom: true,
    }) as Parsed[]
  } catch (error) {
    const lines = (error as { lines?: unknown }).lines
    // The line is shown apart; the record's text is never quoted (a cell may hold a secret).
    const reason = (error instanceof Error ? error.message : String(error))
      .replace(/^Invalid Record Length: /, '')
      .replace(/ on line \d+$/, '')
    throw new RowsProblem(
      `the CSV cannot be parsed: ${reason}`,
      typeof lines === 'number' ? lines : undefined,
    )
  }
  return records.map(({ record, info, raw }) => {
    const row: Record<string, unknown> = {}
    for (const [column, cell] of Object.entries(record)) {
      // An empty cell is an absent field: a blank `id` is derived, a blank `tags` is none.
      if (cell === '') continue
      row[column] = column === 'tags' ? cell.split(',').map((tag) => tag.trim()) : cell
    }
    // `info.lines` is the line the record ends on; its raw text (with any blank lines skipped
    // before it) says how many lines back it starts.
    const body = raw.replace(/\r?\n$/, '')
    const skipped = /^(?:\r?\n)*/.exec(body)?.[0].split('\n').length ?? 1
    const line = info.lines - (body.split('\n').length - 1) + (skipped - 1)
    return { value: row, line }
  })
}
