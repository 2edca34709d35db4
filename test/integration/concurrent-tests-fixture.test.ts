import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFixture, runReported, type FixtureProject, type ReportedRun } from './fixture-project.js'

// One real Vitest run of test/fixtures/concurrent-tests: two `test.concurrent` tests in one worker,
// each a claim at the plugin's concurrency 4, call one simulated model; each call logs when it
// started and ended.
let project: FixtureProject
let run: ReportedRun
let calls: Array<{ start: number; end: number }>

beforeAll(async () => {
  project = await copyFixture('concurrent-tests')
  run = await runReported(project)
  calls = (await readFile(join(run.out, 'calls.log'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, end] = line.split(' ').map(Number)
      return { start: start ?? 0, end: end ?? 0 }
    })
}, 120_000)

afterAll(async () => {
  await project?.remove()
})

/** The most calls in flight at once: a sweep over the starts and ends (an end before a start at the same time). */
function mostInFlight(intervals: ReadonlyArray<{ start: number; end: number }>): number {
  const events = intervals.flatMap(({ start, end }) => [
    { at: start, change: 1 },
    { at: end, change: -1 },
  ])
  events.sort((a, b) => a.at - b.at || a.change - b.change)
  let inFlight = 0
  let most = 0
  for (const { change } of events) {
    inFlight += change
    most = Math.max(most, inFlight)
  }
  return most
}

describe('concurrent tests in one worker', () => {
  it('share one budget of calls to a model: never more than 4 in flight, though each claim may have 4', () => {
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.assertion('first of two at once: never answers maybe').status).toBe('passed')
    expect(run.assertion('second of two at once: never answers maybe').status).toBe('passed')
    // Both claims ran their 40 rollouts, at the same time.
    expect(calls).toHaveLength(80)
    expect(mostInFlight(calls)).toBe(4)
  })
})
