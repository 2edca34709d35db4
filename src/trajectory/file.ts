import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { InvalidTrajectoryError } from '../errors.js'
import { TrajectorySchema, type Trajectory } from './schema.js'

/**
 * Reads and validates a trajectory file. A missing file, bad JSON or a field that does not match
 * the schema throws an {@link InvalidTrajectoryError} that names the file and the field.
 */
export async function readTrajectory(file: string): Promise<Trajectory> {
  return parseJsonFile(file, TrajectorySchema, 'trajectory')
}

/**
 * Writes a trajectory as JSON. The value is validated first and written to a temporary file that
 * is renamed into place, so an invalid trajectory or a crash mid-write never clobbers a good file.
 */
export async function writeTrajectory(file: string, trajectory: Trajectory): Promise<void> {
  await writeJsonFile(file, TrajectorySchema, trajectory, 'trajectory')
}

/** Reads `file` as JSON and validates it with `schema`; errors name the file and the field. */
export async function parseJsonFile<T>(file: string, schema: z.ZodType<T>, what: string): Promise<T> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : String(error)
    throw new InvalidTrajectoryError(`Cannot read ${what} file ${file}: ${reason}.`, file)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new InvalidTrajectoryError(
      `${what} file ${file} is not valid JSON: ${(error as Error).message}.`,
      file,
    )
  }
  return parseJsonValue(value, schema, what, file)
}

/** Validates an already parsed value; the error text points at each bad field (zod's prettifyError). */
export function parseJsonValue<T>(value: unknown, schema: z.ZodType<T>, what: string, file?: string): T {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const where = file === undefined ? '' : ` in ${file}`
  throw new InvalidTrajectoryError(`Invalid ${what}${where}:\n${z.prettifyError(parsed.error)}`, file)
}

let temporaryCounter = 0

/** Validates `value` with `schema`, then writes it atomically (temporary file + rename). */
export async function writeJsonFile<T>(
  file: string,
  schema: z.ZodType<T>,
  value: T,
  what: string,
): Promise<void> {
  const valid = parseJsonValue(value, schema, what)
  await mkdir(dirname(file), { recursive: true })
  // Unique per call: two writes of one file in the same millisecond must not share a temporary.
  const temporary = `${file}.${process.pid}.${Date.now()}.${(temporaryCounter++).toString(36)}.tmp`
  await writeFile(temporary, `${JSON.stringify(valid, null, 2)}\n`)
  await rename(temporary, file)
}
