import { mkdir, rm, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

let temporaryCounter = 0

/**
 * Writes `text` to `file` atomically, creating its directory: the text goes to a temporary file
 * beside it, which is renamed into place, so a reader (or a crash) never sees half a file. The
 * temporary name is unique per process and call, so concurrent writers of one file never share
 * one; a failed write removes its temporary file.
 */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.${Date.now()}.${(temporaryCounter++).toString(36)}.tmp`
  try {
    await writeFile(temporary, text)
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {})
    throw error
  }
}
