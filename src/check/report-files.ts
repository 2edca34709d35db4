import { createHash } from 'node:crypto'
import { basename, join } from 'node:path'
import { writeJsonFile } from '../files/json-file.js'
import { writeFileAtomically } from '../files/atomic-write.js'
import { renderReportHtml } from '../html/html.js'
import { ArtifactSchema, type Artifact } from '../verdict/schema.js'

/**
 * Where an artifact and its report were written: relative to the report directory as
 * {@link writeReportFiles} returns them; in a `check` result, as its message shows them.
 */
export interface ReportFiles {
  json: string
  /** Null when the HTML page could not be rendered (the JSON is still there). */
  html: string | null
  /** Why there is no page, when there is none. */
  htmlError: Error | null
}

/** What one artifact belongs to: every distinct key gets its own files. */
export interface ArtifactKey {
  /** The test file relative to the project root ('' for a `check` without one). */
  file: string
  /** The full test name (or the name of a `check`). */
  test: string
  agent: string
  /** Which rate assertion of the test this is, from 1. */
  assertion: number
}

// Short enough that `<slug>-<n>-<hash>.html` stays far below the 255-byte limit of common file
// systems, and the slugs are ASCII, so the byte length is the character length.
const TEST_SLUG_LENGTH = 60
const AGENT_SLUG_LENGTH = 40

/**
 * The artifact's path without extension, relative to the report directory:
 * `<agent slug>/<test slug>[-<assertion>]-<hash>`, e.g. `support/injected-ticket-rarely-refunds-3f9a0c12`.
 * The slugs are for reading; the hash (8 hex digits of SHA-256 over the exact file, test name,
 * agent and assertion number) is what keeps apart keys whose slugs collide ('a b', 'a/b', 'A B',
 * names in scripts the slug drops, the same test name in two files). It depends on nothing else,
 * so a test writes to the same path on every run.
 */
export function artifactPath(key: ArtifactKey): string {
  const folder = slugify(key.agent, AGENT_SLUG_LENGTH) || 'agent'
  const name = slugify(key.test, TEST_SLUG_LENGTH) || 'test'
  const numbered = key.assertion === 1 ? name : `${name}-${key.assertion}`
  const hash = createHash('sha256')
    .update(JSON.stringify([key.file, key.test, key.agent, key.assertion]))
    .digest('hex')
    .slice(0, 8)
  return `${folder}/${numbered}-${hash}`
}

/**
 * Writes `<reportDir>/<path>.json` (validated by `ArtifactSchema`) and the HTML report
 * `<path>.html` next to it, `path` being an {@link artifactPath}. A rendering failure costs the
 * page, never the verdict: it is returned as `htmlError` for the caller to show. A directory that
 * cannot be written throws (the caller decides what that costs).
 */
export async function writeReportFiles(
  reportDir: string,
  path: string,
  artifact: Artifact,
): Promise<ReportFiles> {
  const json = `${path}.json`
  const html = `${path}.html`
  await writeJsonFile(join(reportDir, json), ArtifactSchema, artifact, 'artifact')
  try {
    await writeFileAtomically(join(reportDir, html), renderReportHtml(artifact, basename(json)))
    return { json, html, htmlError: null }
  } catch (error) {
    return { json, html: null, htmlError: asError(error) }
  }
}

// Directories already warned about: a run with an unwritable directory says so once, not per test.
const warnedDirectories = new Set<string>()

/**
 * Warns on stderr, once per process and directory, that reports cannot be written to `reportDir`.
 * The verdict does not depend on its report: the test still passes or fails on its own.
 */
export function warnReportNotWritten(reportDir: string, error: unknown): void {
  if (warnedDirectories.has(reportDir)) return
  warnedDirectories.add(reportDir)
  console.warn(
    `causal-replay: cannot write reports to ${reportDir} (${asError(error).message}); ` +
      'verdicts are unaffected, but no artifact or HTML report is written there.',
  )
}

/** A file-name-safe slug of at most `length` characters: "rarely refunds wrongly" → "rarely-refunds-wrongly". */
export function slugify(text: string, length = TEST_SLUG_LENGTH): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return cut(slug, length)
}

/** `slug` within `length` characters, cut after a whole word when one ends in the second half. */
function cut(slug: string, length: number): string {
  if (slug.length <= length) return slug
  const head = slug.slice(0, length + 1)
  const wordEnd = head.lastIndexOf('-')
  return (wordEnd > length / 2 ? head.slice(0, wordEnd) : head.slice(0, length)).replace(/-+$/, '')
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
