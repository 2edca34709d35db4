import { execFile } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../src/cli/run.js'
import { USAGE } from '../../src/cli/usage.js'
import { formatVerdictMessage } from '../../src/text/verdict-message.js'
import { renderReportHtml } from '../../src/html/html.js'
import type { Artifact } from '../../src/verdict/schema.js'
import { check, rarely } from '../../src/index.js'
import { supportArtifact } from '../unit/html/artifacts.js'
import { plantedContextAgent, refunded } from '../unit/verdict/gate-helpers.js'

const ROOT = join(import.meta.dirname, '..', '..')

/** Runs the CLI in-process with captured output. */
async function cli(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  })
  return { code, stdout, stderr }
}

let directory: string
let artifact: Artifact
let artifactFile: string

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'causal-replay-cli-'))
  artifact = await supportArtifact()
  artifactFile = join(directory, 'rarely-refunds-wrongly.json')
  await writeFile(artifactFile, JSON.stringify(artifact, null, 2))
})

afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

describe('causal-replay report', () => {
  it('writes the HTML report next to the artifact by default', async () => {
    const result = await cli('report', artifactFile)
    const target = join(directory, 'rarely-refunds-wrongly.html')
    expect(result).toEqual({ code: 0, stdout: `report: ${target}\n`, stderr: '' })
    expect(await readFile(target, 'utf8')).toBe(renderReportHtml(artifact))
  })

  it('writes where -o says, creating folders', async () => {
    const target = join(directory, 'out', 'nested', 'page.html')
    const result = await cli('report', artifactFile, '-o', target)
    expect(result.code).toBe(0)
    expect(await readFile(target, 'utf8')).toBe(renderReportHtml(artifact))
    expect((await cli('report', '--output', join(directory, 'long.html'), artifactFile)).code).toBe(0)
  })

  it('refuses to overwrite the artifact with its own report', async () => {
    const before = await readFile(artifactFile, 'utf8')
    const result = await cli('report', artifactFile, '-o', artifactFile)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('is the artifact itself')
    expect(await readFile(artifactFile, 'utf8')).toBe(before)
  })

  it('refuses an output that is a directory, naming a file inside it to pass instead', async () => {
    const folder = await mkdtemp(join(directory, 'as-dir-'))
    const result = await cli('report', artifactFile, '-o', folder)
    expect(result.code).toBe(2)
    expect(result.stderr.split('\n')[0]).toBe(
      `causal-replay: report: the output ${folder} is a directory; pass the file to write, e.g. -o ${join(folder, 'rarely-refunds-wrongly.html')}.`,
    )
    expect(result.stderr).not.toMatch(/EISDIR|rename|\.tmp/)
    expect(await readdir(folder)).toEqual([])
  })

  it('says which file it cannot write and why, without the temporary file it tried', async () => {
    // Under a regular file, so writing fails (ENOTDIR) even for root, which ignores permissions.
    const blocker = join(directory, 'blocker')
    await writeFile(blocker, 'not a directory\n')
    const target = join(blocker, 'page.html')
    const result = await cli('report', artifactFile, '-o', target)
    expect(result.code).toBe(1)
    // The system's code and words (mkdir says EEXIST here, open would say ENOTDIR), nothing else.
    expect(result.stderr).toMatch(/^causal-replay: report: cannot write \S+ \(E[A-Z]+: [a-z ]+\)\.\n$/)
    expect(result.stderr).toContain(`cannot write ${target} (`)
  })
})

describe('causal-replay show', () => {
  it('prints the verdict and attribution table of the terminal formatter', async () => {
    const result = await cli('show', artifactFile)
    expect(result).toEqual({ code: 0, stdout: `${formatVerdictMessage(artifact)}\n`, stderr: '' })
    expect(result.stdout).toContain('← causal locus')
  })

  it('prints what the locus decided on from a stored context attribution', async () => {
    const { artifact: withContext } = await check(
      plantedContextAgent,
      rarely(refunded, { atMost: 0.05, seed: 3, label: 'refund' }),
    )
    const file = join(directory, 'context.json')
    await writeFile(file, JSON.stringify(withContext, null, 2))
    const result = await cli('show', file)
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(
      /\n {2}the locus decided on: "[^"]*SYSTEM NOTE[^"]*" \(key "ticket"\); removing it rescues/,
    )
  })
})

describe('a bad or missing artifact', () => {
  async function filesIn(folder: string) {
    return (await readdir(folder)).sort()
  }

  it('names the field zod rejected, exits 2 and writes nothing', async () => {
    const folder = await mkdtemp(join(directory, 'bad-'))
    const bad = join(folder, 'bad.json')
    const broken = structuredClone(artifact) as unknown as {
      verdict: { kind: string; observed: { n: number } }
    }
    broken.verdict.kind = 'maybe'
    broken.verdict.observed.n = -1
    await writeFile(bad, JSON.stringify(broken))
    const result = await cli('report', bad)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`Invalid artifact in ${bad}:`)
    expect(result.stderr).toContain('→ at verdict.kind')
    expect(result.stderr).toContain('→ at verdict.observed.n')
    expect(await filesIn(folder)).toEqual(['bad.json'])
    expect((await cli('show', bad)).code).toBe(2)
  })

  it('says that the run report is not an artifact, and names one it lists', async () => {
    const folder = await mkdtemp(join(directory, 'run-report-'))
    const index = join(folder, 'report.json')
    await writeFile(
      index,
      JSON.stringify({
        schema: 'vitest-causal-replay/report@1',
        entries: [{ artifact: 'support/rarely-refunds-1a2b3c4d.json' }],
      }),
    )
    const result = await cli('show', index)
    expect(result.code).toBe(2)
    expect(result.stderr.split('\n')[0]).toBe(
      `causal-replay: show: ${index} is the run report (the index of a run's assertions); pass an artifact, one of the .json files it lists (e.g. causal-replay show ${join(folder, 'support/rarely-refunds-1a2b3c4d.json')}).`,
    )
    expect(result.stderr).not.toContain('Invalid artifact')
  })

  it('says when the file is missing or not JSON', async () => {
    const folder = await mkdtemp(join(directory, 'missing-'))
    const missing = await cli('report', join(folder, 'nope.json'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('the file does not exist')
    const notJson = join(folder, 'not.json')
    await writeFile(notJson, '{ "schema": ')
    const parsed = await cli('show', notJson)
    expect(parsed.code).toBe(2)
    expect(parsed.stderr).toContain('is not valid JSON')
    expect(await filesIn(folder)).toEqual(['not.json'])
  })

  it('never prints what a symbolic link to a file that is not JSON points at', async () => {
    const folder = await mkdtemp(join(directory, 'link-'))
    const secret = join(folder, 'id_key')
    await writeFile(secret, 'sk-SECRET-KEY-1234567890\n')
    const link = join(folder, 'artifact.json')
    await symlink(secret, link)
    const result = await cli('show', link)
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`causal-replay: artifact file ${link} is not valid JSON.\n`)
  })

  it('says plainly that an artifact of an older version is old, instead of listing its fields', async () => {
    const folder = await mkdtemp(join(directory, 'old-'))
    const old = join(folder, 'old.json')
    // An artifact@1 verdict: one flat object with `matcher`, `bound` and `decisionInterval`.
    const { verdict } = artifact
    await writeFile(
      old,
      JSON.stringify({
        ...artifact,
        schema: 'vitest-causal-replay/artifact@1',
        verdict: {
          kind: verdict.kind,
          matcher: 'toRarely',
          agent: verdict.agent,
          bound: { direction: 'atMost', value: 0.05 },
        },
      }),
    )
    for (const command of ['show', 'report']) {
      const result = await cli(command, old)
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(
        `causal-replay: ${old} is an artifact of another version of vitest-causal-replay (vitest-causal-replay/artifact@1); this version reads vitest-causal-replay/artifact@2. Run its test again to write it anew.\n`,
      )
    }
    expect(await filesIn(folder)).toEqual(['old.json'])
  })
})

describe('usage', () => {
  it('prints help and the version', async () => {
    expect(await cli('--help')).toEqual({ code: 0, stdout: `${USAGE}\n`, stderr: '' })
    expect((await cli('-h')).stdout).toBe(`${USAGE}\n`)
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }
    expect(await cli('--version')).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' })
  })

  it.each([
    [[], 'missing command.'],
    [['frobnicate'], 'unknown command "frobnicate".'],
    [['report'], 'report: missing <artifact.json>.'],
    [['show', 'a.json', 'b.json'], 'show: unexpected argument "b.json".'],
    [['show', 'a.json', '-o', 'x.html'], 'show: -o/--output applies to report only.'],
    [['report', 'a.json', '--bogus'], "Unknown option '--bogus'"],
    [['report', 'a.json', '-o'], "Option '-o, --output <value>' argument missing"],
  ])('%j is a usage error: message, usage, exit 2', async (argv, message) => {
    const result = await cli(...argv)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(message)
    expect(result.stderr).toContain(USAGE)
  })
})

describe('the causal-replay executable', () => {
  const run = promisify(execFile)
  const main = join(ROOT, 'src', 'cli', 'main.ts')

  /** Runs `node main.ts …` (through tsx) and resolves to its exit code and output, failing or not. */
  async function spawnCli(...argv: string[]) {
    try {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', main, ...argv], {
        cwd: ROOT,
      })
      return { code: 0, stdout, stderr }
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string }
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
    }
  }

  it('is the package bin, with a node shebang', async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>
    }
    expect(manifest.bin['causal-replay']).toBe('./dist/src/cli/main.js')
    expect((await readFile(main, 'utf8')).split('\n')[0]).toBe('#!/usr/bin/env node')
  })

  it('sets the process exit code: 0 for a report, 2 for an invalid artifact', async () => {
    const target = join(directory, 'spawned.html')
    const ok = await spawnCli('report', artifactFile, '-o', target)
    expect(ok).toEqual({ code: 0, stdout: `report: ${target}\n`, stderr: '' })
    const bad = join(directory, 'spawned-bad.json')
    await writeFile(bad, JSON.stringify({ ...artifact, schema: 'something/else@9' }))
    const failed = await spawnCli('report', bad)
    expect(failed.code).toBe(2)
    expect(failed.stderr).toContain('→ at schema')
  })
})
