import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { InvalidFileError } from '../errors.js'
import { writeFileAtomically } from './atomic-write.js'

/** The error class a reader throws for a bad file: {@link InvalidFileError} or a subclass. */
export type FileErrorClass = new (message: string, file?: string) => InvalidFileError

/**
 * Reads `file` as JSON and validates it with `schema`. A missing file, bad JSON or a field that
 * does not match throws `errorClass` with a message that names the file and the field.
 */
export async function parseJsonFile<T>(
  file: string,
  schema: z.ZodType<T>,
  what: string,
  errorClass: FileErrorClass = InvalidFileError,
): Promise<T> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : String(error)
    throw new errorClass(`Cannot read ${what} file ${file}: ${reason}.`, file)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new errorClass(`${what} file ${file} is not valid JSON${jsonErrorPlace(text, error)}.`, file)
  }
  return parseJsonValue(value, schema, what, file, errorClass)
}

/**
 * Where `JSON.parse` gave up on `text`, " (line 3, column 14)", or " (it ends before the value
 * does)", or nothing: never the text around it, which `JSON.parse`'s own message quotes. The path
 * may point anywhere (a symbolic link to a key file), and an error message ends up in CI logs.
 */
function jsonErrorPlace(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : ''
  if (message === 'Unexpected end of JSON input') return ' (it ends before the value does)'
  const position = /\bat position (\d+)\b/.exec(message)?.[1]
  if (position === undefined) return ''
  const before = text.slice(0, Number(position))
  const line = before.split('\n').length
  const column = Number(position) - before.lastIndexOf('\n')
  return ` (line ${line}, column ${column})`
}

/** Validates an already parsed value; the error text points at each bad field (zod's prettifyError). */
export function parseJsonValue<T>(
  value: unknown,
  schema: z.ZodType<T>,
  what: string,
  file?: string,
  errorClass: FileErrorClass = InvalidFileError,
): T {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const where = file === undefined ? '' : ` in ${file}`
  throw new errorClass(`Invalid ${what}${where}:\n${z.prettifyError(parsed.error)}`, file)
}

/** Validates `value` with `schema`, then writes it as pretty JSON, atomically. */
export async function writeJsonFile<T>(
  file: string,
  schema: z.ZodType<T>,
  value: T,
  what: string,
  errorClass: FileErrorClass = InvalidFileError,
): Promise<void> {
  const valid = parseJsonValue(value, schema, what, undefined, errorClass)
  await writeFileAtomically(file, `${JSON.stringify(valid, null, 2)}\n`)
}
