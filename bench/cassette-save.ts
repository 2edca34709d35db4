/**
 * Cassette save benchmark: time and peak memory. Prints a table; asserts nothing.
 *
 *   npx tsx bench/cassette-save.ts
 *
 * Saves one cassette of 40 tool calls with a 5 MB result each (200 MB of values, as a test file of
 * an agent that reads large pages records), each case in a fresh child process so that one case's
 * heap does not raise the next one's peak:
 * - `one-string`: the serializer cassettes were written with before (the whole text built as one
 *   string, `test/unit/cassette/one-string-cassette.ts`), then written atomically;
 * - `chunked`: `saveCassetteFile`, which writes the same bytes chunk by chunk (with its lock, the
 *   cleanup of stale temporary files and the unchanged-file check: a real save);
 * and one value of 3 × 200 MB (600 M characters, more than a string can hold), which the one-string
 * serializer cannot write at all and `saveCassetteFile` refuses by name.
 * `peak RSS` is `process.resourceUsage().maxRSS`; `over the calls` subtracts the RSS the recorded
 * calls themselves took before the save started.
 *
 * One case alone: `node --import tsx bench/cassette-save.ts <case>`, e.g. `chunked`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { saveCassetteFile } from '../src/cassette/cassette-file.js'
import type { CassetteEntry } from '../src/cassette/schema.js'
import { writeFileAtomically } from '../src/files/atomic-write.js'
import { formatCassetteAsOneString } from '../test/unit/cassette/one-string-cassette.js'

const CASES = ['one-string', 'chunked', 'one-string-600', 'chunked-600'] as const
type Case = (typeof CASES)[number]

const CALLS = 40
const RESULT_CHARACTERS = 5_000_000

/** What a child reports on its last line of output. */
interface Measurement {
  ms: number
  peakRssMb: number
  callsRssMb: number
  fileMb: number | null
  outcome: string
}

/** 40 tool calls of 5 MB each, every result distinct; or one call whose result is 3 × 200 MB. */
function recordedCalls(large: boolean): Map<string, CassetteEntry> {
  const entries = new Map<string, CassetteEntry>()
  const page = 'lorem ipsum dolor sit amet, '.repeat(Math.ceil(RESULT_CHARACTERS / 28))
  const count = large ? 1 : CALLS
  for (let n = 0; n < count; n++) {
    const body = large ? 'x'.repeat(200_000_000) : `page ${n}: ${page}`.slice(0, RESULT_CHARACTERS)
    entries.set(`tool:${n.toString(16).padStart(32, '0')}`, {
      kind: 'tool',
      tool: 'fetch_page',
      stream: { seed: 1, rollout: n, step: 0, position: 0 },
      args: { url: `page-${n}` },
      result: large ? [body, body, body] : { status: 200, body },
    })
  }
  return entries
}

async function measure(which: Case): Promise<Measurement> {
  const entries = recordedCalls(which.endsWith('-600'))
  const callsRssMb = process.memoryUsage().rss / 1024 / 1024
  const dir = await mkdtemp(join(tmpdir(), 'bench-cassette-save-'))
  const file = join(dir, 'pages.test.js.cassette.json')
  const start = performance.now()
  let outcome = 'written'
  try {
    if (which.startsWith('one-string')) await writeFileAtomically(file, formatCassetteAsOneString(entries))
    else await saveCassetteFile(file, { put: entries, keep: undefined })
  } catch (error) {
    outcome = `${(error as Error).name}: ${(error as Error).message.split('\n').slice(0, 2).join(' / ')}`
  }
  const ms = performance.now() - start
  const fileMb = await stat(file).then(
    (stats) => stats.size / 1e6,
    () => null,
  )
  await rm(dir, { recursive: true, force: true })
  return { ms, peakRssMb: process.resourceUsage().maxRSS / 1024, callsRssMb, fileMb, outcome }
}

function runChild(which: Case): Measurement | string {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), which], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  })
  const last = child.stdout.trim().split('\n').at(-1) ?? ''
  if (child.status !== 0 || !last.startsWith('{')) {
    const error = child.stderr.includes('heap out of memory')
      ? 'out of memory'
      : (child.signal ?? `exit ${child.status}`)
    return `failed (${error})`
  }
  return JSON.parse(last) as Measurement
}

const only = process.argv[2]
if (only !== undefined) {
  if (!CASES.includes(only as Case)) {
    throw new Error(`bench/cassette-save.ts: expected one of ${CASES.join(', ')}, got ${only}.`)
  }
  console.log(JSON.stringify(await measure(only as Case)))
} else {
  console.log(
    `cassette save, each case in a fresh process: ${CALLS} tool calls × ${RESULT_CHARACTERS / 1e6} MB results`,
  )
  console.log(`(200 MB of values), then one call whose result is 3 × 200 MB\n`)
  const width = [16, 10, 10, 14, 10]
  const row = (cells: readonly string[]) => cells.map((cell, i) => cell.padStart(width[i] ?? 0)).join('  ')
  console.log(`${row(['case', 'save', 'peak RSS', 'over the calls', 'file'])}  outcome`)
  const results = new Map<Case, Measurement | string>()
  for (const which of CASES) {
    const result = runChild(which)
    results.set(which, result)
    if (typeof result === 'string') {
      console.log(`${row([which, '', '', '', ''])}  ${result}`)
      continue
    }
    console.log(
      `${row([
        which,
        `${(result.ms / 1000).toFixed(2)} s`,
        `${result.peakRssMb.toFixed(0)} MB`,
        `${(result.peakRssMb - result.callsRssMb).toFixed(0)} MB`,
        result.fileMb === null ? '—' : `${result.fileMb.toFixed(0)} MB`,
      ])}  ${result.outcome}`,
    )
  }
  const before = results.get('one-string')
  const after = results.get('chunked')
  if (typeof before === 'object' && typeof after === 'object') {
    const over = (m: Measurement) => m.peakRssMb - m.callsRssMb
    console.log(
      `\nchunked / one-string, 200 MB: save time ${(after.ms / before.ms).toFixed(2)}×, ` +
        `memory over the calls ${(over(after) / over(before)).toFixed(2)}×`,
    )
  }
}
