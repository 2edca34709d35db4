// Checks the package as `npm publish` would ship it: packs the built repository and lints the
// tarball, not the working tree, so a file missing from `files` or an export pointing at nothing
// fails here and not in a user's install. It builds nothing: run `npm run build` first.
//
//   npm run check:package
//
// - what the tarball holds at its top level (PACKAGE_TOP_LEVEL);
// - publint, warnings included (`--strict`): exports, bin, files, fields;
// - Are the Types Wrong with the `esm-only` profile: every export's types resolve under Node16 ESM
//   and bundler resolution. The package has no CommonJS entry, so `require` and node10 resolution
//   are out of scope, not failures.
import { execFile, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'

const REPO = fileURLToPath(new URL('..', import.meta.url))

/**
 * Everything the tarball may hold at its top level: the manifest, the README and licence npm always
 * adds, the build (`exports` and `bin` point into `dist/`), and the TypeScript sources its source
 * maps point to.
 */
export const PACKAGE_TOP_LEVEL: ReadonlySet<string> = new Set([
  'package.json',
  'README.md',
  'LICENSE',
  'dist',
  'src',
  'matchers',
])

/** The files of an `npm pack` tarball, relative to the package root (without npm's `package/` folder). */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('tar', ['-tzf', tarball], { maxBuffer: 64 * 1024 * 1024 })
  return stdout
    .split('\n')
    .filter((entry) => entry !== '' && !entry.endsWith('/'))
    .map((entry) => entry.replace(/^package\//, ''))
}

/** The top-level files and folders of `files` that {@link PACKAGE_TOP_LEVEL} does not allow, sorted. */
export function unexpectedTopLevel(files: Iterable<string>): string[] {
  const top = new Set([...files].map((file) => file.split('/')[0]!))
  return [...top].filter((entry) => !PACKAGE_TOP_LEVEL.has(entry)).sort()
}

/** Runs a dev dependency's command on the tarball, printing what it prints; whether it passed. */
function runBin(bin: string, args: readonly string[]): boolean {
  console.log(`\n$ ${bin} ${args.join(' ')}`)
  const run = spawnSync(join(REPO, 'node_modules/.bin', bin), args, { cwd: REPO, stdio: 'inherit' })
  if (run.error !== undefined) throw run.error
  return run.status === 0
}

async function main(): Promise<number> {
  if (!existsSync(join(REPO, 'dist/src/index.js'))) {
    console.error('check:package packs the built package: run `npm run build` first.')
    return 1
  }
  const directory = await mkdtemp(join(tmpdir(), 'causal-replay-check-package-'))
  try {
    // The directory is new, so its one .tgz is the tarball, whatever npm printed.
    await promisify(execFile)('npm', ['pack', '--pack-destination', directory], {
      cwd: REPO,
      maxBuffer: 64 * 1024 * 1024,
    })
    const [name] = (await readdir(directory)).filter((file) => file.endsWith('.tgz'))
    if (name === undefined) throw new Error(`npm pack wrote no tarball to ${directory}`)
    const tarball = join(directory, name)
    console.log(`packed ${name}`)

    const unexpected = unexpectedTopLevel(await tarballFiles(tarball))
    if (unexpected.length > 0) {
      console.error(
        `The tarball holds ${unexpected.join(', ')} besides ${[...PACKAGE_TOP_LEVEL].join(', ')}: check package.json "files".`,
      )
    }
    // Both linters run even when the first fails, so one run shows every problem.
    const publint = runBin('publint', ['run', tarball, '--strict'])
    const attw = runBin('attw', [tarball, '--profile', 'esm-only'])
    const failed = [
      ...(unexpected.length > 0 ? ['contents'] : []),
      ...(publint ? [] : ['publint']),
      ...(attw ? [] : ['attw']),
    ]
    console.log(
      failed.length === 0 ? '\ncheck:package: ok' : `\ncheck:package: failed (${failed.join(', ')})`,
    )
    return failed.length === 0 ? 0 : 1
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}

// Run as a script (the packed-package test imports the allow-list above).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main()
}
