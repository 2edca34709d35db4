import { appendFile } from 'node:fs/promises'

/** The environment variable GitHub Actions sets to the job summary file of the current step. */
export const STEP_SUMMARY_ENV = 'GITHUB_STEP_SUMMARY'

/**
 * Appends the Markdown `render` makes to the GitHub Actions job summary when `GITHUB_STEP_SUMMARY` names one
 * (appends: other steps and reporters write there too, Vitest's own `github-actions` reporter
 * among them). Returns the file written, or null outside GitHub Actions. A file that cannot be
 * written throws; the reporter turns that into a warning, never a failed run.
 */
export async function appendJobSummary(
  render: () => string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string | null> {
  const file = env[STEP_SUMMARY_ENV]?.trim()
  if (file === undefined || file === '') return null
  await appendFile(file, render(), 'utf8')
  return file
}
