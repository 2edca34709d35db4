// `vitest-causal-replay/cassette`: the store of model calls that lets an unchanged agent re-verify
// with no calls. The matchers and `check({ cache })` open one for you; this is for your own runs.
import { resolve } from 'node:path'
import {
  openCassetteIn,
  OpenCassetteOptionsSchema,
  type Cassette,
  type OpenCassetteOptions,
} from '../cassette/cassette.js'
import { parseOptions } from '../options/parse-options.js'

export { withCassette } from '../cassette/attach.js'
export { Cassette, type CassetteCounts, type OpenCassetteOptions } from '../cassette/cassette.js'
export { CassetteMissError } from '../cassette/miss-error.js'
export type { CassetteMode, CassetteWrite } from '../cassette/mode.js'
export { cassettePath } from '../cassette/path.js'
export type { CassetteLookup, CassetteStaleness } from '../cassette/cassette.js'
export type { StepCallKey, StepStream, ToolCallKey, ToolStream } from '../cassette/key.js'
export {
  CassetteEntrySchema,
  StepEntrySchema,
  ToolEntrySchema,
  type CassetteEntry,
  type StepEntry,
  type ToolEntry,
} from '../cassette/schema.js'
export { CausalReplayError } from '../errors.js'
// The types the functions above reach, by name, as the root exports them (`core.Trajectory`).
export type * as core from '../index.js'

// `openCassette` is defined here, where the library is entered: it reads the environment
// (`process.env`) and resolves the file against the working directory, and hands both to the
// cassette module.
/**
 * Opens the cassette at `file` (a missing file is an empty cassette; a bad one throws an
 * `InvalidFileError` naming the field; a bad option, an `InvalidOptionError` naming it). Null when the mode, after `CAUSAL_REPLAY_CACHE`, is `off`.
 */
export async function openCassette(
  file: string,
  options: OpenCassetteOptions = {},
): Promise<Cassette | null> {
  return openCassetteIn(
    process.env,
    resolve(file),
    parseOptions('openCassette', OpenCassetteOptionsSchema, options),
  )
}
