import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  copyFixture,
  messageOf,
  runReported,
  summaryBlock,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

// One real Vitest run of test/fixtures/model-calls: three test files in two worker processes call a
// mock hosted model under the plugin's run-wide limit of 600 requests per minute (one call every
// 100 ms), with GITHUB_STEP_SUMMARY pointing at a file of the project's.
const SPACING_MS = 100
let project: FixtureProject
let run: ReportedRun
let calls: Array<{ at: number; pid: string }>
let summary: string

beforeAll(async () => {
  project = await copyFixture('model-calls')
  const summaryFile = join(project.root, 'step-summary.md')
  run = await runReported(project, [], { GITHUB_STEP_SUMMARY: summaryFile })
  calls = (await readFile(join(project.root, 'calls.log'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [at, pid] = line.split(' ')
      return { at: Number(at), pid: pid ?? '' }
    })
    .sort((a, b) => a.at - b.at)
  summary = await readFile(summaryFile, 'utf8')
}, 120_000)

afterAll(async () => {
  await project?.remove()
})

/** The most calls in any window of `ms` milliseconds. */
function busiestWindow(times: readonly number[], ms: number): number {
  let most = 0
  let start = 0
  for (let end = 0; end < times.length; end++) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= ms) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}

describe('the plugin rateLimit across workers', () => {
  it('holds for the whole run, though two workers called the model at once', () => {
    // A fork per test file (Vitest isolates files), two at a time.
    const pids = new Set(calls.map((call) => call.pid))
    expect(pids.size).toBe(3)
    // Two workers were calling during a shared stretch of time: a limit per worker would have let
    // through twice the calls there.
    const spans = [...pids].map((pid) => {
      const times = calls.filter((call) => call.pid === pid).map((call) => call.at)
      return { first: Math.min(...times), last: Math.max(...times) }
    })
    const overlaps = spans.flatMap((a, i) =>
      spans.slice(i + 1).map((b) => Math.min(a.last, b.last) - Math.max(a.first, b.first)),
    )
    expect(Math.max(...overlaps)).toBeGreaterThan(5 * SPACING_MS)

    const times = calls.map((call) => call.at)
    // At most 20 calls start in any 2 s (one per 100 ms); one more for the jitter between the
    // coordinator's grant and the model seeing the call. Per worker alone, the limit would allow
    // 40 there, and this run's calls would have bunched into about half the time.
    expect(busiestWindow(times, 20 * SPACING_MS)).toBeLessThanOrEqual(21)
    const span = (times.at(-1) ?? 0) - (times[0] ?? 0)
    expect(span).toBeGreaterThanOrEqual((times.length - 2) * SPACING_MS)
  })
})

describe('cost in the verdicts of a run with model calls', () => {
  it('prints a cost line in the failure message', () => {
    const message = messageOf(run.assertion('injected note: rarely refunds').failureMessages[0] ?? '')
    expect(message).toMatch(/\n {2}cost: \d+ model calls, [\d,]+ tokens, \$0\.\d{4}\n/)
  })

  it('adds a cost column and the run total to the summary table', () => {
    const block = summaryBlock(run.stdout)
    expect(block).toMatch(/rollouts {2}cost/)
    expect(block).toMatch(/16 calls, \$0\.0080/)
    const total = /total cost: (\d+) model calls, ([\d,]+) tokens, \$(0\.\d{4})/.exec(block)
    expect(total).not.toBeNull()
    // Every call the model answered is counted once, at 175 tokens and $0.0005 a call.
    expect(Number(total?.[1])).toBe(calls.length)
    expect(Number(total?.[2]?.replaceAll(',', ''))).toBe(calls.length * 175)
    expect(Number(total?.[3])).toBeCloseTo(calls.length * 0.0005, 4)
  })
})

describe('the GitHub Actions job summary', () => {
  it('appends a Markdown table of every rate assertion, failing ones first, with their reports', () => {
    const lines = summary.trimEnd().split('\n')
    expect(lines[0]).toBe('### causal-replay: 3 rate assertions — 0 fail, 1 inconclusive, 2 pass')
    expect(lines[2]).toBe(
      '| test | verdict | rate [interval] | pass^k (largest k) | rollouts | cost | causal locus | report |',
    )
    const rows = lines.filter(
      (line) => line.startsWith('| ') && !line.startsWith('| test') && !line.startsWith('| ---'),
    )
    expect(rows).toHaveLength(3)
    expect(rows[0]).toMatch(
      /^\| injected\.test\.js &gt; injected note: rarely refunds \| ⚠️ inconclusive \| \d+\.\d% \\\[[\d.]+%–[\d.]+%\\\] [^|]+ \| pass\^8 [\d.]+% \\\[[\d.]+%–[\d.]+%\\\] 90% \| 16 \| 16 calls, \$0\.0080 \| — \| `\.causal-replay\/[^`]+\.html` \|$/,
    )
    expect(rows[1]).toMatch(/^\| damaged\.test\.js &gt; damaged order: never refunds \| ✅ pass \| 0\.0% /)
    expect(rows[2]).toMatch(
      /^\| late\.test\.js &gt; late order: never refunds \| ✅ pass \| 0\.0% .* \| 16 \| 16 calls, \$0\.0080 \| — \| `/,
    )
    expect(summary).toMatch(/\nTotal cost: \d+ model calls, [\d,]+ tokens, \$0\.\d{4}\n/)
  })
})
