import { existsSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readCassetteFile } from '../../src/cassette/cassette-file.js'
import {
  copyFixture,
  messageOf,
  runReported,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

// Real Vitest runs of a project whose agent calls a mock hosted model (test/fixtures/cassette):
// each model call the mock answers is a line of calls.log. The runs go in order, each on the
// cassettes the runs before it left.
let project: FixtureProject

const SUPPORT_CASSETTE = '__cassettes__/support.test.js.cassette.json'
const SHARED_CASSETTE = '__cassettes__/shared.cassette.json'
const EDITED_PROMPT = 'You are a support agent. Refund only refundable orders; otherwise escalate. Be brief.'
const INJECTED = 'support agent injected ticket: rarely refunds'
/** The decide step's system prompt in the fixture (agent.js), before the edit. */
const COLD_PROMPT = 'You are a support agent. Refund only refundable orders; otherwise escalate.'

/** Runs Vitest, and returns the run with the model calls it made (by step family). */
async function run(args: string[] = [], env: Record<string, string> = {}) {
  await rm(join(project.root, 'calls.log'), { force: true })
  const reported = await runReported(project, args, env)
  const log = existsSync(join(project.root, 'calls.log'))
    ? (await readFile(join(project.root, 'calls.log'), 'utf8')).split('\n').filter(Boolean)
    : []
  return {
    reported,
    calls: log.length,
    decide: log.filter((line) => line === 'decide').length,
    reply: log.filter((line) => line === 'reply').length,
  }
}

const read = (file: string) => readFile(join(project.root, file), 'utf8')
/** A cassette's entries by key, their values resolved (as the engine reads them). */
const entriesOf = async (file: string) => Object.fromEntries(await readCassetteFile(join(project.root, file)))
/** The failure message without its cost line, which tells a warm run from a cold one. */
const verdictOf = (reported: ReportedRun) =>
  messageOf(reported.assertion(INJECTED).failureMessages[0] ?? '').replace(/\n *cost: .*/, '')

let cold: Awaited<ReturnType<typeof run>>
let coldSupport: string
/**
 * The decide calls the cold run stored whose request holds the decide prompt (a call repeated
 * within a run is a hit the second time). The others are context attribution's replays of the
 * decide step without its system prompt: editing the prompt leaves their requests as they were.
 */
let coldDecideEntries: number

beforeAll(async () => {
  project = await copyFixture('cassette')
  cold = await run()
  coldSupport = await read(SUPPORT_CASSETTE)
  const stored = [
    ...Object.values(await entriesOf(SUPPORT_CASSETTE)),
    ...Object.values(await entriesOf(SHARED_CASSETTE)),
  ]
  coldDecideEntries = stored.filter(
    (entry) =>
      entry.kind === 'step' &&
      entry.name.startsWith('decide') &&
      JSON.stringify(entry.request).includes(COLD_PROMPT),
  ).length
}, 180_000)

afterAll(async () => {
  await project?.remove()
})

describe('cassettes in a Vitest project', () => {
  it('records every model call of a cold run beside the test file, deterministically written', async () => {
    expect(cold.reported.assertion('support agent careful ticket: rarely refunds').status).toBe('passed')
    expect(cold.reported.assertion(INJECTED).status).toBe('failed')
    expect(cold.calls).toBeGreaterThan(0)
    // A first run reads nothing from a file: its repeats are reused, and said so.
    const coldMessage = messageOf(cold.reported.assertion(INJECTED).failureMessages[0]!)
    expect(coldMessage).toMatch(/cost: [\d,]+ model calls \([\d,]+ reused within this run\)/)
    expect(coldMessage).not.toMatch(/from the cassette/)
    const entries = await entriesOf(SUPPORT_CASSETTE)
    const steps = Object.values(entries)
    expect(steps.length).toBeGreaterThan(0)
    expect(steps.every((entry) => entry.kind === 'step' && entry.model === 'sim-support-1')).toBe(true)
    // Keys are written sorted.
    expect(Object.keys(entries)).toEqual(Object.keys(entries).sort())
  })

  it('a second run makes no model call and prints the same verdict, attribution included', async () => {
    const warm = await run()
    expect(warm.calls).toBe(0)
    expect(verdictOf(warm.reported)).toBe(verdictOf(cold.reported))
    expect(verdictOf(warm.reported)).toMatch(/← causal locus/)
    expect(messageOf(warm.reported.assertion(INJECTED).failureMessages[0]!)).toMatch(/all from the cassette/)
    // Nothing new to write: the cassette is byte for byte the same.
    expect(await read(SUPPORT_CASSETTE)).toBe(coldSupport)
  }, 120_000)

  it('two workers sharing a cassette lose no entry', async () => {
    const entries = Object.values(await entriesOf(SHARED_CASSETTE))
    const sides = new Set(
      entries.map((entry) => (entry.kind === 'step' ? JSON.stringify(entry.request) : '')),
    )
    expect([...sides].some((request) => request.includes('(side a)'))).toBe(true)
    expect([...sides].some((request) => request.includes('(side b)'))).toBe(true)
    // Every call the cold run made is stored once, in its test file's cassette or the shared one.
    const supportEntries = Object.keys(await entriesOf(SUPPORT_CASSETTE)).length
    expect(entries.length + supportEntries).toBe(cold.calls)
  })

  it('CI mode calls what is missing, writes nothing, and says the cassette is stale, once per file', async () => {
    const before = await read(SUPPORT_CASSETTE)
    const summary = join(project.root, 'job-summary.md')
    const ci = await run([], {
      CI: 'true',
      UPDATE_SNAPSHOT: 'none',
      DECIDE_PROMPT: EDITED_PROMPT,
      GITHUB_STEP_SUMMARY: summary,
    })
    expect(ci.decide).toBeGreaterThan(0)
    expect(await read(SUPPORT_CASSETTE)).toBe(before)
    const output = `${ci.reported.stdout}\n${ci.reported.stderr}`
    const warnings = output.split('\n').filter((line) => line.includes('stale cassette'))
    // One line per cassette file that missed: support.test.js's, and the shared one.
    expect(warnings.filter((line) => line.includes(SUPPORT_CASSETTE))).toHaveLength(1)
    const line = warnings.find((text) => text.includes(SUPPORT_CASSETTE))!
    expect(line).toMatch(/: \d+ calls were not in it and were made live, not written/)
    expect(line).toContain(
      '(first difference: step 0 "decide#1" prompt[0].content: … otherwise escalate." → … otherwise escalate. Be brief.")',
    )
    expect(line).toMatch(
      /; run locally and commit the cassette, or set CAUSAL_REPLAY_CACHE=offline in CI to fail instead\.$/,
    )
    const jobSummary = await readFile(summary, 'utf8')
    expect(jobSummary).toContain(
      '> [!WARNING]\n> **Stale cassette** `__cassettes__/support.test.js.cassette.json`',
    )
  }, 120_000)

  it('an edited decide prompt re-makes the decide calls only: the replies ask the same', async () => {
    const edited = await run([], { DECIDE_PROMPT: EDITED_PROMPT })
    // Same draws (same seeds, the prompt change does not change the refund odds): same decisions,
    // so each reply's request is unchanged and it stays a hit. Exactly the decide calls that held
    // the prompt are made again.
    expect(edited.reply).toBe(0)
    expect(edited.decide).toBe(coldDecideEntries)
    // The message shows the locus prompt message by message, so the edited system prompt is the
    // one line that differs.
    expect(verdictOf(edited.reported).replace(EDITED_PROMPT, COLD_PROMPT)).toBe(verdictOf(cold.reported))
  }, 120_000)

  it('offline fails a rollout whose call is not stored, naming the step and the change', async () => {
    const offline = await run([], { CAUSAL_REPLAY_CACHE: 'offline', DECIDE_PROMPT: 'Refund everything.' })
    expect(offline.calls).toBe(0)
    const message = messageOf(
      offline.reported.assertion('support agent careful ticket: rarely refunds').failureMessages[0]!,
    )
    expect(message).toContain(
      'CassetteMissError: Cassette miss (offline): step 0 "decide#1" (model sim-support-1',
    )
    expect(message).toMatch(
      /prompt\[0\]\.content: "You are a support agent\. Refund only refundable orders; ot… → "Refund everything\."/,
    )
  }, 120_000)

  it('refresh re-makes every call once, as many as the cold run made', async () => {
    const refresh = await run([], { CAUSAL_REPLAY_CACHE: 'refresh' })
    // A key repeated within the run (arms of a replay share streams) is made once, as on a cold run.
    expect(refresh.calls).toBe(cold.calls)
    expect(verdictOf(refresh.reported)).toBe(verdictOf(cold.reported))
    // Without a cassette nothing is reused: that costs more.
    const without = await run([], { CAUSAL_REPLAY_CACHE: 'off' })
    expect(without.calls).toBeGreaterThan(refresh.calls)
  }, 180_000)

  it('vitest -u prunes the entries the run did not use, back to the cold run’s file', async () => {
    const update = await run(['-u'])
    expect(update.calls).toBe(0)
    expect(await read(SUPPORT_CASSETTE)).toBe(coldSupport)
  }, 120_000)

  it('vitest -u filtered to one test adds its entries and prunes nothing', async () => {
    const coldKeys = Object.keys(await entriesOf(SUPPORT_CASSETTE))
    const filtered = await run(['-u', '-t', 'careful ticket'], { DECIDE_PROMPT: EDITED_PROMPT })
    expect(filtered.decide).toBeGreaterThan(0)
    const keys = Object.keys(await entriesOf(SUPPORT_CASSETTE))
    // The injected test did not run: its entries (and every other unused one) stay.
    expect(keys).toEqual(expect.arrayContaining(coldKeys))
    expect(keys.length).toBe(coldKeys.length + filtered.decide)
  }, 120_000)
})
