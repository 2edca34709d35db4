import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, readdir, rm, rename } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

let temporaryCounter = 0

/**
 * Writes `text` to `file` atomically, creating its directory: the text goes to a temporary file
 * beside it, which is renamed into place, so a reader (or a crash) never sees half a file. The
 * temporary name is unique per process and call (`<file>.<pid>.<time>.<n>.tmp`), so concurrent
 * writers of one file never share one; a failed write removes its temporary file. `text` may be
 * given as chunks (written one after another, never joined), for a file too large to hold as one
 * string. With `unlessUnchanged`, a file that already holds exactly these bytes is left as it is
 * (compared by SHA-256, so neither side is read whole). Returns whether the file was replaced.
 */
export async function writeFileAtomically(
  file: string,
  text: string | Iterable<string>,
  options: { unlessUnchanged?: boolean } = {},
): Promise<boolean> {
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.${Date.now()}.${(temporaryCounter++).toString(36)}.tmp`
  try {
    const written = createHash('sha256')
    const handle = await open(temporary, 'w')
    try {
      // Awaiting each chunk is the backpressure: at most one chunk is in flight.
      for (const chunk of typeof text === 'string' ? [text] : text) {
        if (options.unlessUnchanged === true) written.update(chunk)
        // writeFile, unlike write, loops until the whole chunk is written (from the current position).
        await handle.writeFile(chunk)
      }
    } finally {
      await handle.close()
    }
    if (options.unlessUnchanged === true && (await fileSha256(file)) === written.digest('hex')) {
      await rm(temporary, { force: true })
      return false
    }
    await rename(temporary, file)
    return true
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {})
    throw error
  }
}

/** SHA-256 of the bytes of `file`, hex, read as a stream; undefined when it does not exist. */
async function fileSha256(file: string): Promise<string | undefined> {
  const sha = createHash('sha256')
  try {
    for await (const chunk of createReadStream(file)) sha.update(chunk as Buffer)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  return sha.digest('hex')
}

/**
 * Removes the temporary files that {@link writeFileAtomically} left beside `file` in processes that
 * are gone (killed in the middle of a write): a process still running may be writing its own. Call
 * it only while holding the file's lock, or a writer that started after the listing could lose its
 * temporary file. Returns the names removed.
 */
export async function removeStaleTemporaries(file: string): Promise<string[]> {
  const prefix = `${basename(file)}.`
  const removed: string[] = []
  let names: string[]
  try {
    names = await readdir(dirname(file))
  } catch {
    return removed
  }
  for (const name of names) {
    const pid = temporaryWriter(name, prefix)
    if (pid === undefined || pid === process.pid || isRunning(pid)) continue
    await rm(join(dirname(file), name), { force: true })
    removed.push(name)
  }
  return removed
}

/** The writer's pid in a temporary file name of `<prefix><pid>.<time>.<n>.tmp`, else undefined. */
function temporaryWriter(name: string, prefix: string): number | undefined {
  if (!name.startsWith(prefix)) return undefined
  const match = /^(\d+)\.\d+\.[0-9a-z]+\.tmp$/.exec(name.slice(prefix.length))
  return match === null ? undefined : Number(match[1])
}

/** Whether a process of this pid exists (signal 0 checks without sending anything). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
