import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { appendJobSummary } from '../../../src/vitest/github-summary.js'

let dir: string | undefined
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  dir = undefined
})

describe('appendJobSummary', () => {
  it('does nothing outside GitHub Actions, without rendering', async () => {
    let rendered = 0
    const render = () => (rendered++, '# x\n')
    expect(await appendJobSummary(render, {})).toBeNull()
    expect(await appendJobSummary(render, { GITHUB_STEP_SUMMARY: '  ' })).toBeNull()
    expect(rendered).toBe(0)
  })

  it('appends to what other steps and reporters wrote', async () => {
    dir = await mkdtemp(join(tmpdir(), 'step-summary-'))
    const file = join(dir, 'summary.md')
    await writeFile(file, '## Vitest\n\n')
    expect(await appendJobSummary(() => '### causal-replay\n\n', { GITHUB_STEP_SUMMARY: file })).toBe(file)
    expect(await readFile(file, 'utf8')).toBe('## Vitest\n\n### causal-replay\n\n')
  })

  it('throws when the file cannot be written (the reporter warns instead of failing the run)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'step-summary-'))
    await expect(appendJobSummary(() => 'x', { GITHUB_STEP_SUMMARY: dir })).rejects.toThrow(/EISDIR/)
  })
})
