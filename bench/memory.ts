/**
 * Memory benchmark. Prints a table; asserts nothing.
 *
 *   npx tsx bench/memory.ts
 *
 * Peak resident memory (`process.resourceUsage().maxRSS`) of one attribution of a failing run of
 * 100, 1,000 and 2,000 steps, each measured in a fresh child process so that one case's heap does
 * not raise the next one's peak. The agent's steps are cheap (one seeded draw each), so the
 * figures show what the attribution itself holds, not what an agent does:
 * - `factual`: only recording the failing run (the floor every other case starts from);
 * - `shapley`: permutation method, 2 permutations without antithetic pairs, `samplesPerEval: 1`:
 *   the least run that estimates values, 2(n + 1) rollouts (4,002 at 2,000 steps). Smaller
 *   budgets do not start a permutation run at all (`minimumRollouts`), so the run is whole here:
 *   a walk holds only the prefixes in flight, and memory should grow linearly with the steps;
 * - `contrastive`: its defaults (binary search, sequential, CRN).
 * The growth from 1,000 to 2,000 steps is what to watch: memory that grows with the square of the
 * run shows up as roughly 4× there.
 *
 * One case alone: `node --import tsx bench/memory.ts <kind>:<steps>`, e.g. `shapley:2000`.
 */
import { spawnSync } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { contrastive, shapley } from '../src/entries/attribution.js'
import { defineAgent, type Trajectory } from '../src/index.js'
import { record } from '../src/entries/replay.js'

const LENGTHS = [100, 1_000, 2_000] as const
const KINDS = ['factual', 'shapley', 'contrastive'] as const
type Kind = (typeof KINDS)[number]
const SEED = 7

/** What a child reports on its last line of output. */
interface Measurement {
  peakRssMb: number
  ms: number
  rolloutsUsed: number
  truncated: boolean
}

/**
 * A run of `length` steps, each one draw: the middle step decides bad with probability 0.3, and the
 * run is bad iff it did (the others are noise nothing depends on).
 */
function cheapAgent(length: number) {
  const pivot = Math.floor(length / 2)
  return defineAgent({
    name: `cheap(${length})`,
    input: { length },
    async run(_input, ctx) {
      let decision = 'good'
      for (let step = 0; step < length; step++) {
        const action = await ctx.step(step === pivot ? 'decide' : 'draw', (rng) =>
          rng() < (step === pivot ? 0.3 : 0.5) ? 'bad' : 'good',
        )
        if (step === pivot) decision = action
      }
      return decision
    },
  })
}

const isBad = (trajectory: Trajectory): boolean => trajectory.output === 'bad'

async function measure(kind: Kind, length: number): Promise<Measurement> {
  const agent = cheapAgent(length)
  // The default `maxSteps` (100) would end every long rollout as a loop.
  const maxSteps = length + 1
  const start = performance.now()
  let factual: Trajectory | undefined
  for (let rollout = 0; factual === undefined; rollout++) {
    const run = await record(agent, { seed: SEED, rollout, maxSteps })
    if (isBad(run)) factual = run
  }
  let rolloutsUsed = 0
  let truncated = false
  if (kind === 'shapley') {
    const result = await shapley(agent, factual, {
      isBad,
      seed: SEED,
      maxSteps,
      method: 'permutation',
      permutations: 2,
      antithetic: false,
      samplesPerEval: 1,
    })
    ;({ rolloutsUsed, truncated } = result)
  } else if (kind === 'contrastive') {
    const result = await contrastive(agent, factual, { isBad, seed: SEED, maxSteps })
    ;({ rolloutsUsed, truncated } = result)
  }
  return {
    // maxRSS is in kilobytes.
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    ms: performance.now() - start,
    rolloutsUsed,
    truncated,
  }
}

function runChild(kind: Kind, length: number): Measurement | string {
  const file = fileURLToPath(import.meta.url)
  const child = spawnSync(process.execPath, ['--import', 'tsx', file, `${kind}:${length}`], {
    encoding: 'utf8',
  })
  const last = child.stdout.trim().split('\n').at(-1) ?? ''
  if (child.status !== 0 || !last.startsWith('{')) {
    const reason = child.signal ?? `exit ${child.status}`
    const error = child.stderr.includes('heap out of memory') ? 'out of memory' : reason
    return `failed (${error})`
  }
  return JSON.parse(last) as Measurement
}

const COLUMNS = [
  ['case', 12],
  ['steps', 6],
  ['peak RSS', 10],
  ['over factual', 12],
  ['rollouts', 8],
  ['truncated', 9],
  ['wall', 8],
] as const
const row = (cells: readonly string[]) =>
  cells.map((cell, i) => cell.padStart(COLUMNS[i]?.[1] ?? 0)).join('  ')
const megabytes = (value: number) => `${value.toFixed(0)} MB`

const only = process.argv[2]
if (only !== undefined) {
  const [kind, length] = only.split(':')
  if (!KINDS.includes(kind as Kind) || !Number.isInteger(Number(length))) {
    throw new Error(
      `bench/memory.ts: expected <kind>:<steps> with kind one of ${KINDS.join(', ')}, got ${only}.`,
    )
  }
  console.log(JSON.stringify(await measure(kind as Kind, Number(length))))
} else {
  console.log(`peak RSS (process.resourceUsage().maxRSS) of one attribution, each case in a fresh process`)
  console.log(`agent: one seeded draw per step; shapley: permutation, 2 permutations (not antithetic),`)
  console.log(`samplesPerEval 1, 2(n + 1) rollouts; contrastive: defaults (binary search); seed ${SEED}\n`)
  console.log(row(COLUMNS.map(([header]) => header)))
  for (const length of LENGTHS) {
    let floor: number | undefined
    for (const kind of KINDS) {
      const measured = runChild(kind, length)
      if (typeof measured === 'string') {
        console.log(row([kind, String(length), measured, '', '', '', '']))
        continue
      }
      if (kind === 'factual') floor = measured.peakRssMb
      console.log(
        row([
          kind,
          String(length),
          megabytes(measured.peakRssMb),
          kind === 'factual' || floor === undefined ? '' : `+${megabytes(measured.peakRssMb - floor)}`,
          kind === 'factual' ? '' : String(measured.rolloutsUsed),
          kind === 'factual' ? '' : String(measured.truncated),
          `${(measured.ms / 1000).toFixed(1)} s`,
        ]),
      )
    }
  }
}
