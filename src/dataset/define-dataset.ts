import { hash } from 'node:crypto'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { InvalidDatasetError, InvalidOptionError, type DatasetProblem } from '../errors.js'
import { canonicalJson, nonJsonProblem, type Json, type JsonObject } from '../json.js'
import { functionField } from '../options/fields.js'
import { parseOptions, type StrictOptions } from '../options/parse-options.js'
import { describeReceived } from '../options/received.js'
import { readRows, RowsProblem, type ReadRow } from './read-rows.js'
import { DatasetRowSchema, type Dataset, type DatasetCase } from './schema.js'

const datasetFields = {
  /**
   * Default: none (each row's `input` field is the input). Maps a row (a JSON object; a CSV row is
   * an object of strings) to the agent's input, which must be a JSON value.
   */
  input: functionField<(row: JsonObject) => unknown>('a function (row) => input').optional(),
}

/** The options of `defineDataset`, parsed once. */
export const DatasetOptionsSchema: StrictOptions<typeof datasetFields> = z.strictObject(datasetFields)

/**
 * Options of `defineDataset`. `R` is the row's type and `I` the agent's input: with `input`, a row
 * of any shape maps to the input.
 */
export type DatasetOptions<R = JsonObject, I = Json> = Omit<z.input<typeof DatasetOptionsSchema>, 'input'> & {
  /**
   * Default: none (each row's `input` field is the input). Maps a row (a JSON object; a CSV row is
   * an object of strings) to the agent's input, which must be a JSON value.
   */
  input?: (row: R) => I
}

/** Where a dataset's cases come from: the rows themselves, or a file of them (a path or a URL). */
export type DatasetSource<R> = readonly R[] | string | URL

/**
 * {@link defineDataset} with relative paths taken from `cwd`, read by the caller where the library
 * was entered. Throws an {@link InvalidDatasetError} naming the case, its line and the field.
 */
export function defineDatasetIn(
  cwd: string,
  name: unknown,
  source: unknown,
  options: unknown = {},
): Dataset<Json> {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InvalidOptionError({
      caller: 'defineDataset',
      option: 'name',
      expected: 'a non-empty string',
      received: describeReceived(name),
    })
  }
  const parsed = parseOptions(`defineDataset("${name}")`, DatasetOptionsSchema, options)
  const { file, rows } = rowsOf(cwd, name, source)
  const fail = (where: Omit<DatasetProblem, 'dataset' | 'file'>): never => {
    throw new InvalidDatasetError({ dataset: name, ...(file === undefined ? {} : { file }), ...where })
  }
  if (rows.length === 0) fail({ problem: 'has no cases; a dataset needs at least one' })
  const byId = new Map<string, number>()
  const cases = rows.map((row, index) => {
    const position = index + 1
    const line = row.line
    const at = { position, ...(line === undefined ? {} : { line }) }
    const value = row.value
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      fail({ ...at, problem: `must be an object, got ${describeReceived(value)}` })
    const problem = nonJsonProblem(value)
    if (problem !== undefined) fail({ ...at, problem: `is not a JSON value: ${problem}` })
    const given = (value as { id?: unknown }).id
    const shownId = typeof given === 'string' && given.trim() !== '' ? given : undefined
    let checked: z.output<typeof DatasetRowSchema>
    try {
      checked = parseOptions('defineDataset', DatasetRowSchema, value, 'case')
    } catch (error) {
      if (!(error instanceof InvalidOptionError)) throw error
      return fail({
        ...at,
        ...(shownId === undefined ? {} : { caseId: shownId }),
        field: error.option,
        problem: `must be ${error.expected}, got ${error.received}`,
      })
    }
    const id = checked.id ?? hash('sha256', canonicalJson(value as Json), 'hex').slice(0, 12)
    const withId = { ...at, caseId: id }
    const input = caseInput(checked, parsed.input, (where) => fail({ ...withId, ...where }))
    const earlier = byId.get(id)
    if (earlier !== undefined) {
      fail({
        ...withId,
        ...(checked.id === undefined ? {} : { field: 'id' }),
        problem:
          checked.id === undefined
            ? `is identical to case ${earlier}, so both derive the id "${id}"; give them \`id\`s, or remove one`
            : `is also case ${earlier}'s id; ids must be unique`,
      })
    }
    byId.set(id, position)
    const resolved: DatasetCase<Json> = {
      id,
      tags: checked.tags ?? [],
      input,
      position,
      ...(line === undefined ? {} : { line }),
    }
    return Object.freeze(resolved)
  })
  return Object.freeze({ kind: 'dataset', name, file, cases: Object.freeze(cases) })
}

/** The rows of the source and the file they came from (as given), if any. */
function rowsOf(
  cwd: string,
  name: string,
  source: unknown,
): { file: string | undefined; rows: Array<{ value: unknown; line?: number }> } {
  if (Array.isArray(source)) return { file: undefined, rows: source.map((value: unknown) => ({ value })) }
  const isUrl = source instanceof URL
  if (!isUrl && (typeof source !== 'string' || source === '')) {
    throw new InvalidOptionError({
      caller: `defineDataset("${name}")`,
      option: 'cases',
      expected: 'an array of cases, or the path (or file URL) of a .json, .jsonl or .csv file of them',
      received: describeReceived(source),
    })
  }
  const shown = isUrl ? fileURLToPath(source) : source
  const path = isUrl || isAbsolute(shown) ? shown : resolve(cwd, shown)
  let rows: ReadRow[]
  try {
    rows = readRows(path)
  } catch (error) {
    if (!(error instanceof RowsProblem)) throw error
    throw new InvalidDatasetError({
      dataset: name,
      file: shown,
      ...(error.line === undefined ? {} : { line: error.line }),
      problem: error.problem,
    })
  }
  return { file: shown, rows }
}

/** A case's input: the mapper's answer for the row, or its `input` field. */
function caseInput(
  row: z.output<typeof DatasetRowSchema>,
  mapper: ((row: JsonObject) => unknown) | undefined,
  fail: (where: Pick<DatasetProblem, 'field' | 'problem'>) => never,
): Json {
  if (mapper === undefined) {
    if (row.input === undefined)
      fail({
        field: 'input',
        problem:
          "is missing; give each case an `input`, or map rows to inputs with defineDataset's `input` option",
      })
    return row.input as Json
  }
  let input: unknown
  try {
    input = mapper(row as JsonObject)
  } catch (error) {
    fail({
      problem: `the \`input\` option threw on it: ${error instanceof Error ? error.message : String(error)}`,
    })
  }
  const problem = nonJsonProblem(input)
  if (problem !== undefined)
    fail({ problem: `the \`input\` option made an input that is not a JSON value: ${problem}` })
  return input as Json
}
