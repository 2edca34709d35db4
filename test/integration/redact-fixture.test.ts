import { existsSync } from 'node:fs'
import { readdir, readFile, rm } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFixture, REPO, runReported, type FixtureProject, type ReportedRun } from './fixture-project.js'

// Real Vitest runs of a project whose agents handle secrets (test/fixtures/redact): the plugin's
// `cacheRedact` keys (a user step's header, an AI SDK tool call's JSON-text arguments, whole or
// streamed as deltas that split the key) and a
// `check` with a redact function (e-mail addresses). Whatever a run writes, no secret is in it.

/**
 * The secrets of test/fixtures/redact/agents.js, and the two pieces the streamed key arrives in
 * (each piece of a key split across deltas is all a file would hold of it).
 */
const SECRETS = [
  'tok-HEADER-5f1c9a7e',
  'sk-AISDK-7d2e4b19',
  'grace.hopper@navy.example',
  'STREAM-91e0',
  'c4d7a2',
]
const PROTO_TEST = 'proto agent answers with its own __proto__ key'

let project: FixtureProject
let sources: Set<string>

/** Runs Vitest, and returns the run with the lines the agents logged (model calls, keys seen). */
async function run(): Promise<{ reported: ReportedRun; log: string[] }> {
  await rm(join(project.root, 'calls.log'), { force: true })
  const reported = await runReported(project)
  const logFile = join(project.root, 'calls.log')
  const log = existsSync(logFile) ? (await readFile(logFile, 'utf8')).split('\n').filter(Boolean) : []
  return { reported, log }
}

/** Every file the runs wrote: all of the project but its installed packages and the fixture's own files. */
async function writtenFiles(): Promise<string[]> {
  const entries = await readdir(project.root, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(project.root, join(entry.parentPath, entry.name)))
    .filter((path) => !path.startsWith('node_modules') && !sources.has(path))
    .sort()
}

/** The files holding a secret, each with the secrets it holds. */
async function leaks(files: readonly string[]): Promise<string[]> {
  const found: string[] = []
  for (const file of files) {
    const text = await readFile(join(project.root, file), 'utf8')
    const held = SECRETS.filter((secret) => text.includes(secret))
    if (held.length > 0) found.push(`${file}: ${held.join(', ')}`)
  }
  return found
}

let cold: Awaited<ReturnType<typeof run>>

beforeAll(async () => {
  project = await copyFixture('redact')
  sources = new Set(await readdir(join(REPO, 'test/fixtures/redact')))
  cold = await run()
}, 240_000)

afterAll(async () => {
  await project?.remove()
})

describe('redaction in a Vitest project', () => {
  it('writes no secret in any file, in the three forms of redact', async () => {
    const { reported, log } = cold
    expect(reported.assertion('header agent rarely refunds').status).toBe('failed')
    expect(reported.assertion('payment agent rarely charges').status).toBe('failed')
    expect(reported.assertion('streamed payment agent rarely charges').status).toBe('failed')
    expect(reported.assertion('mail agent, checked with a redacting cache').status).toBe('passed')
    // The secrets went through the run: the models were called and the tool saw the real key.
    expect(log.filter((line) => line === 'header').length).toBeGreaterThan(0)
    expect(log.filter((line) => line === 'mail').length).toBeGreaterThan(0)
    expect(log.filter((line) => line === 'charge saw the key').length).toBeGreaterThan(0)
    expect(log.filter((line) => line === 'streamed charge saw the key').length).toBeGreaterThan(0)

    const files = await writtenFiles()
    // The cassettes (four test files and the check's own), the three failures' reports, the check's,
    // and Vitest's attachments of the failures' pages.
    expect(files.filter((file) => file.startsWith('__cassettes__/') && file.endsWith('.json'))).toEqual([
      '__cassettes__/header.test.js.cassette.json',
      '__cassettes__/mail-check.cassette.json',
      '__cassettes__/payment.test.js.cassette.json',
      '__cassettes__/proto.test.js.cassette.json',
      '__cassettes__/streamed-payment.test.js.cassette.json',
    ])
    const pages = files.filter((file) => file.endsWith('.html'))
    expect(pages.filter((file) => file.startsWith('check-reports/'))).toHaveLength(1)
    expect(pages.filter((file) => file.startsWith('.vitest-attachments/'))).toHaveLength(3)
    // Vitest names an attachment after its annotation, whose interval dash is ASCII too.
    expect(files.filter((file) => !/^[\x20-\x7e]+$/.test(file))).toEqual([])
    const artifacts = files.filter((file) => /\/(header|payment|streamed-payment|mail)\/.*\.json$/.test(file))
    expect(artifacts).toHaveLength(4)
    expect(files.filter((file) => file.endsWith('results.json'))).toHaveLength(1)

    expect(await leaks(files)).toEqual([])
    // What the secrets became, where a reviewer reads them.
    const payment = await readFile(join(project.root, '__cassettes__/payment.test.js.cassette.json'), 'utf8')
    expect(payment).toMatch(/"summary": "charge\(\{\\"apiKey\\":\\"\[redacted\]\\",\\"amount\\":5\}\)"/)
    // The streamed call is stored as one delta, its arguments whole and redacted.
    const streamed = await readFile(
      join(project.root, '__cassettes__/streamed-payment.test.js.cassette.json'),
      'utf8',
    )
    expect(streamed).toMatch(/"delta":"\{\\"apiKey\\":\\"\[redacted\]\\",\\"amount\\":5\}"/)
    const mail = await readFile(join(project.root, '__cassettes__/mail-check.cassette.json'), 'utf8')
    expect(mail).toContain('"summary": "Refunded, wrote to <email>"')
  })

  it('a warm run gives the __proto__ answer back as the cold run got it, and still writes no secret', async () => {
    expect(cold.reported.assertion(PROTO_TEST).status).toBe('passed')
    expect(cold.log.filter((line) => line === 'proto').length).toBeGreaterThan(0)
    const warm = await run()
    expect(warm.reported.assertion(PROTO_TEST).status).toBe('passed')
    // Every answer came from the cassette.
    expect(warm.log.filter((line) => line === 'proto')).toEqual([])
    const cassette = await readFile(join(project.root, '__cassettes__/proto.test.js.cassette.json'), 'utf8')
    expect(cassette).toContain('{"__proto__":{"admin":true},"constructor":"c","prototype":"p","text":"hi"}')
    expect(await leaks(await writtenFiles())).toEqual([])
  }, 240_000)
})
