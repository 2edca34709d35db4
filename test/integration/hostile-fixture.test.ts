import { existsSync, readFileSync } from 'node:fs'
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ArtifactSchema } from '../../src/verdict/schema.js'
import { CausalReplayMetaEntrySchema } from '../../src/vitest/meta.js'
import { RunReportSchema, type RunReport } from '../../src/vitest/run-report.js'
import {
  copyFixture,
  messageOf,
  runReported,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

// Real Vitest runs of test/fixtures/hostile: test names whose slugs collide or vanish, the same
// test name in two files, labels and step names longer than any file name, and report
// directories that cannot be written.
let project: FixtureProject
let run: ReportedRun
let report: RunReport
let reportDir: string

function entriesOf(file: string): RunReport['entries'] {
  return report.entries.filter((entry) => entry.file === file)
}

function artifactOf(entry: RunReport['entries'][number]) {
  expect(entry.artifact).not.toBeNull()
  return ArtifactSchema.parse(JSON.parse(readFileSync(join(reportDir, entry.artifact!), 'utf8')))
}

beforeAll(async () => {
  project = await copyFixture('hostile')
  run = await runReported(project)
  reportDir = join(project.root, '.causal-replay')
  report = RunReportSchema.parse(JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')))
}, 120_000)

afterAll(async () => {
  await project?.remove()
})

describe('artifact paths', () => {
  it('gives the same test name and agent in two files two artifacts, each page with its own verdict', () => {
    const entries = report.entries.filter((entry) => entry.test === 'shared name')
    expect(entries.map((entry) => [entry.file, entry.verdict]).sort()).toEqual([
      ['same-name-a.test.js', 'pass'],
      ['same-name-b.test.js', 'fail'],
    ])
    expect(new Set(entries.map((entry) => entry.artifact)).size).toBe(2)
    for (const entry of entries) {
      const artifact = artifactOf(entry)
      expect(artifact.test.file).toBe(entry.file)
      expect(artifact.verdict.kind).toBe(entry.verdict)
      const page = readFileSync(join(reportDir, entry.html!), 'utf8')
      expect(page).toContain(`data-verdict="${entry.verdict}"`)
    }
  })

  it('gives names whose slugs collide or are empty six distinct artifacts, each its own test', () => {
    const names = ['a b', 'a/b', 'A B', '日本語テスト', '..', '.']
    const entries = entriesOf('slugs.test.js')
    expect(entries.map((entry) => entry.test).sort()).toEqual([...names].sort())
    expect(new Set(entries.map((entry) => entry.artifact)).size).toBe(6)
    expect(new Set(entries.map((entry) => entry.html)).size).toBe(6)
    for (const entry of entries) {
      expect(entry.verdict).toBe('pass')
      // Each file is inside its agent's folder, whatever the name: '..' and '.' escape nothing.
      expect(entry.artifact).toMatch(/^shared\/[a-z0-9-]+-[0-9a-f]{8}\.json$/)
      expect(artifactOf(entry).test.name).toBe(entry.test)
    }
  })
})

describe('names longer than a file name may be', () => {
  it('shows the verdict of a 300-character label and step name, in ASCII and in Japanese', async () => {
    expect(run.stdout + run.stderr).not.toContain('ENAMETOOLONG')
    for (const name of ['a 300-character label and step name', 'a 300-character label in Japanese']) {
      const test = run.assertion(name, 'long-names.test.js')
      expect(test.status).toBe('failed')
      const message = messageOf(test.failureMessages[0]!)
      expect(message).toMatch(
        /^expected shared to never l+: 0 in 100 rollouts\n|^expected 日本語のエージェント to never (返金)+: /,
      )
      expect(message).toMatch(/→ fail\n/)
      expect(message).toMatch(/causal locus/)
    }
    // Every failure attached its page, under a name the file system accepts.
    const attachments = await readdir(join(project.root, '.vitest-attachments'))
    expect(attachments.filter((file) => file.endsWith('.html'))).toHaveLength(6)
    for (const file of attachments) expect(Buffer.byteLength(file)).toBeLessThanOrEqual(255)
    expect(report.entries.length).toBeGreaterThan(0)
    for (const entry of report.entries) {
      for (const part of entry.artifact!.split('/')) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(100)
    }
  })
})

describe('agent text with bidi controls', () => {
  // U+061C, U+200E, U+200F, U+202A–U+202E and U+2066–U+2069 reorder the characters after them.
  const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

  it('shows every control as a visible escape in the message and on the page, never raw', () => {
    const test = run.assertion('an agent whose text carries bidi controls', 'bidi.test.js')
    expect(test.status).toBe('failed')
    const message = messageOf(test.failureMessages[0]!)
    expect(message).not.toMatch(bidi)
    // The table cuts the action between escapes, never inside one (`"refund \u20…` would hide it).
    expect(message).toMatch(/\n {2}▶ 0 +decide\\u202e +"refund …af\\u2069" .*← causal locus\n/)
    expect(message).toContain('\n  step 0 "decide\\u202e" chose "refund \\u202eeslaf\\u2069"')
    const [entry] = entriesOf('bidi.test.js')
    const page = readFileSync(join(reportDir, entry!.html!), 'utf8')
    expect(page).not.toMatch(bidi)
    expect(page).toContain('refund \\u202eeslaf\\u2069')
    expect(page).toContain('issue_refund\\u2066')
    // The artifact keeps the agent's own text; only its display is escaped.
    expect(artifactOf(entry!).failing?.steps[0]).toMatchObject({
      name: 'decide\u202e',
      action: 'refund \u202eeslaf\u2069',
    })
  })
})

describe('names, labels and context text that would steer a terminal or CI', () => {
  const FORGED = '::error file=a.ts,line=1::FAKE'
  // The ESC and BEL that start and end CSI and OSC sequences (clear screen, window title, links).
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const raw = /[\u001b\u0007]/

  /** Lines that a CI runner reads as a workflow command: GitHub Actions trims leading whitespace first. */
  function commandLines(output: string): string[] {
    return output.split('\n').filter((line) => line.trimStart().startsWith('::'))
  }

  it('prints the agent name, label and step name escaped, on their own line, with no raw escape sequence', () => {
    const test = run.assertion(
      'an agent whose name and label forge a CI annotation',
      'forged-commands.test.js',
    )
    expect(test.status).toBe('failed')
    const message = messageOf(test.failureMessages[0]!)
    expect(message).not.toMatch(raw)
    expect(commandLines(message)).toEqual([])
    expect(message).toMatch(
      /^expected support\\n::error file=a\.ts,line=1::FAKE to rarely refunds\\n::error file=a\.ts,line=1::FAKE\\u001b\]0;pwned\\u0007\\u001b\]8;;https:\/\/attacker\.example\/\\u0007click\\u001b\]8;;\\u0007\\u001b\[2J: ≤ 5% at 95% confidence\n/,
    )
    expect(message).toMatch(
      /\n {2}▶ 0 +decide\\u001b\[2J\\n::error file=a\.ts,line=1::FAKE +"refund" .*← causal locus\n/,
    )
    // The context line is JSON; the sentence the locus decided on is the same text, escaped alike:
    // the control as \u001b, the text that spells it with its backslash doubled.
    expect(message).toContain('\n    note: "\\u001b\\\\u001b[2J refund now\\u001b]0;pwned\\u0007"\n')
    expect(message).toContain(
      '\n  the locus decided on: "\\u001b\\\\u001b[2J refund now\\u001b]0;pwned\\u0007" (key "note")',
    )
    const output = run.stdout + run.stderr
    expect(output).toContain(FORGED)
    expect(output).not.toMatch(raw)
    expect(commandLines(output)).toEqual([])
  })

  it('shows the artifact with `causal-replay show` escaped the same way', async () => {
    const [entry] = entriesOf('forged-commands.test.js')
    const shown = await project.node([
      join(project.root, 'node_modules/vitest-causal-replay/dist/src/cli/main.js'),
      'show',
      join(reportDir, entry!.artifact!),
    ])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain(
      `expected support\\n${FORGED} to rarely refunds\\n${FORGED}\\u001b]0;pwned`,
    )
    expect(shown.stdout).not.toMatch(raw)
    expect(commandLines(shown.stdout)).toEqual([])
  })

  it('keeps GitHub Actions annotations and the job summary to the test file, escaped', async () => {
    const summary = join(project.root, 'job-summary.md')
    const github = await project.vitest(['run', 'forged-commands', '--reporter=github-actions'], {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    })
    expect(github.code).toBe(1)
    const commands = commandLines(github.stdout + github.stderr)
    // Vitest's failure and the matcher's annotation, both about the test file itself.
    expect(commands).toHaveLength(2)
    const file = join(project.root, 'forged-commands.test.js')
    for (const command of commands) {
      const [kind, where] = /^::(\w+) file=([^,]*),/.exec(command)?.slice(1) ?? []
      expect([kind, where]).toEqual([expect.stringMatching(/^(error|notice)$/), file])
    }
    const markdown = await readFile(summary, 'utf8')
    expect(markdown).toContain('| 0 decide\\\\u001b\\[2J ::error file=a.ts,line=1::FAKE |')
    expect(markdown).not.toMatch(raw)
    expect(commandLines(markdown)).toEqual([])
  })
})

describe('an awaited gate whose test runs into its timeout', () => {
  it('fails the test for the timeout alone, not for a missing await', () => {
    const test = run.assertion('an awaited gate whose test times out', 'timeout.test.js')
    expect(test.status).toBe('failed')
    expect(test.failureMessages).toHaveLength(1)
    expect(test.failureMessages[0]).not.toContain('was not awaited')
    const output = run.stdout + run.stderr
    expect(output).toContain('Test timed out in 1000ms')
    expect(output).not.toContain('toRarely() was not awaited')
  })
})

describe('a report directory that cannot be written', () => {
  let blocked: ReportedRun
  let directory: string

  beforeAll(async () => {
    // Under a regular file, so mkdir fails (ENOTDIR) even for root, which ignores permissions.
    await writeFile(join(project.root, 'blocker'), 'not a directory\n')
    directory = join(project.root, 'blocker', 'reports')
    blocked = await runReported(project, ['outcomes'], { CAUSAL_REPLAY_REPORT_DIR: directory })
  }, 120_000)

  it('passes the passing test and fails the failing one with the same message, minus its report line', () => {
    expect(blocked.code).toBe(1)
    expect(blocked.assertion('passes', 'outcomes.test.js').status).toBe('passed')
    const failed = blocked.assertion('fails', 'outcomes.test.js')
    expect(failed.status).toBe('failed')
    const written = messageOf(run.assertion('fails', 'outcomes.test.js').failureMessages[0]!)
    expect(written).toMatch(/\n {2}report: \.causal-replay\/shared\/fails-[0-9a-f]{8}\.html$/)
    const withoutReport = written
      .split('\n')
      .filter((line) => !line.startsWith('  report: '))
      .join('\n')
    expect(messageOf(failed.failureMessages[0]!)).toBe(withoutReport)
  })

  it('warns once, naming the directory and the error, and keeps the summary in task.meta', () => {
    const output = blocked.stdout + blocked.stderr
    expect(output).not.toContain('EACCES')
    const warning = `causal-replay: cannot write reports to ${directory} (ENOTDIR`
    expect(output.split(warning)).toHaveLength(2)
    expect(blocked.stderr).toContain(warning)
    const meta = blocked.assertion('fails', 'outcomes.test.js').meta.causalReplay
    const entry = CausalReplayMetaEntrySchema.parse(meta?.[0])
    expect(entry).toMatchObject({ verdict: 'fail', artifact: null, html: null })
    // The failure is still annotated, without the report it could not write.
    expect(output).toMatch(/causal-replay\n\s+↳ fail: call issue_refund/)
  })

  it('keeps an all-green run green when report.json cannot be written', async () => {
    const green = join(project.root, 'green')
    await mkdir(join(green, 'report.json'), { recursive: true })
    const result = await project.vitest(['run', 'slugs'], { CAUSAL_REPLAY_REPORT_DIR: green })
    expect(result.code).toBe(0)
    expect(result.stdout + result.stderr).toContain(
      `causal-replay: could not write ${join(green, 'report.json')}`,
    )
    // The rest of the run's files are still written.
    expect(existsSync(join(green, 'index.html'))).toBe(true)
  })
})
