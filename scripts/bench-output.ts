// The stored output of the seeded bench runs (bench/runs.ts), from which the pages' figures are
// filled. Each run's output is kept in bench/figures/<name>.txt under two header lines: the command
// that printed it and the SHA-256 digest of the output, so a stored file edited by hand, or left
// behind when a run's arguments change, is refused rather than shown.
//
//   npm run figures                        re-runs every seeded bench, stores its output, and refreshes the pages
//   npm run figures -- --only a,b          the same for the runs named a and b
//   npm run figures -- --check [--only …]  re-runs them and fails if an output differs from the stored one
//
// Slow benches take minutes: run it under `nice` on a shared machine.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DOCUMENTED_RUNS, commandLine, documentedRun, type DocumentedRun } from '../bench/runs.js'
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
 * repository's root) and returns its seeded output; throws with its stderr when it fails.
 */
export async function runSeeded(run: DocumentedRun): Promise<string> {
  const file = resolve(ROOT, 'bench', run.file)
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...(run.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, ...run.env },
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

/** The runs named by `--only a,b` (all seeded runs without it). */
function chosenRuns(argv: readonly string[]): readonly DocumentedRun[] {
  const at = argv.indexOf('--only')
  if (at === -1) return SEEDED_RUNS
  const names = (argv[at + 1] ?? '').split(',').filter((name) => name !== '')
  if (names.length === 0) throw new Error('--only needs the names of runs, comma-separated (bench/runs.ts).')
  return names.map((name) => {
    const run = documentedRun(name)
    if (run.check === 'timed')
      throw new Error(`The run "${name}" is timed: it has no seeded output to store.`)
    return run
  })
}

// Run as a script (not when a test imports the functions above).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const argv = process.argv.slice(2)
  const checking = argv.includes('--check')
  const differing: string[] = []
  await mkdir(FIGURES_DIR, { recursive: true })
  for (const run of chosenRuns(argv)) {
    const started = performance.now()
    const output = await runSeeded(run)
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const path = storedOutputPath(run)
    const before = await readFile(path, 'utf8').catch(() => null)
    const same = before === storedOutputText(run, output)
    console.log(`${commandLine(run)}: ${seconds} s, ${same ? 'as stored' : 'differs from the stored output'}`)
    if (same) continue
    differing.push(run.name)
    if (!checking) await writeFile(path, storedOutputText(run, output))
  }
  if (checking) {
    if (differing.length > 0) {
      console.error(
        `Outputs differ from bench/figures/: ${differing.join(', ')}. \`npm run figures\` stores them.`,
      )
      process.exitCode = 1
    }
  } else {
    // The pages are filled from the stored outputs, by the same machinery as their code blocks.
    const { refreshPages } = await import('./readme-output.js')
    const changed = await refreshPages()
    console.log(
      changed.length === 0
        ? 'The pages already show these figures.'
        : `Figures refreshed in: ${changed.map((path) => relative(ROOT, path)).join(', ')}`,
    )
  }
}
