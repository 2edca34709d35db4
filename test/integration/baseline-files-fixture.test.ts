import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ArtifactSchema } from '../../src/verdict/schema.js'
import { readMetaEntries } from '../../src/vitest/meta.js'
import { RunReportSchema } from '../../src/vitest/run-report.js'
import { copyFixture, runReported, type FixtureProject } from './fixture-project.js'

// test/fixtures/baseline-files: baseline files under stress, as users run them: two `vitest -u`
// runs writing one file at once, a corrupted file under a filtered `-u`, entry names that are
// Object.prototype members, two tests of one name in one file.
let project: FixtureProject

beforeAll(async () => {
  project = await copyFixture('baseline-files')
})

afterAll(async () => {
  await project?.remove()
})

const baselineFile = (testFile: string) => join(project.root, '__baselines__', `${testFile}.rates.json`)

interface StoredEntry {
  rate: number
  successes: number
  predicate: string
}

/** The file's entries as JSON reads them: every own key, `__proto__` included. */
async function storedEntries(testFile: string): Promise<Record<string, StoredEntry>> {
  const parsed = JSON.parse(await readFile(baselineFile(testFile), 'utf8')) as {
    entries: Record<string, StoredEntry>
  }
  return parsed.entries
}

/** `vitest run -u -t odd` and `-t even` at once, meeting at a barrier so their writes overlap. */
async function oddAndEvenAtOnce(round: string, env: Record<string, string>) {
  const barrier = join(project.root, `barrier-${round}`)
  await mkdir(barrier)
  return Promise.all(
    ['odd', 'even'].map((half) =>
      project.vitest(['run', 'odd-even', '-u', '-t', half], { FIXTURE_BARRIER: barrier, ...env }),
    ),
  )
}

const ALL_ENTRIES = Array.from({ length: 30 }, (_, index) => {
  const number = index + 1
  return `entry ${number} ${number % 2 === 1 ? 'odd' : 'even'} 1`
}).sort()

describe('baseline files in a real project', () => {
  it('two `vitest -u` runs writing one file at once keep all 30 entries, created and then rewritten', async () => {
    const created = await oddAndEvenAtOnce('created', {})
    expect(created.map((run) => run.code)).toEqual([0, 0])
    const first = await storedEntries('odd-even.test.js')
    expect(Object.keys(first)).toEqual(ALL_ENTRIES)

    // A build of the agent that refunds more: every entry is rewritten, by two runs at once again.
    // Each test keeps its seed, so each of its rollouts that refunded before refunds again.
    const rewritten = await oddAndEvenAtOnce('rewritten', { FIXTURE_REFUND_RATE: '0.7' })
    expect(rewritten.map((run) => run.code)).toEqual([0, 0])
    const second = await storedEntries('odd-even.test.js')
    expect(Object.keys(second)).toEqual(ALL_ENTRIES)
    const raised = ALL_ENTRIES.filter((key) => second[key]!.successes > first[key]!.successes)
    expect(raised).toHaveLength(30)
  }, 180_000)

  it('refuses a corrupted file under a filtered `-u`, naming the file and the field, and leaves it byte-identical', async () => {
    const text = await readFile(baselineFile('odd-even.test.js'), 'utf8')
    const corrupted = text.replace(/"successes": \d+/, '"successes": "many"')
    expect(corrupted).not.toBe(text)
    await writeFile(baselineFile('odd-even.test.js'), corrupted)
    const run = await project.vitest(['run', 'odd-even', '-u', '-t', 'entry 3 odd'])
    expect(run.code).toBe(1)
    const output = run.stdout + run.stderr
    expect(output).toMatch(/Invalid baseline in .*__baselines__\/odd-even\.test\.js\.rates\.json:/)
    expect(output).toMatch(/→ at entries\["entry 1 odd 1"\]\.successes/)
    expect(output).toContain(
      'The baseline file was left unchanged. Fix it, or delete it and run `vitest -u` to measure every entry anew.',
    )
    expect(await readFile(baselineFile('odd-even.test.js'), 'utf8')).toBe(corrupted)
  }, 90_000)

  it('records, reads and rewrites entries named constructor, toString, hasOwnProperty and __proto__', async () => {
    const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString']
    const recorded = await project.vitest(['run', 'prototype-names'])
    expect(recorded.code).toBe(0)
    expect(Object.keys(await storedEntries('prototype-names.test.js')).sort()).toEqual(names)

    // In CI a missing entry fails: each one is found, compared and reproduced.
    const ci = await runReported(project, ['prototype-names'], { UPDATE_SNAPSHOT: 'none' })
    expect(ci.code).toBe(0)
    for (const name of names) expect(ci.assertion(`named ${name}`).status).toBe('passed')

    const updated = await project.vitest(['run', 'prototype-names', '-u'], { FIXTURE_REFUND_RATE: '0.7' })
    expect(updated.code).toBe(0)
    const rewritten = await storedEntries('prototype-names.test.js')
    expect(Object.keys(rewritten).sort()).toEqual(names)
    for (const name of names) expect(rewritten[name]!.rate).toBeGreaterThan(0.5)
  }, 180_000)

  it('keeps two tests of one name apart: each its own baseline entry and its own report files', async () => {
    const run = await runReported(project, ['same-name'])
    expect(run.code).toBe(0)
    const entries = await storedEntries('same-name.test.js')
    expect(Object.keys(entries)).toEqual(['gate 1', 'gate 2'])
    expect([entries['gate 1']!.predicate, entries['gate 2']!.predicate]).toEqual([
      'call issue_refund',
      'call escalate',
    ])

    const results = JSON.parse(await readFile(join(run.out, 'results.json'), 'utf8')) as {
      testResults: Array<{ assertionResults: Array<{ fullName: string; meta: object }> }>
    }
    const gates = results.testResults
      .flatMap((file) => file.assertionResults)
      .filter((test) => test.fullName === 'gate')
    expect(gates).toHaveLength(2)
    const metas = gates.map((test) => readMetaEntries(test.meta))
    expect(metas.map((meta) => meta.length)).toEqual([1, 1])
    const artifacts = metas.map((meta) => meta[0]!.artifact)
    expect(new Set(artifacts).size).toBe(2)
    const reportDir = join(project.root, '.causal-replay')
    const predicates = await Promise.all(
      artifacts.map(async (artifact) => {
        const written = ArtifactSchema.parse(JSON.parse(await readFile(join(reportDir, artifact!), 'utf8')))
        return written.verdict.predicate
      }),
    )
    expect(predicates.sort()).toEqual(['call escalate', 'call issue_refund'])

    // The run's report rows open the two files.
    const report = RunReportSchema.parse(JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')))
    const rows = report.entries.filter((entry) => entry.test === 'gate')
    expect(rows).toHaveLength(2)
    expect(new Set(rows.map((row) => row.html ?? row.artifact)).size).toBe(2)

    // In CI each is compared with its own entry, not one with the other's.
    const ci = await project.vitest(['run', 'same-name'], { UPDATE_SNAPSHOT: 'none' })
    expect(ci.code).toBe(0)
  }, 180_000)
})
