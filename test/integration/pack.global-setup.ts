import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'

/** The `provide` / `inject` key of the packed tarball's path. */
export const PACKED_TARBALL_KEY = 'causalReplayPackedTarball'

declare module 'vitest' {
  interface ProvidedContext {
    /** The `npm pack` tarball of this repository, absolute; `undefined` when `dist/` was not built. */
    causalReplayPackedTarball: string | undefined
  }
}

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)))

/**
 * Packs the repository once per Vitest run, in the main process, so the integration tests install
 * exactly what `npm publish` would ship. Test files run in separate workers: packing there would
 * pack once per file, and concurrently into the same place.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const directory = await mkdtemp(join(tmpdir(), 'causal-replay-pack-'))
  // Without a build there is nothing worth packing; copyFixture then says to build first.
  if (existsSync(join(REPO, 'dist/matchers/index.js'))) {
    await promisify(execFile)('npm', ['pack', '--pack-destination', directory], {
      cwd: REPO,
      maxBuffer: 64 * 1024 * 1024,
    })
    // The directory is new, so its one file is the tarball, whatever a pack script printed.
    const [tarball] = (await readdir(directory)).filter((file) => file.endsWith('.tgz'))
    if (tarball === undefined) throw new Error(`npm pack wrote no tarball to ${directory}`)
    project.provide(PACKED_TARBALL_KEY, join(directory, tarball))
  } else {
    project.provide(PACKED_TARBALL_KEY, undefined)
  }
  return () => rm(directory, { recursive: true, force: true })
}
