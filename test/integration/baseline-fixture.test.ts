import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BaselineFileSchema } from '../../src/verdict/baseline-file.js'
import { copyFixture, summaryBlock, type FixtureProject } from './fixture-project.js'

// A project set up without the plugin (setup file + reporter by name) whose test keeps a rate
// baseline; the runs below follow its life: recorded, a regression caught in CI, `-u`, a corrupted file.
let project: FixtureProject
let baselineFile = ''

const KEY = 'support keeps its refund rate 1'

async function readBaseline() {
  return BaselineFileSchema.parse(JSON.parse(await readFile(baselineFile, 'utf8')))
}

beforeAll(async () => {
  project = await copyFixture('baseline')
  baselineFile = join(project.root, '__baselines__/rates.test.js.rates.json')
})

afterAll(async () => {
  await project?.remove()
})

describe('toMatchRateBaseline in a real project', () => {
  it('records the baseline on the first run', async () => {
    const first = await project.vitest(['run'])
    expect(first.code).toBe(0)
    const file = await readBaseline()
    expect(Object.keys(file.entries)).toEqual([KEY])
    expect(file.entries[KEY]).toMatchObject({
      n: 200,
      agent: 'support',
      predicate: 'call issue_refund',
      better: 'lower',
    })
    expect(file.entries[KEY]!.rate).toBeLessThan(0.12)
    expect(summaryBlock(first.stdout)).toMatch(/1 rate assertion — 0 fail, 0 inconclusive, 1 pass/)
    // Written as Vitest's snapshots are: counted at the end of the run.
    expect(summaryBlock(first.stdout)).toContain('\n  1 rate baseline written\n')
  }, 60_000)

  it('in CI, passes the unchanged agent: its stored run reproduced with the stored seed', async () => {
    const ci = await project.vitest(['run'], { UPDATE_SNAPSHOT: 'none' })
    expect(ci.code).toBe(0)
    expect(summaryBlock(ci.stdout)).toMatch(/1 rate assertion — 0 fail, 0 inconclusive, 1 pass/)
    expect(summaryBlock(ci.stdout)).not.toContain('rate baseline')
    expect((await readBaseline()).entries[KEY]!.outcomes).toMatch(/^[01]{200}$/)
  }, 60_000)

  it('in CI, catches a regression and refuses to invent a missing baseline', async () => {
    const before = await readFile(baselineFile, 'utf8')
    const ci = await project.vitest(['run'], {
      UPDATE_SNAPSHOT: 'none',
      FIXTURE_REFUND_RATE: '0.3',
      FIXTURE_NEW_TEST: '1',
    })
    expect(ci.code).toBe(1)
    const output = ci.stdout + ci.stderr
    expect(output).toMatch(
      /expected support to call issue_refund no more often than its baseline \([\d.]+%, tolerance \+0\.0%\) at 95% confidence/,
    )
    expect(output).toMatch(
      /new [\d.]+% vs stored [\d.]+%: difference \+[\d.]+%, 95% lower bound \+[\d.]+% \(Tango, continuity-corrected, paired by rollout: \d+ worse, \d+ better, \d+ alike\), beyond the \+0\.0% tolerance → regression/,
    )
    // The attribution explains one failing rollout; the change in rate is not its doing.
    expect(output).toMatch(/← locus of one failing rollout, not the cause of the change/)
    expect(output).toMatch(
      /no entry "new refund baseline" in __baselines__\/rates\.test\.js\.rates\.json, and this run may not write one/,
    )
    expect(output).toContain('record it locally with `vitest -u`')
    expect(await readFile(baselineFile, 'utf8')).toBe(before)
  }, 60_000)

  it('rewrites the baseline with -u', async () => {
    const updated = await project.vitest(['run', '-u'], { FIXTURE_REFUND_RATE: '0.3' })
    expect(updated.code).toBe(0)
    expect(summaryBlock(updated.stdout)).toContain('\n  1 rate baseline updated\n')
    expect(updated.stdout + updated.stderr).not.toMatch(/regression/)
    expect((await readBaseline()).entries[KEY]!.rate).toBeGreaterThan(0.2)
  }, 60_000)

  it('counts a failed claim of a test.fails test as Vitest does: an expected fail, in a passing run', async () => {
    const summary = join(project.root, 'job-summary.md')
    const run = await project.vitest(['run'], {
      UPDATE_SNAPSHOT: 'none',
      FIXTURE_EXPECTED_FAIL: '1',
      GITHUB_STEP_SUMMARY: summary,
    })
    expect(run.code).toBe(0)
    const block = summaryBlock(run.stdout)
    expect(block).toMatch(/2 rate assertions — 0 fail, 1 expected fail, 0 inconclusive, 1 pass/)
    expect(block).toMatch(/rates\.test\.js > never refunds \(a known gap\) +expected fail /)
    expect(await readFile(summary, 'utf8')).toMatch(
      /0 fail, 1 expected fail, 0 inconclusive, 1 pass[^]*\| ✅ expected fail \|/,
    )
    const index = await readFile(join(project.root, '.causal-replay/index.html'), 'utf8')
    expect(index).toContain('<span class="badge badge-pass">1 expected fail</span>')
  }, 60_000)

  it('fails an entry recorded for another predicate instead of comparing with it, and leaves it alone', async () => {
    const before = await readFile(baselineFile, 'utf8')
    const run = await project.vitest(['run', '-t', 'taken name'], { FIXTURE_MISMATCH: '1' })
    expect(run.code).toBe(1)
    const output = run.stdout + run.stderr
    expect(output).toContain(
      'baseline: the entry "support keeps its refund rate 1" in __baselines__/rates.test.js.rates.json was recorded for support / "call issue_refund", not for this claim; nothing was compared',
    )
    expect(output).not.toMatch(/difference [+-]/)
    expect(await readFile(baselineFile, 'utf8')).toBe(before)
  }, 60_000)

  it('keeps fields it does not know when it rewrites an entry', async () => {
    const raw = JSON.parse(await readFile(baselineFile, 'utf8')) as {
      reviewedBy?: string
      entries: Record<string, Record<string, unknown>>
    }
    raw.reviewedBy = 'qa-team'
    raw.entries[KEY]!.note = 'accepted after the March incident'
    await writeFile(baselineFile, JSON.stringify(raw, null, 2))
    const updated = await project.vitest(['run', '-u'])
    expect(updated.code).toBe(0)
    const rewritten = JSON.parse(await readFile(baselineFile, 'utf8')) as typeof raw
    expect(rewritten.reviewedBy).toBe('qa-team')
    expect(rewritten.entries[KEY]!.note).toBe('accepted after the March incident')
    expect(rewritten.entries[KEY]!.rate).toBeLessThan(0.12)
  }, 60_000)

  it('reports a corrupted baseline clearly and leaves it alone', async () => {
    const corrupted = (await readFile(baselineFile, 'utf8')).replace(
      /"successes": \d+/,
      '"successes": "many"',
    )
    await writeFile(baselineFile, corrupted)
    const run = await project.vitest(['run'])
    expect(run.code).toBe(1)
    const output = run.stdout + run.stderr
    expect(output).toMatch(/Invalid baseline in .*__baselines__\/rates\.test\.js\.rates\.json:/)
    expect(output).toMatch(/successes/)
    expect(output).toMatch(
      /The baseline file was left unchanged\. Fix it, or delete it and run `vitest -u` to measure every entry anew\./,
    )
    expect(await readFile(baselineFile, 'utf8')).toBe(corrupted)
  }, 60_000)
})
