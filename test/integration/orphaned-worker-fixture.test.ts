import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { childEnv, copyFixture, type FixtureProject } from './fixture-project.js'

// A real Vitest run of test/fixtures/orphaned-worker, in the forks pool, whose main process is
// killed while a gate samples: the worker must stop calling the model.
let project: FixtureProject
// Worker processes this file started, ended in afterAll if the test left one running.
const workers = new Set<number>()

beforeAll(async () => {
  project = await copyFixture('orphaned-worker')
}, 60_000)

afterAll(async () => {
  for (const pid of workers) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
  await project?.remove()
})

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The model calls the fixture logged: the worker's pid and the time each started. */
async function loggedCalls(file: string): Promise<Array<{ pid: number; at: number }>> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [pid, at] = line.split(' ').map(Number)
      return { pid: pid!, at: at! }
    })
}

it('stops calling the model soon after the Vitest main process is killed', async () => {
  const log = join(project.root, 'calls.log')
  const main = spawn(process.execPath, [join(project.root, 'node_modules/vitest/vitest.mjs'), 'run'], {
    cwd: project.root,
    env: childEnv({ CAUSAL_REPLAY_FIXTURE_CALLS: log }),
    stdio: 'ignore',
  })
  const exited = new Promise((resolve) => main.once('exit', resolve))
  // Kill it once sampling is well under way.
  const started = Date.now()
  while ((await loggedCalls(log)).length < 20 && Date.now() - started < 60_000) await sleep(100)
  const before = await loggedCalls(log)
  expect(before.length).toBeGreaterThanOrEqual(20)
  for (const call of before) workers.add(call.pid)
  expect(workers.size).toBe(1)
  main.kill('SIGKILL')
  await exited
  const killedAt = Date.now()
  // The gate runs 4 calls of 100 ms at a time, about 40 a second, for about a minute.
  await sleep(4_000)
  const calls = await loggedCalls(log)
  expect(calls.length).toBeGreaterThanOrEqual(before.length)
  // The worker hears of it when its IPC channel closes; calls already started may finish.
  expect(calls.filter((call) => call.at > killedAt + 1_500).length).toBe(0)
}, 120_000)
