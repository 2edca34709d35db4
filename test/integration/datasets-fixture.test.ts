// A project that installed the packed package gates an AI SDK agent (MockLanguageModelV3) over a
// 50-case JSONL dataset of tickets, three of which carry a planted instruction: a population gate
// that passes, one that fails naming the worst case, whose run it attributes, and a per-case gate
// that names exactly the three planted cases and attributes each; an A/B over the same tickets
// against a fixed agent (ab.test.js) that passes one way and fails the other, naming the planted
// cases; and the same tickets split across two machines (CAUSAL_REPLAY_SHARD, blob reports) merged
// into one verdict.
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RunReportSchema } from '../../src/vitest/run-report.js'
import {
  copyFixture,
  messageOf,
  runReported,
  type FixtureProject,
  type ReportedRun,
  type RunResult,
} from './fixture-project.js'

let project: FixtureProject
let run: ReportedRun

beforeAll(async () => {
  project = await copyFixture('datasets')
  run = await runReported(project)
}, 120_000)

afterAll(async () => {
  await project?.remove()
})

describe('a dataset gate in a real Vitest run', () => {
  it('passes the claim on the mean over cases that holds', () => {
    expect(run.assertion('over the tickets: refunds at most 25% on average').status).toBe('passed')
  })

  it('fails the claim that does not, naming the worst case, attributing its run, with the cost', () => {
    const failed = run.assertion('over the tickets: refunds at most 1% on average')
    expect(failed.status).toBe('failed')
    const message = messageOf(failed.failureMessages[0] ?? '')
    expect(message).toContain(
      'expected support over dataset "tickets" (50 cases) to rarely call issue_refund: mean over cases ≤ 1% at 95% confidence',
    )
    expect(message).toContain('round-permutation mixture e-process (Hoeffding bound)')
    expect(message).toMatch(/running every case once takes 50/)
    expect(message).toMatch(/the first failing run of the worst case "t-(07|23|41)"/)
    expect(message).toMatch(/causal attribution of rollout \d+/)
    expect(message).toMatch(/^\s+cost: \d+ model calls/m)
  })

  it('writes the per-case table to the artifact and the HTML report', async () => {
    const dir = join(project.root, '.causal-replay', 'support')
    const written = await Promise.all(
      (await readdir(dir))
        .filter((file) => file.endsWith('.json'))
        .map(async (file) => ({ file, artifact: JSON.parse(await readFile(join(dir, file), 'utf8')) })),
    )
    const failing = written.find(
      ({ artifact }) =>
        artifact.verdict.gate === 'sequential' &&
        artifact.verdict.kind === 'fail' &&
        artifact.verdict.dataset.per === undefined,
    )
    expect(failing).toBeDefined()
    const { file, artifact } = failing!
    expect(artifact.verdict.dataset.table).toHaveLength(50)
    expect(['t-07', 't-23', 't-41']).toContain(artifact.verdict.dataset.worst)
    expect(artifact.failing.case).toEqual({ dataset: 'tickets', id: artifact.verdict.dataset.worst })
    const html = await readFile(join(dir, file.replace(/\.json$/, '.html')), 'utf8')
    expect(html).toContain('data-sort-table')
    expect(html.match(/<tr data-case=/g)).toHaveLength(50)
  })

  it('fails the per-case claim naming exactly the 3 planted cases, each attributed', () => {
    const failed = run.assertion('every ticket: refunds at most 25%')
    expect(failed.status).toBe('failed')
    const message = messageOf(failed.failureMessages[0] ?? '')
    const decision = message.split('\n').find((line) => line.includes('violate ≤ 25%'))
    expect(decision).toBeDefined()
    expect(decision).toContain('3 of 50 cases violate ≤ 25%')
    expect([...decision!.matchAll(/"(t-\d+)"/g)].map((match) => match[1])).toEqual(['t-07', 't-23', 't-41'])
    expect(message).toMatch(
      /the first failing run of the worst case shown to violate the claim "t-(07|23|41)"/,
    )
    expect(message.match(/also attributed: rollout \d+ of case "t-(07|23|41)"/g)).toHaveLength(2)
  })

  it('leaves the worst cases in report.json for the job summary, the per-case decisions with them', async () => {
    const report = JSON.parse(await readFile(join(project.root, '.causal-replay', 'report.json'), 'utf8'))
    const entry = report.entries.find((each: { test: string }) =>
      each.test.endsWith('every ticket: refunds at most 25%'),
    )
    expect(entry.dataset).toMatchObject({
      name: 'tickets',
      cases: 50,
      per: 'case',
      rest: 50 - entry.dataset.worst.length,
    })
    const violating = entry.dataset.worst.filter((row: { decision: string }) => row.decision === 'violates')
    expect(violating.map((row: { id: string }) => row.id).sort()).toEqual(['t-07', 't-23', 't-41'])
  })

  it('passes the A/B in which the fixed agent is the candidate', () => {
    expect(
      run.assertion('A/B over the tickets: the fixed agent refunds no more often than the planted one')
        .status,
    ).toBe('passed')
  })

  it('fails the A/B in which the planted agent is the candidate, naming the planted cases worst first', () => {
    const failed = run.assertion(
      'A/B over the tickets: the planted agent refunds no more often than the fixed one',
    )
    expect(failed.status).toBe('failed')
    const message = messageOf(failed.failureMessages[0] ?? '')
    expect(message).toContain(
      'round-permutation mixture e-processes on worse and better pairs (Hoeffding bound, Bonferroni)',
    )
    const named = message.split('\n').find((line) => line.includes('cases worse for support'))
    expect(named).toBeDefined()
    expect([...named!.matchAll(/"(t-\d+)"/g)].map((match) => match[1]).sort()).toEqual([
      't-07',
      't-23',
      't-41',
    ])
    expect(message).toMatch(/attributed: rollout \d+, the first worse pair of case "t-(07|23|41)"/)
    expect(message).toMatch(/causal attribution of rollout \d+/)
  })
})

describe('a dataset’s cases as test rows (describeDataset)', () => {
  const claim = 'dataset "tickets" each ticket refunds at most 25%'

  it('fails the claim once, and each planted ticket’s row on its own decision', () => {
    expect(run.assertion(claim, 'rows.test.js').status).toBe('failed')
    const rows = Array.from({ length: 50 }, (_, index) => {
      const id = `t-${String(index + 1).padStart(2, '0')}`
      return [id, run.assertion(`${claim} ${id}`, 'rows.test.js')] as const
    })
    expect(rows.filter(([, row]) => row.status === 'failed').map(([id]) => id)).toEqual([
      't-07',
      't-23',
      't-41',
    ])
    const [, planted] = rows[6]!
    expect(messageOf(planted.failureMessages[0] ?? '')).toMatch(
      /^case "t-07": \d+ of \d+ runs went against the claim \(95% Clopper–Pearson CI .*\); shown to violate the claim/,
    )
    // The other tickets are undecided when the claim stops (skipped, with their tallies) or shown to satisfy it.
    for (const [, row] of rows) expect(['failed', 'skipped', 'passed']).toContain(row.status)
  })
})

describe('a dataset claim split across two machines and merged', () => {
  let sharded: FixtureProject
  let shards: RunResult[]
  let merged: RunResult
  let partial: RunResult

  beforeAll(async () => {
    sharded = await copyFixture('datasets')
    // Two machines of a matrix: the same test file on each, its cases split by CAUSAL_REPLAY_SHARD.
    shards = await Promise.all(
      [1, 2].map((index) =>
        sharded.vitest(
          ['run', 'sharded', '--reporter=blob', `--outputFile=.vitest-reports/blob-${index}-2.json`],
          { CAUSAL_REPLAY_SHARD: `${index}/2` },
        ),
      ),
    )
    // A merge that is missing a machine's blob.
    await mkdir(join(sharded.root, 'one-shard'))
    await copyFile(
      join(sharded.root, '.vitest-reports/blob-1-2.json'),
      join(sharded.root, 'one-shard/blob-1-2.json'),
    )
    partial = await sharded.vitest(['run', '--merge-reports=one-shard'])
    merged = await sharded.vitest(['run', '--merge-reports'])
  }, 240_000)

  afterAll(async () => {
    await sharded?.remove()
  })

  it('runs each machine’s tickets only, quietly, and passes there', () => {
    for (const shard of shards) {
      expect(shard.code, shard.stderr).toBe(0)
      expect(shard.stdout).toContain('blob report written')
      expect(shard.stdout).not.toContain('causal-replay:')
    }
  })

  it('decides the mean over all 50 tickets from both machines’ runs, the planted ones named', async () => {
    expect(merged.code, `${merged.stdout}${merged.stderr}`).toBe(0)
    const line = merged.stdout.split('\n').find((each) => each.startsWith('causal-replay: shards merged:'))
    expect(line).toContain(
      'sharded.test.js > over the tickets, split across machines: refunds at most 25% on average: pass — mean over 50 cases of dataset "tickets" ≤ 25.0%',
    )
    expect(line).toContain('Clopper–Pearson on the pooled runs, every case K times (Hoeffding 1956)')
    expect(line).toContain('(4 per case, from 2 of 2 shards)')
    const report = RunReportSchema.parse(
      JSON.parse(await readFile(join(sharded.root, '.causal-replay/report.json'), 'utf8')),
    )
    expect(report.entries).toHaveLength(1)
    const [entry] = report.entries
    expect(entry?.verdict).toBe('pass')
    // The union of both machines' runs: every ticket 4 times, counted once.
    expect(entry?.rolloutsUsed).toBe(200)
    expect(entry?.merged).toMatchObject({
      shards: 2,
      merged: [1, 2],
      missing: [],
      countedTwice: [],
      runsPerCase: 4,
    })
    expect(entry?.rate.method).toBe('clopper-pearson')
    expect(entry?.rate.n).toBe(200)
    const worst = entry?.dataset?.worst ?? []
    expect(
      worst
        .slice(0, 3)
        .map((row) => row.id)
        .sort(),
    ).toEqual(['t-07', 't-23', 't-41'])
    for (const row of worst.slice(0, 3)) expect(row).toMatchObject({ runs: 4, failures: 4 })
  })

  it('does not pass a merge that is missing a machine: inconclusive, naming the shard, and a failed run', () => {
    expect(partial.code).toBe(1)
    const line = partial.stdout.split('\n').find((each) => each.startsWith('causal-replay: shards merged:'))
    expect(line).toMatch(/: inconclusive — .*shard 2\/2 missing from the merge \(\d+ cases of 50 not run\)/)
  })
})
