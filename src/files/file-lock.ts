import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'

/**
 * Takes the exclusive lock of `file` for a read-merge-write across processes (Vitest workers, two
 * `vitest` runs on one project), creating its folder first; resolves with the function that
 * releases it. The lock is the folder `<file>.lock` (proper-lockfile: `mkdir` is atomic on every
 * file system, and the lock need not exist before, nor the file). Waits up to about 25 s for
 * another holder; a process killed while holding it leaves it behind, and after 10 s without
 * being refreshed it counts as stale and is taken over.
 */
export async function lockFile(file: string): Promise<() => Promise<void>> {
  await mkdir(dirname(file), { recursive: true })
  return lockfile.lock(file, {
    realpath: false,
    stale: 10_000,
    retries: { retries: 100, minTimeout: 20, maxTimeout: 250, factor: 1.5 },
  })
}
