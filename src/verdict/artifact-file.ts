import { z } from 'zod'
import { InvalidFileError } from '../errors.js'
import { parseJsonFile, parseJsonValue } from '../files/json-file.js'
import { ARTIFACT_SCHEMA, ArtifactSchema, type Artifact } from './schema.js'

const ARTIFACT_PREFIX = ARTIFACT_SCHEMA.slice(0, ARTIFACT_SCHEMA.indexOf('@') + 1)

/**
 * Reads and validates an artifact file. An artifact of another version says so plainly (rather
 * than listing every field that moved); anything else that does not match names the file and the
 * field.
 */
export async function readArtifact(file: string): Promise<Artifact> {
  const value = await parseJsonFile(file, z.unknown(), 'artifact')
  const version = (value as { schema?: unknown } | null)?.schema
  if (typeof version === 'string' && version.startsWith(ARTIFACT_PREFIX) && version !== ARTIFACT_SCHEMA) {
    throw new InvalidFileError(
      `${file} is an artifact of another version of vitest-causal-replay (${version}); this version reads ${ARTIFACT_SCHEMA}. Run its test again to write it anew.`,
      file,
    )
  }
  return parseJsonValue(value, ArtifactSchema, 'artifact', file)
}
