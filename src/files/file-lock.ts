import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Takes the exclusive lock of `file` for a read-merge-write across processes (Vitest workers, two
 * `vitest` runs on one project), creating its folder first; resolves with the function that
 * releases it. The lock is the folder `<file>.lock` (proper-lockfile: `mkdir` is atomic on every
 * file system, and the lock need not exist before, nor the file). Waits up to about 25 s for
 * another holder; a process killed while holding it leaves it behind, and after 10 s without
 * being refreshed it counts as stale and is taken over.
 *
 * The lock is tried once first: only "held by another process" is worth the retries, and any other
 * failure (a read-only directory) throws at once instead of after 25 s of retrying.
 */
export async function lockFile(file: string): Promise<() => Promise<void>> {
  await mkdir(dirname(file), { recursive: true })
  // Loaded with the first lock, not with the package root: it and what it brings (graceful-fs,
  // signal-exit) take a noticeable share of an import, and most test files never lock a file.
  const { default: lockfile } = await import('proper-lockfile')
  const options = { realpath: false, stale: 10_000 }
  try {
    return await lockfile.lock(file, options)
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    if (code !== 'ELOCKED')
      throw new Error(`the lock ${file}.lock cannot be created, is the directory read-only? (${message})`, {
        cause: error,
      })
  }
  return lockfile.lock(file, {
    ...options,
    retries: { retries: 100, minTimeout: 20, maxTimeout: 250, factor: 1.5 },
  })
}
