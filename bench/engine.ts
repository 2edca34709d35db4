/**
 * Engine benchmark (issue 2). Prints a table; asserts nothing. Run: `npx tsx bench/engine.ts`.
 *
 * 1. Harness overhead: a no-op synthetic agent of 10 steps, each drawing once from its stream, run
 *    at concurrency 1 and 16 on one core (Node runs the agent and the engine on one thread). Target:
 *    ≥ 200,000 steps/s. Reported as the median of several timed repetitions after a warm-up, with
 *    the min–max range of the repetitions.
 * 2. Concurrency under latency: 64 rollouts of an agent whose 5 steps each wait a simulated 20 ms
 *    model latency (setTimeout), at concurrency 1 and 16. Target: the concurrency-16 wall time is at
 *    most 1/12 of the concurrency-1 time (ideal: 1/16). One run of each, as the issue specifies.
 */
import { performance } from 'node:perf_hooks'
import { defineAgent, runRollouts, type Agent } from '../src/index.js'

const STEPS = 10
const OVERHEAD_ROLLOUTS = 20_000
const REPETITIONS = 7

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

/** The same agent with a small context per step, to show what the context digest costs. */
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

/** Every step waits a simulated model latency before it draws. */
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

interface Throughput {
  median: number
  min: number
  max: number
  cpuShare: number
}

async function stepsPerSecond(agent: Agent<null, unknown>, concurrency: number): Promise<Throughput> {
  // Warm-up: let the JIT settle before timing.
  for (let i = 0; i < 2; i++)
    await runRollouts(agent, { rollouts: OVERHEAD_ROLLOUTS / 4, seed: i, concurrency })
  const rates: number[] = []
  let cpuMicros = 0
  let wallMs = 0
  for (let rep = 0; rep < REPETITIONS; rep++) {
    const cpuBefore = process.cpuUsage()
    const start = performance.now()
    const set = await runRollouts(agent, { rollouts: OVERHEAD_ROLLOUTS, seed: 100 + rep, concurrency })
    const elapsed = performance.now() - start
    const cpu = process.cpuUsage(cpuBefore)
    cpuMicros += cpu.user + cpu.system
    wallMs += elapsed
    const steps = set.trajectories.reduce((sum, trajectory) => sum + trajectory.steps.length, 0)
    if (set.errors.length > 0 || steps !== OVERHEAD_ROLLOUTS * STEPS)
      throw new Error('benchmark agent failed')
    rates.push(steps / (elapsed / 1000))
  }
  rates.sort((a, b) => a - b)
  return {
    median: rates[Math.floor(rates.length / 2)] as number,
    min: rates[0] as number,
    max: rates[rates.length - 1] as number,
    // CPU time / wall time: ≈ 1 on one core (GC threads may add a little).
    cpuShare: cpuMicros / 1000 / wallMs,
  }
}

async function wallTime(concurrency: number): Promise<number> {
  const start = performance.now()
  const set = await runRollouts(slowAgent, { rollouts: LATENCY_ROLLOUTS, seed: 1, concurrency })
  const elapsed = performance.now() - start
  if (set.errors.length > 0 || set.trajectories.length !== LATENCY_ROLLOUTS)
    throw new Error('latency agent failed')
  return elapsed
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] as number)).join('  ')
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

console.log(`Node ${process.version}, ${process.platform}/${process.arch}`)
console.log(
  `\n1. Harness overhead: ${fmt(OVERHEAD_ROLLOUTS)} rollouts × ${STEPS} steps per repetition, ` +
    `median of ${REPETITIONS} repetitions [min–max] (target ≥ 200,000 steps/s)\n`,
)
const overheadRows: string[][] = []
for (const [label, agent] of [
  ['no-op, one draw per step', noopAgent],
  ['same + a small context per step', contextAgent],
] as const) {
  for (const concurrency of [1, 16]) {
    const result = await stepsPerSecond(agent, concurrency)
    overheadRows.push([
      label,
      String(concurrency),
      fmt(result.median),
      `${fmt(result.min)}–${fmt(result.max)}`,
      `${((1e6 / result.median) * STEPS).toFixed(1)} µs`,
      result.cpuShare.toFixed(2),
      label.startsWith('no-op') ? (result.median >= 200_000 ? 'yes' : 'NO') : '(info)',
    ])
  }
}
console.log(
  table(
    ['agent', 'concurrency', 'steps/s', 'range', 'per rollout', 'CPU/wall', 'meets target'],
    overheadRows,
  ),
)

console.log(
  `\n2. ${LATENCY_ROLLOUTS} rollouts × ${LATENCY_STEPS} steps × ${LATENCY_MS} ms simulated latency, one run each ` +
    `(target: concurrency 16 ≤ 1/12 of concurrency 1; ideal 1/16)\n`,
)
const serial = await wallTime(1)
const parallel = await wallTime(16)
const ideal = LATENCY_ROLLOUTS * LATENCY_STEPS * LATENCY_MS
console.log(
  table(
    ['concurrency', 'wall time', 'lower bound (latency only)'],
    [
      ['1', `${fmt(serial)} ms`, `${fmt(ideal)} ms`],
      ['16', `${fmt(parallel)} ms`, `${fmt(ideal / 16)} ms`],
    ],
  ),
)
const ratio = serial / parallel
console.log(
  `\nspeed-up conc-1 / conc-16 = ${ratio.toFixed(2)}× (conc-16 time = 1/${ratio.toFixed(2)} of conc-1); ` +
    `target ≥ 12×: ${ratio >= 12 ? 'yes' : 'NO'}`,
)
