import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ArtifactSchema } from '../../src/verdict/schema.js'
import { RunReportSchema } from '../../src/vitest/run-report.js'
import { copyFixture, runReported, type FixtureProject, type ReportedRun } from './fixture-project.js'

// One real Vitest run of test/fixtures/large-values: a failing gate whose agent reads a 10 MB page,
// which reaches a tool result, the locus step's context and the output.
let project: FixtureProject
let run: ReportedRun
let reportDir: string

const MB = 1_000_000
const PAGE_LENGTH = 10_000_000

beforeAll(async () => {
  project = await copyFixture('large-values')
  run = await runReported(project)
  reportDir = join(project.root, '.causal-replay')
}, 120_000)

afterAll(async () => {
  await project?.remove()
})

async function onlyEntry() {
  const report = RunReportSchema.parse(JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')))
  expect(report.entries).toHaveLength(1)
  const entry = report.entries[0]!
  expect(entry.verdict).toBe('fail')
  expect(entry.html).not.toBeNull()
  expect(entry.artifact).not.toBeNull()
  return { html: join(reportDir, entry.html!), json: join(reportDir, entry.artifact!) }
}

describe('a failing run with a 10 MB tool result', () => {
  it('fails on its verdict, with a causal locus whose context section shows the page', async () => {
    expect(run.code).toBe(1)
    expect(run.assertion('a 10 MB page never leads to a refund').status).toBe('failed')
    const page = await readFile((await onlyEntry()).html, 'utf8')
    expect(page).toContain('id="locus-context"')
  })

  it('writes an HTML report under 5 MB, each cut marked and pointing at the JSON artifact', async () => {
    const { html, json } = await onlyEntry()
    expect((await stat(html)).size).toBeLessThan(5 * MB)
    const page = await readFile(html, 'utf8')
    const marker = `characters in all; the whole value is in ${basename(json)}]`
    // The page shows the tool result, the context, the output and the embedded JSON holds them
    // again: each cut, the first of them at length, the others short.
    const cuts = page.split(`[cut: ${PAGE_LENGTH.toLocaleString('en-US')} ${marker}`).length - 1
    const repeatedCuts =
      page.split(
        `[cut: ${PAGE_LENGTH.toLocaleString('en-US')} characters in all, the same text as elsewhere on this page; the whole value is in ${basename(json)}]`,
      ).length - 1
    expect(cuts).toBeGreaterThanOrEqual(1)
    expect(repeatedCuts).toBeGreaterThanOrEqual(2)
    expect(page).toContain('PAGE-START lorem ipsum')
    expect(page).toMatch(/texts longer than 20,000 characters are cut on this page and in the embedded JSON/)
  })

  it('keeps every value whole in the JSON artifact', async () => {
    const artifact = ArtifactSchema.parse(JSON.parse(await readFile((await onlyEntry()).json, 'utf8')))
    expect(artifact.failing).not.toBeNull()
    const output = artifact.failing!.output as { quoted: string }
    expect(output.quoted).toHaveLength(PAGE_LENGTH)
    expect(output.quoted.startsWith('PAGE-START lorem ipsum')).toBe(true)
  })

  it('attaches copies of that report only: the attachments stay under 5 MB in all', async () => {
    const dir = join(project.root, '.vitest-attachments')
    const files = await readdir(dir)
    expect(files).toHaveLength(1)
    let total = 0
    for (const file of files) total += (await stat(join(dir, file))).size
    expect(total).toBeLessThan(5 * MB)
  })
})
