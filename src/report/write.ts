import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Artifact } from '../verdict/schema.js'
import { renderReportHtml } from './html.js'

/**
 * Renders `artifact` and writes the report to `file` atomically (a temporary file renamed into
 * place), creating the directory, so a crash never leaves half a page behind.
 */
export async function writeReportHtml(file: string, artifact: Artifact): Promise<void> {
  const page = renderReportHtml(artifact)
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`
  await writeFile(temporary, page)
  await rename(temporary, file)
}
