import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { injectedTicket, supportAgent } from '../../../examples/support-agent/agent.js'
import {
  artifactPath,
  slugify,
  warnReportNotWritten,
  type ArtifactKey,
} from '../../../src/check/report-files.js'
import { calledTool, check, never } from '../../../src/index.js'

const key: ArtifactKey = {
  file: 'test/support.test.ts',
  test: 'support agent > injected ticket: rarely refunds',
  agent: 'support',
  assertion: 1,
}

describe('artifactPath', () => {
  it('is the agent folder, the test slug and 8 hex digits of hash, the same on every run', () => {
    expect(artifactPath(key)).toBe('support/support-agent-injected-ticket-rarely-refunds-b71fd1d8')
    expect(artifactPath({ ...key, assertion: 2 })).toMatch(
      /^support\/support-agent-injected-ticket-rarely-refunds-2-[0-9a-f]{8}$/,
    )
    expect(artifactPath({ file: '', test: 'rarely refunds', agent: 'refunder', assertion: 1 })).toBe(
      'refunder/rarely-refunds-8e42b347',
    )
  })

  it('differs whenever the file, the test name, the agent or the assertion differs', () => {
    const keys: ArtifactKey[] = [
      key,
      { ...key, file: 'test/other.test.ts' },
      { ...key, test: `${key.test}!` },
      { ...key, agent: 'Support' },
      { ...key, assertion: 2 },
      // Fields that run together the same way.
      { ...key, file: 'test/support.test.tssupport agent', test: ' > injected ticket: rarely refunds' },
    ]
    expect(new Set(keys.map(artifactPath)).size).toBe(keys.length)
  })

  it('keeps names whose slugs collide or vanish apart, inside their agent folder', () => {
    const names = ['a b', 'a/b', 'A B', '日本語テスト', '..', '.', '', '../../etc/passwd']
    const paths = names.map((test) => artifactPath({ ...key, test }))
    expect(new Set(paths).size).toBe(names.length)
    for (const path of paths) expect(path).toMatch(/^support\/[a-z0-9-]+-[0-9a-f]{8}$/)
    expect(artifactPath({ ...key, test: '日本語テスト' })).toMatch(/^support\/test-[0-9a-f]{8}$/)
    expect(artifactPath({ ...key, agent: '日本語' })).toMatch(/^agent\//)
  })

  it('stays short for a name of any length or script', () => {
    for (const text of ['x'.repeat(5000), 'été '.repeat(500), '日本語'.repeat(1000), '🙂'.repeat(1000)]) {
      const [folder, file] = artifactPath({ ...key, test: text, agent: text, assertion: 12 }).split('/')
      expect(Buffer.byteLength(folder!)).toBeLessThanOrEqual(40)
      expect(Buffer.byteLength(`${file!}.html`)).toBeLessThanOrEqual(60 + '-12-'.length + 8 + '.html'.length)
    }
  })
})

describe('slugify', () => {
  it('keeps letters and digits, drops accents, and cuts after a whole word', () => {
    expect(slugify('Rarely refunds — wrongly!')).toBe('rarely-refunds-wrongly')
    expect(slugify('Café crème')).toBe('cafe-creme')
    expect(slugify('borderline ticket rarely refunds within 60 rollouts', 45)).toBe(
      'borderline-ticket-rarely-refunds-within-60',
    )
    expect(slugify('x'.repeat(100), 10)).toBe('x'.repeat(10))
  })
})

describe('a report directory that cannot be written', () => {
  let directory: string
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'causal-replay-report-files-'))
    await writeFile(join(directory, 'blocker'), 'not a directory\n')
  })
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  it('costs the files, not the verdict or its message, and warns once per directory', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const claim = never(calledTool('issue_refund'), { attribute: false, seed: 3 })
      const reportDir = join(directory, 'blocker', 'reports')
      const written = await check(supportAgent.on(injectedTicket), claim, {
        reportDir: join(directory, 'ok'),
      })
      const first = await check(supportAgent.on(injectedTicket), claim, { reportDir })
      const second = await check(supportAgent.on(injectedTicket), claim, { reportDir, name: 'another' })

      expect(first.report).toBeNull()
      expect(second.report).toBeNull()
      expect(first.verdict).toEqual(written.verdict)
      expect(first.passed).toBe(written.passed)
      expect(first.message).toBe(
        written.message
          .split('\n')
          .filter((line) => !line.startsWith('  report: '))
          .join('\n'),
      )
      expect(first.message).not.toContain('report:')
      expect(existsSync(written.report!.json)).toBe(true)

      expect(warn).toHaveBeenCalledTimes(1)
      expect(warn.mock.calls[0]![0]).toMatch(
        new RegExp(`^causal-replay: cannot write reports to ${escape(reportDir)} \\(ENOTDIR: `),
      )
      warnReportNotWritten(join(directory, 'elsewhere'), new Error('boom'))
      expect(warn).toHaveBeenCalledTimes(2)
      expect(warn.mock.calls[1]![0]).toContain(`${join(directory, 'elsewhere')} (boom)`)
    } finally {
      warn.mockRestore()
    }
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
