// The rate limit shared across machines, as CI shards use it: three real Vitest runs of
// test/fixtures/shared-limit (the packed package), each its own process tree, point
// CAUSAL_REPLAY_RATE_LIMIT_STORE at one real redis-server of this test's and call a model under one
// limit of 600 requests per minute. Then the errors: a store that is not there when the run starts,
// one lost during the run, and ioredis not installed. CI fails these tests when redis-server is
// missing; locally they are skipped with one line saying why.
import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithProgram } from '../outside-program.js'
import { freePort, REDIS_SERVER, startRedis, type RunningRedis } from '../redis-server.js'
import {
  copyFixture,
  messageOf,
  runReported,
  type FixtureProject,
  type ReportedRun,
} from './fixture-project.js'

const STORE_ENV = 'CAUSAL_REPLAY_RATE_LIMIT_STORE'
const REQUESTS_PER_MINUTE = 600
const SPACING_MS = 60_000 / REQUESTS_PER_MINUTE
const SHARDS = 3
// Each shard asks for 30 calls, 4 at a time: 90 calls that the limit spreads over 9 s, where the
// shards alone would make them in well under a second.
const ROLLOUTS_PER_SHARD = 30

const projects: FixtureProject[] = []
async function project(without: readonly string[] = []): Promise<FixtureProject> {
  const copied = await copyFixture('shared-limit', without)
  projects.push(copied)
  return copied
}
afterAll(async () => {
  await Promise.all(projects.map((copied) => copied.remove()))
})

/** The calls a run's model made, as `{ at, pid }`, from its calls.log. */
async function callsOf(run: { out: string }): Promise<Array<{ at: number; pid: string }>> {
  const log = await readFile(join(run.out, 'calls.log'), 'utf8').catch(() => '')
  return log
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [at, pid] = line.split(' ')
      return { at: Number(at), pid: pid ?? '' }
    })
}

/** The most of `times` (sorted) in any window of `ms` milliseconds: a window sliding over every call. */
function busiestWindow(times: readonly number[], ms: number): number {
  let most = 0
  let start = 0
  for (let end = 0; end < times.length; end++) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= ms) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}

describeWithProgram(REDIS_SERVER, 'three Vitest runs sharing one rate limit in Redis', () => {
  let redis: RunningRedis
  let runs: ReportedRun[]
  let calls: Array<{ at: number; pid: string }>

  beforeAll(async () => {
    redis = await startRedis()
    const shards = await Promise.all(Array.from({ length: SHARDS }, () => project()))
    // The shards start calling together (see the fixture's barrier), as CI shards would.
    const barrier = await mkdtemp(join(shards[0]?.root ?? tmpdir(), 'barrier-'))
    runs = await Promise.all(
      shards.map((shard) =>
        runReported(shard, [], {
          [STORE_ENV]: redis.url,
          SHARD_ROLLOUTS: String(ROLLOUTS_PER_SHARD),
          SHARD_BARRIER: barrier,
          SHARDS: String(SHARDS),
        }),
      ),
    )
    calls = (await Promise.all(runs.map(callsOf))).flat().sort((a, b) => a.at - b.at)
  }, 180_000)
  afterAll(async () => {
    await redis?.kill()
  })

  it('passes in every shard', () => {
    expect(runs).toHaveLength(SHARDS)
    for (const run of runs) {
      expect(run.assertion('late order: never refunds').status, run.stdout + run.stderr).toBe('passed')
    }
    expect(calls).toHaveLength(SHARDS * ROLLOUTS_PER_SHARD)
  })

  it('keeps the combined calls within 5% of the limit over any window, while the shards called at once', () => {
    // Three processes, whose calls overlapped in time for a stretch of many spacings: limits of
    // their own would have let three times the calls through there.
    const pids = [...new Set(calls.map((call) => call.pid))]
    expect(pids).toHaveLength(SHARDS)
    const spans = pids.map((pid) => {
      const times = calls.filter((call) => call.pid === pid).map((call) => call.at)
      return { first: Math.min(...times), last: Math.max(...times) }
    })
    const shared = Math.min(...spans.map((span) => span.last)) - Math.max(...spans.map((span) => span.first))
    expect(shared).toBeGreaterThan(50 * SPACING_MS)

    // How the window is checked: every call's time, as the fixture's model logged it, sorted, and
    // a window slid over them (it starts at each call in turn and counts the calls before its end).
    // The limit spaces calls evenly, so "at most N in any minute" is "at most N·w/60 s in any w
    // seconds" for every w above the spacing: a 6 s window is a minute-sized window at a tenth of
    // the scale, and holds 60 calls (600 per minute). Within 5%: at most 63.
    const times = calls.map((call) => call.at)
    const windowMs = 6_000
    const allowed = (REQUESTS_PER_MINUTE * windowMs) / 60_000
    const busiest = busiestWindow(times, windowMs)
    expect(busiest).toBeLessThanOrEqual(allowed * 1.05)
    // And the limit is what held them back: in their busiest stretch they ran at it, not below.
    expect(busiest).toBeGreaterThanOrEqual(allowed * 0.9)
  })
})

describeWithProgram(REDIS_SERVER, 'the errors of a rate limit kept in Redis', () => {
  it('fails the run when the store cannot be reached at its start, naming it without credentials', async () => {
    const port = await freePort()
    const run = await (
      await project()
    ).vitest(['run'], { [STORE_ENV]: `redis://ci:hunter2@127.0.0.1:${port}/0` })
    const output = run.stdout + run.stderr
    expect(run.code, output).not.toBe(0)
    expect(output).toContain(
      `The rate limit's Redis store at redis://***@127.0.0.1:${port}/0 could not be reached (connect ECONNREFUSED 127.0.0.1:${port})`,
    )
    expect(output).not.toContain('hunter2')
    // Nothing ran unlimited.
    expect(output).not.toMatch(/never refunds/)
  }, 90_000)

  it('gives error outcomes that name the store when it is lost during the run', async () => {
    const redis = await startRedis()
    try {
      const lost = await project()
      const running = runReported(lost, [], { [STORE_ENV]: redis.url, SHARD_ROLLOUTS: '60' })
      // Once the run has made some calls, the store goes away (as a crashed server or a cut
      // network would).
      const deadline = Date.now() + 60_000
      let started = 0
      while (started < 5 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        const out = await lostRunOut(lost)
        started = out === undefined ? 0 : (await callsOf({ out })).length
      }
      expect(started).toBeGreaterThanOrEqual(5)
      await redis.kill()
      const run = await running
      const failure = run.assertion('late order: never refunds')
      expect(failure.status).toBe('failed')
      // As the message prints it, unwrapped.
      expect(messageOf(failure.failureMessages[0] ?? '').replace(/\s+/g, ' ')).toContain(
        `threw, RateLimitStoreError: The rate limit's Redis store at ${redis.url} was lost (`,
      )
      // The calls after the loss were not made: far fewer than the 60 asked for.
      expect((await callsOf(run)).length).toBeLessThan(60)
    } finally {
      await redis.kill()
    }
  }, 120_000)

  it('names the package to install when ioredis is missing', async () => {
    const port = await freePort()
    const run = await (
      await project(['ioredis'])
    ).vitest(['run'], { [STORE_ENV]: `redis://127.0.0.1:${port}` })
    const output = run.stdout + run.stderr
    expect(run.code, output).not.toBe(0)
    expect(output).toContain(
      'A rateLimit whose store is a Redis URL needs the package "ioredis" (^5.0.0 || ^6.0.0), an optional peer dependency that is not installed. Install it next to vitest-causal-replay: npm install --save-dev ioredis',
    )
  }, 90_000)
})

/** The output folder `runReported` made for the one run of `project`, once it exists. */
async function lostRunOut(project: FixtureProject): Promise<string | undefined> {
  const runs = await readdir(join(project.root, 'out')).catch(() => [])
  return runs[0] === undefined ? undefined : join(project.root, 'out', runs[0])
}
