/**
 * Engine benchmark. Prints tables; asserts nothing. Run: `npx tsx bench/engine.ts`.
 *
 * 1. Harness overhead: a no-op synthetic agent of 10 steps, each drawing once from its stream, run
 *    at concurrency 1 and 16 on one core (Node runs the agent and the engine on one thread). Target:
 *    ≥ 200,000 steps/s. Each figure is the median of 7 timed repetitions after a warm-up, with the
 *    min–max range of the repetitions, counted two ways: per second of the process's CPU time (what
 *    one core delivers; robust to other load on the machine, and it also counts GC helper threads,
 *    so it errs low) and per second of wall time (what an idle machine shows).
 * 2. Concurrency under latency: 64 rollouts of an agent whose 5 steps each wait a simulated 20 ms
 *    model latency (setTimeout), at concurrency 1 and 16. Target: the concurrency-16 wall time is at
 *    most 1/12 of the concurrency-1 time (ideal: 1/16). One run of each, as the issue specifies.
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { defineAgent, type Agent } from '../src/index.js'
import { runRollouts } from '../src/entries/replay.js'

const STEPS = 10
const OVERHEAD_ROLLOUTS = 20_000
const REPETITIONS = 7
const TARGET_STEPS_PER_SECOND = 200_000

const LATENCY_STEPS = 5
const LATENCY_MS = 20
const LATENCY_ROLLOUTS = 64

/** The no-op agent: 10 steps, one draw each, no context, no tools. */
const noopAgent = defineAgent({
  name: 'noop-10',
  input: null,
  async run(_input, ctx) {
    let sum = 0
    for (let i = 0; i < STEPS; i++) sum += await ctx.step('draw', (rng) => rng())
    return sum
  },
})

/** The same agent with a small context per step: adds the snapshot and the context digest. */
const contextAgent = defineAgent({
  name: 'noop-10-context',
  input: null,
  async run(_input, ctx) {
    let sum = 0
    for (let i = 0; i < STEPS; i++) {
      sum += await ctx.step('draw', (rng) => rng(), { context: { turn: i, messages: ['hello', 'world'] } })
    }
    return sum
  },
})

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Every step waits a simulated model latency, then draws. */
const slowAgent = defineAgent({
  name: 'latency',
  input: null,
  async run(_input, ctx) {
    let sum = 0
    for (let i = 0; i < LATENCY_STEPS; i++) {
      sum += await ctx.step('model', async (rng) => {
        await sleep(LATENCY_MS)
        return rng()
      })
    }
    return sum
  },
})

interface Spread {
  median: number
  min: number
  max: number
}

interface Throughput {
  cpu: Spread
  wall: Spread
  /** CPU time over wall time: ≈ 1 when the process had a core to itself, less under competing load. */
  cpuShare: number
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b)
  return {
    median: sorted[Math.floor(sorted.length / 2)] as number,
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
  }
}

async function stepsPerSecond(agent: Agent<null, unknown>, concurrency: number): Promise<Throughput> {
  // Warm-up: let the JIT settle before timing.
  for (let i = 0; i < 2; i++)
    await runRollouts(agent, { rollouts: OVERHEAD_ROLLOUTS / 4, seed: i, concurrency })
  const cpuRates: number[] = []
  const wallRates: number[] = []
  let cpuTotal = 0
  let wallTotal = 0
  for (let rep = 0; rep < REPETITIONS; rep++) {
    const cpuBefore = process.cpuUsage()
    const start = performance.now()
    const set = await runRollouts(agent, { rollouts: OVERHEAD_ROLLOUTS, seed: 100 + rep, concurrency })
    const wallSeconds = (performance.now() - start) / 1000
    const cpu = process.cpuUsage(cpuBefore)
    const cpuSeconds = (cpu.user + cpu.system) / 1e6
    const steps = set.trajectories.reduce((sum, trajectory) => sum + trajectory.steps.length, 0)
    if (set.errors.length > 0 || steps !== OVERHEAD_ROLLOUTS * STEPS)
      throw new Error('the benchmark agent failed')
    cpuRates.push(steps / cpuSeconds)
    wallRates.push(steps / wallSeconds)
    cpuTotal += cpuSeconds
    wallTotal += wallSeconds
  }
  return { cpu: spread(cpuRates), wall: spread(wallRates), cpuShare: cpuTotal / wallTotal }
}

async function wallTime(concurrency: number): Promise<number> {
  const start = performance.now()
  const set = await runRollouts(slowAgent, { rollouts: LATENCY_ROLLOUTS, seed: 1, concurrency })
  const elapsed = performance.now() - start
  if (set.errors.length > 0 || set.trajectories.length !== LATENCY_ROLLOUTS)
    throw new Error('the latency agent failed')
  return elapsed
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
const fmtSpread = (s: Spread) => `${fmt(s.median)} [${fmt(s.min)}–${fmt(s.max)}]`

function table(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => cell.padEnd(widths[i] as number)).join('  ')
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(', ')
console.log(`Node ${process.version}, ${process.platform}/${process.arch}; load average ${load}`)

console.log(
  `\n1. Harness overhead: ${fmt(OVERHEAD_ROLLOUTS)} rollouts × ${STEPS} steps per repetition; median of ` +
    `${REPETITIONS} repetitions [min–max]; target ≥ ${fmt(TARGET_STEPS_PER_SECOND)} steps/s on one core\n`,
)
const overheadRows: string[][] = []
for (const [label, agent] of [
  ['no-op, one draw per step', noopAgent],
  ['no-op + small context per step', contextAgent],
] as const) {
  for (const concurrency of [1, 16]) {
    const result = await stepsPerSecond(agent, concurrency)
    overheadRows.push([
      label,
      String(concurrency),
      fmtSpread(result.cpu),
      fmtSpread(result.wall),
      `${(1e6 / result.cpu.median).toFixed(2)} µs`,
      result.cpuShare.toFixed(2),
      agent === noopAgent ? (result.cpu.median >= TARGET_STEPS_PER_SECOND ? 'yes' : 'NO') : '(info)',
    ])
  }
}
console.log(
  table(
    [
      'agent',
      'concurrency',
      'steps per CPU-second',
      'steps per wall-second',
      'CPU per step',
      'CPU/wall',
      'meets target',
    ],
    overheadRows,
  ),
)

console.log(
  `\n2. Latency: ${LATENCY_ROLLOUTS} rollouts × ${LATENCY_STEPS} steps × ${LATENCY_MS} ms simulated model ` +
    `latency; one run each; target: concurrency 16 takes ≤ 1/12 of concurrency 1 (ideal 1/16)\n`,
)
const serial = await wallTime(1)
const parallel = await wallTime(16)
const latencyOnly = LATENCY_ROLLOUTS * LATENCY_STEPS * LATENCY_MS
console.log(
  table(
    ['concurrency', 'wall time', 'latency alone'],
    [
      ['1', `${fmt(serial)} ms`, `${fmt(latencyOnly)} ms`],
      ['16', `${fmt(parallel)} ms`, `${fmt(latencyOnly / 16)} ms`],
    ],
  ),
)
const ratio = serial / parallel
console.log(
  `\nconcurrency-16 time = 1/${ratio.toFixed(2)} of concurrency-1 time (speed-up ${ratio.toFixed(2)}×); ` +
    `meets target (≥ 12×): ${ratio >= 12 ? 'yes' : 'NO'}`,
)
