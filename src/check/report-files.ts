import { join } from 'node:path'
import { writeJsonFile } from '../files/json-file.js'
import { writeReportHtml } from '../html/write.js'
import { ArtifactSchema, type Artifact } from '../verdict/schema.js'

/** Where an artifact and its report were written, relative to the report directory. */
export interface ReportFiles {
  json: string
  /** Null when the HTML page could not be rendered (the JSON is still there). */
  html: string | null
  /** Why there is no page, when there is none. */
  htmlError: Error | null
}

/**
 * Writes `<reportDir>/<agent>/<slug>.json` (validated by `ArtifactSchema`) and the HTML report
 * `<slug>.html` next to it. A rendering failure costs the page, never the verdict: it is returned
 * as `htmlError` for the caller to show.
 */
export async function writeReportFiles(
  reportDir: string,
  slug: string,
  artifact: Artifact,
): Promise<ReportFiles> {
  const folder = slugify(artifact.verdict.agent) || 'agent'
  const json = `${folder}/${slug}.json`
  const html = `${folder}/${slug}.html`
  await writeJsonFile(join(reportDir, json), ArtifactSchema, artifact, 'artifact')
  try {
    await writeReportHtml(join(reportDir, html), artifact)
    return { json, html, htmlError: null }
  } catch (error) {
    return { json, html: null, htmlError: error instanceof Error ? error : new Error(String(error)) }
  }
}

/** A file-name-safe slug: "rarely refunds wrongly" → "rarely-refunds-wrongly" (at most 80 characters). */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '')
}
