// The stored output of the seeded bench runs (bench/runs.ts), from which the pages' figures are
// filled. Each run's output is kept in bench/figures/<name>.txt under two header lines: the command
// that printed it and the SHA-256 digest of the output, so a stored file edited by hand, or left
// behind when a run's arguments change, is refused rather than shown. `npm run figures`
// (scripts/refresh-figures.ts) writes them.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { DOCUMENTED_RUNS, commandLine, type DocumentedRun } from '../bench/runs.js'
import { ROOT } from './public-entries.js'

/** Where the seeded runs' outputs are stored. */
export const FIGURES_DIR = resolve(ROOT, 'bench', 'figures')

/** What a machine-dependent part of a seeded output reads as once stored. */
const TIMED = '…'

/** The runs whose output is stored: the seeded ones. */
export const SEEDED_RUNS: readonly DocumentedRun[] = DOCUMENTED_RUNS.filter((run) => run.check !== 'timed')

/** The stored output file of a run. */
export function storedOutputPath(run: DocumentedRun): string {
  return join(FIGURES_DIR, `${run.name}.txt`)
}

/** The SHA-256 digest of an output, as its stored file's header writes it. */
export function outputDigest(output: string): string {
  return `sha256:${createHash('sha256').update(output).digest('hex')}`
}

/** A stored output file's text: the command, the output's digest, a blank line, the output. */
export function storedOutputText(run: DocumentedRun, output: string): string {
  return `$ ${commandLine(run)}\n${outputDigest(output)}\n\n${output}`
}

/**
 * The output stored in a run's file text. Throws, naming the file, when the header's command is not
 * the run's command (its arguments changed since) or the output does not match its digest (edited
 * by hand): either way `npm run figures` must store it again.
 */
export function parseStoredOutput(run: DocumentedRun, text: string): string {
  const file = relative(ROOT, storedOutputPath(run))
  const [command = '', digest = '', blank, ...lines] = text.split('\n')
  const refresh = `\`npm run figures -- --only ${run.name}\` stores it again`
  if (command !== `$ ${commandLine(run)}` || blank !== '') {
    throw new Error(
      `${file} was not printed by \`${commandLine(run)}\` (its first line is "${command}"): ${refresh}.`,
    )
  }
  const output = lines.join('\n')
  if (digest !== outputDigest(output)) {
    throw new Error(
      `${file}: its output does not match its digest (${digest}), so it was edited: ${refresh}.`,
    )
  }
  return output
}

/** A run's stored output, checked against its header. */
export async function storedOutput(run: DocumentedRun): Promise<string> {
  const path = storedOutputPath(run)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    throw new Error(
      `${relative(ROOT, path)} is missing: \`npm run figures -- --only ${run.name}\` runs \`${commandLine(run)}\` and stores it.`,
    )
  }
  return parseStoredOutput(run, text)
}

/** The output of a run with its machine-dependent parts replaced by `…`. */
export function seededPart(run: DocumentedRun, stdout: string): string {
  return (run.timed ?? []).reduce((output, part) => output.replace(part, TIMED), stdout)
}

/**
 * Runs a bench as documented (its arguments and environment, in a process of its own, from the
 * repository's root) and returns its seeded output; throws with its stderr when it fails. The
 * library's own variables (`CAUSAL_REPLAY_SEED`, `CAUSAL_REPLAY_CACHE`, …) are not passed on: the
 * documented command is run as in a clean shell, whatever the test runner set.
 */
export async function runSeeded(run: DocumentedRun): Promise<string> {
  const file = resolve(ROOT, 'bench', run.file)
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith('CAUSAL_REPLAY_'))
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...(run.args ?? [])], {
    cwd: ROOT,
    env: { ...Object.fromEntries(inherited), ...run.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const code = await new Promise<number | null>((done, fail) => {
    child.on('error', fail)
    child.on('close', done)
  })
  if (code !== 0) throw new Error(`\`${commandLine(run)}\` exited with ${code}:\n${stderr}`)
  return seededPart(run, stdout)
}
