import { readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { isCausalReplayError } from '../errors.js'
import { writeFileAtomically } from '../files/atomic-write.js'
import { renderReportHtml } from '../html/html.js'
import { formatVerdictMessage } from '../text/verdict-message.js'
import { readArtifact } from '../verdict/artifact-file.js'
import type { Artifact } from '../verdict/schema.js'
import { USAGE } from './usage.js'
import { packageVersion } from './version.js'
import { RUN_REPORT_SCHEMA } from '../vitest/run-report.js'

/** Where the CLI writes; the process streams in `main.ts`, buffers in tests. */
export interface CliIo {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

/** Exit code of bad usage and of an invalid or missing artifact (nothing was written). */
export const EXIT_USAGE = 2

/** An error the user can fix from the message; exits with {@link EXIT_USAGE}. */
class UsageError extends Error {
  override name = 'UsageError'
}

/**
 * Runs `causal-replay` with `argv` (the arguments after the program name) and returns the exit
 * code: 0 done, 2 bad usage or invalid artifact, 1 anything else. It never calls `process.exit`,
 * so tests can run it in-process.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io)
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`causal-replay: ${error.message}\n\n${USAGE}\n`)
      return EXIT_USAGE
    }
    // A missing, unparsable or invalid artifact: the message names the file and the field.
    if (isCausalReplayError(error) && error.name === 'InvalidFileError') {
      io.stderr.write(`causal-replay: ${error.message}\n`)
      return EXIT_USAGE
    }
    io.stderr.write(`causal-replay: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv)
  if (values.help === true) {
    io.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (values.version === true) {
    io.stdout.write(`${await packageVersion()}\n`)
    return 0
  }
  const [command, ...rest] = positionals
  if (command === undefined) throw new UsageError('missing command.')
  if (command === 'help') {
    io.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (command !== 'report' && command !== 'show') throw new UsageError(`unknown command "${command}".`)
  const [file, ...extra] = rest
  if (file === undefined) throw new UsageError(`${command}: missing <artifact.json>.`)
  if (extra.length > 0) throw new UsageError(`${command}: unexpected argument "${extra[0]}".`)
  if (command === 'show' && values.output !== undefined)
    throw new UsageError('show: -o/--output applies to report only.')

  await refuseRunReport(command, file)
  const artifact = await readArtifact(file)
  if (command === 'show') {
    // As the test output printed it, but with every step of the attribution table: the test
    // message folds unevaluated steps away, and this is where to see them.
    io.stdout.write(`${formatVerdictMessage(artifact, { steps: 'all' })}\n`)
    return 0
  }
  return report(file, artifact, values.output, io)
}

/**
 * `report.json` beside the artifacts is the run's index, the file a user finds first: rather than
 * the artifact schema's complaints about every field it lacks, say what it is and name an artifact
 * it lists. A file that cannot be read or parsed is left to {@link readArtifact}, which says so.
 */
async function refuseRunReport(command: string, file: string): Promise<void> {
  let value: unknown
  try {
    value = JSON.parse(await readFile(file, 'utf8'))
  } catch {
    return
  }
  const { schema, entries } = (value ?? {}) as { schema?: unknown; entries?: unknown }
  if (schema !== RUN_REPORT_SCHEMA) return
  const first = Array.isArray(entries)
    ? (entries as Array<{ artifact?: unknown }>).find((entry) => typeof entry.artifact === 'string')
    : undefined
  const example =
    first === undefined
      ? 'it lists none yet'
      : `e.g. causal-replay ${command} ${join(dirname(file), first.artifact as string)}`
  throw new UsageError(
    `${command}: ${file} is the run report (the index of a run's assertions); pass an artifact, one of the .json files it lists (${example}).`,
  )
}

async function report(
  file: string,
  artifact: Artifact,
  output: string | undefined,
  io: CliIo,
): Promise<number> {
  const target = output ?? defaultReportPath(file)
  if (resolve(target) === resolve(file)) {
    throw new UsageError(`report: the output ${target} is the artifact itself; pass another -o.`)
  }
  if ((await stat(target).catch(() => undefined))?.isDirectory() === true) {
    const inside = join(target, basename(defaultReportPath(file)))
    throw new UsageError(
      `report: the output ${target} is a directory; pass the file to write, e.g. -o ${inside}.`,
    )
  }
  try {
    await writeFileAtomically(
      target,
      renderReportHtml(artifact, relative(dirname(resolve(target)), resolve(file))),
    )
  } catch (error) {
    // The system's message names the temporary file and the rename: say which file and why.
    throw new Error(`report: cannot write ${target} (${systemReason(error)}).`)
  }
  io.stdout.write(`report: ${target}\n`)
  return 0
}

/** "EACCES: permission denied", from "EACCES: permission denied, open '/x/y.html.123.tmp'". */
function systemReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return /^E[A-Z]+: [^,]*/.exec(message)?.[0] ?? message
}

/** `dir/test.json` → `dir/test.html`; a name without `.json` gets `.html` appended. */
export function defaultReportPath(file: string): string {
  return /\.json$/i.test(file) ? file.replace(/\.json$/i, '.html') : `${file}.html`
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        output: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    })
  } catch (error) {
    // parseArgs throws a TypeError with a readable message for unknown options and missing values.
    throw new UsageError((error as Error).message)
  }
}
