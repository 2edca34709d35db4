import { join } from 'node:path'
import { writeJsonFile } from '../files/json-file.js'
import { ARTIFACT_SCHEMA, ArtifactSchema, type Artifact } from './schema.js'
import type { Diagnosis } from './diagnose.js'
import type { GateRun } from './sequential-gate.js'

/** Assembles the artifact of one assertion: verdict, the attributed failing run and its attribution. */
export function buildArtifact(
  test: { name: string; file: string },
  run: GateRun,
  diagnosis: Diagnosis,
): Artifact {
  return {
    schema: ARTIFACT_SCHEMA,
    test,
    verdict: run.verdict,
    failing: run.failing,
    contrastive: diagnosis.contrastive,
    shapley: diagnosis.shapley,
  }
}

/** Where an artifact and its report were written, relative to the report directory. */
export interface ArtifactPaths {
  json: string
  /** Null when the HTML page could not be rendered (the JSON is still there). */
  html: string | null
}

/**
 * Writes `<reportDir>/<agent>/<slug>.json` (validated by `ArtifactSchema`) and the HTML report
 * `<slug>.html` next to it. A rendering failure costs the page, never the test: it is returned as
 * `htmlError` for the caller to show.
 */
export async function writeArtifact(
  reportDir: string,
  slug: string,
  artifact: Artifact,
): Promise<ArtifactPaths & { htmlError: Error | null }> {
  const folder = slugify(artifact.verdict.agent) || 'agent'
  const json = `${folder}/${slug}.json`
  const html = `${folder}/${slug}.html`
  await writeJsonFile(join(reportDir, json), ArtifactSchema, artifact, 'artifact')
  try {
    // Loaded on use: a broken renderer costs the page, not every matcher that imports this file.
    const { writeReportHtml } = await import('../html/write.js')
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
