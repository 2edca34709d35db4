import { writeFileAtomically } from '../files/atomic-write.js'
import type { Artifact } from '../verdict/schema.js'
import { renderReportHtml } from './html.js'

/** Renders `artifact` and writes the report to `file` atomically, creating the directory. */
export async function writeReportHtml(file: string, artifact: Artifact): Promise<void> {
  await writeFileAtomically(file, renderReportHtml(artifact))
}
