import { displayPath } from '../files/display-path.js'
import type { CassetteStaleness } from './cassette.js'

/** What a stale cassette's reader should do about it, worded once for the terminal and the job summary. */
const ADVICE = 'run locally and commit the cassette, or set CAUSAL_REPLAY_CACHE=offline in CI to fail instead'

/**
 * The terminal's line for a cassette whose misses were called live and dropped (a run that does
 * not write, as in CI): how many, where the first one differs, and what to do.
 *
 * `vitest-causal-replay: stale cassette __cassettes__/a.test.ts.cassette.json: 34 calls were not in it and were made live, not written (first difference: step 0 "decide#1" prompt[0].content: "…" → "…"); run locally and commit the cassette, or set CAUSAL_REPLAY_CACHE=offline in CI to fail instead.`
 */
export function formatStaleCassetteLine(stale: CassetteStaleness, cwd: string): string {
  return `vitest-causal-replay: stale cassette ${displayPath(stale.file, cwd)}: ${missed(stale)}${difference(stale)}; ${ADVICE}.`
}

/** The same warning as a GitHub job summary block (Markdown alert). */
export function formatStaleCassetteMarkdown(stale: CassetteStaleness, cwd: string): string {
  const first =
    stale.firstDifference === null
      ? ''
      : ` First difference: \`${stale.firstDifference.replaceAll('`', "'")}\`.`
  const advice = ADVICE.replace('CAUSAL_REPLAY_CACHE=offline', '`CAUSAL_REPLAY_CACHE=offline`')
  return `> [!WARNING]\n> **Stale cassette** \`${displayPath(stale.file, cwd)}\`: ${missed(stale)}.${first} To fix: ${advice}.\n\n`
}

function missed(stale: CassetteStaleness): string {
  const calls = stale.misses === 1 ? '1 call was' : `${stale.misses} calls were`
  return `${calls} not in it and ${stale.misses === 1 ? 'was' : 'were'} made live, not written`
}

function difference(stale: CassetteStaleness): string {
  return stale.firstDifference === null ? '' : ` (first difference: ${stale.firstDifference})`
}
