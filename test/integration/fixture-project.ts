import { execFile, spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { inject } from 'vitest'
import { PACKED_TARBALL_KEY } from './pack.global-setup.js'

const execFileAsync = promisify(execFile)

/** The repository root (the package `vitest-causal-replay`). */
export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)))

/** What a child Vitest run printed and returned. */
export interface RunResult {
  code: number | null
  stdout: string
  stderr: string
}

/** A copy of a fixture project in a temporary directory, set up like a project that installed the package. */
export interface FixtureProject {
  root: string
  /** Runs `vitest <args>` in the project, in a child process, with a clean environment plus `env`. */
  vitest(args: readonly string[], env?: Record<string, string>): Promise<RunResult>
  /** Runs `node <args>` in the project, in a child process, with a clean environment plus `env`. */
  node(args: readonly string[], env?: Record<string, string>): Promise<RunResult>
  remove(): Promise<void>
}

/**
 * The `npm pack` tarball of this repository, packed once per Vitest run by
 * `pack.global-setup.ts`: what `npm publish` would ship.
 */
export function packedTarball(): string {
  const tarball = inject(PACKED_TARBALL_KEY)
  if (tarball === undefined) {
    throw new Error(
      'The integration tests run the built package: run `npm run build` first (`npm test` does).',
    )
  }
  return tarball
}

/**
 * Copies `test/fixtures/<name>` to a temporary directory and gives it a `node_modules`: symlinks to
 * every dependency of this repository, and `vitest-causal-replay` installed from the packed
 * tarball, so the fixture imports the package by name through its exports map, and gets only the
 * files it publishes, exactly as a user's project would. Everything a run writes (reports,
 * baselines, blobs, attachments) stays in the temporary directory.
 */
export async function copyFixture(
  name: string,
  /** Dependencies of this repository to leave out of the project's `node_modules`. */
  without: readonly string[] = [],
): Promise<FixtureProject> {
  const tarball = packedTarball()
  const root = await mkdtemp(join(tmpdir(), `causal-replay-${name}-`))
  await cp(join(REPO, 'test/fixtures', name), root, { recursive: true })
  const modules = join(root, 'node_modules')
  await mkdir(modules)
  for (const entry of await readdir(join(REPO, 'node_modules'))) {
    // Vite's cache stays per project, so concurrent runs do not share one.
    if (entry === '.vite' || entry === '.vitest' || without.includes(entry)) continue
    await symlink(join(REPO, 'node_modules', entry), join(modules, entry))
  }
  // The package as `npm install` lays it out: the tarball's `package/` folder, as real files, so
  // Vitest treats it as an installed dependency and a file missing from `files` is missing here.
  const installed = join(modules, 'vitest-causal-replay')
  await mkdir(installed)
  await execFileAsync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'])
  return {
    root,
    vitest: (args, env = {}) => run(root, [join(root, 'node_modules/vitest/vitest.mjs'), ...args], env),
    node: (args, env = {}) => run(root, args, env),
    remove: () => rm(root, { recursive: true, force: true }),
  }
}

/**
 * The environment of a child run: this process's, without what the parent Vitest worker or a CI
 * runner set (which would change snapshot modes, reporters or seeds), without colors, plus `extra`.
 */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (
      /^(VITEST|CI$|CONTINUOUS_INTEGRATION|GITHUB_|UPDATE_SNAPSHOT|CAUSAL_REPLAY_|TEST$|NODE_ENV|FORCE_COLOR)/.test(
        key,
      )
    ) {
      continue
    }
    env[key] = value
  }
  return { ...env, NO_COLOR: '1', UPDATE_SNAPSHOT: 'new', ...extra }
}

/** Runs `node <args>` in `root`, in a child process, and collects what it printed. */
function run(root: string, args: readonly string[], env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolvePromise({ code, stdout, stderr })
    })
  })
}

/** Runs the project's `tsc --noEmit -p <config>` (TypeScript is one of the symlinked dependencies). */
export function tsc(
  project: FixtureProject,
  config: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      [join(project.root, 'node_modules/typescript/bin/tsc'), '--noEmit', '--pretty', 'false', '-p', config],
      // A full check of Vitest's and Vite's declarations (skipLibCheck false) is slow on a busy machine.
      { cwd: project.root, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolvePromise({ code, output: `${stdout}${stderr}` })
      },
    )
  })
}

/** The block of the summary table in a run's output, from its title to its `report:` line. */
export function summaryBlock(output: string): string {
  const start = output.indexOf('causal-replay:')
  if (start === -1) return ''
  const end = output.indexOf('\n', output.indexOf('  report:', start))
  return output.slice(start, end === -1 ? undefined : end)
}

/** A failure message as the user reads it: without the "Error: " prefix and the stack. */
export function messageOf(failure: string): string {
  const withoutPrefix = failure.replace(/^\w*Error: /, '')
  const stack = withoutPrefix.search(/\n\s+at /)
  return stack === -1 ? withoutPrefix : withoutPrefix.slice(0, stack)
}

/** One test of Vitest's JSON report. */
export interface JsonAssertion {
  fullName: string
  status: 'passed' | 'failed' | 'skipped' | 'pending'
  failureMessages: string[]
  meta: { causalReplay?: unknown[] }
}

/** A `vitest run` of a fixture project, with Vitest's JSON report read back. */
export interface ReportedRun extends RunResult {
  /**
   * A folder of this run's own: the JSON report is written there, and the fixture gets it as
   * `CAUSAL_REPLAY_FIXTURE_OUT` for files of its own.
   */
  out: string
  /** The test of that full name (in the test file whose path ends with `file`, when names repeat); throws when there is none. */
  assertion(fullName: string, file?: string): JsonAssertion
}

/** Runs `vitest run <args>` in `project` with the default and the JSON reporter. */
export async function runReported(
  project: FixtureProject,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<ReportedRun> {
  await mkdir(join(project.root, 'out'), { recursive: true })
  const out = await mkdtemp(join(project.root, 'out', 'run-'))
  const file = join(out, 'results.json')
  const run = await project.vitest(
    ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    { CAUSAL_REPLAY_FIXTURE_OUT: out, ...env },
  )
  const report = JSON.parse(await readFile(file, 'utf8')) as {
    testResults: Array<{ name: string; assertionResults: JsonAssertion[] }>
  }
  return {
    ...run,
    out,
    assertion(fullName, testFile) {
      const found = report.testResults
        .filter((tested) => testFile === undefined || tested.name.endsWith(`/${testFile}`))
        .flatMap((tested) => tested.assertionResults)
        .find((assertion) => assertion.fullName === fullName)
      if (found === undefined) {
        throw new Error(
          `no test named ${fullName}${testFile === undefined ? '' : ` in ${testFile}`} in the JSON report`,
        )
      }
      return found
    },
  }
}
