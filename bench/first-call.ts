/**
 * First-call benchmark. Prints tables; asserts nothing. Run after `npm run build`:
 *
 *   npx tsx bench/first-call.ts [--runs 9] [--dist dist[,other-build][,floor]]
 *
 * Several comma-separated builds (e.g. one built before a change, `tsc -p tsconfig.build.json
 * --outDir /tmp/before`, with node_modules and package.json beside it) are run alternately in one
 * run and printed side by side, so that load from other work on the machine hits them alike.
 * To profile one fresh process, print its script and run it under a profiler:
 *
 *   npx tsx bench/first-call.ts --script shapley > /tmp/first.mjs
 *   node --cpu-prof --cpu-prof-dir /tmp/prof /tmp/first.mjs   # or --trace-gc, --prof
 *
 * With `--calls N` the script makes N untimed calls and prints nothing, so that a count of
 * instructions, which load from other work on the machine does not change, measures the first
 * call alone as the difference between `--calls 1` and `--calls 0` (`--dist required` or
 * `--dist floor` prints a pseudo-build's script):
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node /tmp/first.mjs
 *
 * Users attribute one failing test per fresh worker, so the call that counts is the first one in a
 * cold process: module import, lazy schema building, cold JIT and a young heap all land on it. For
 * each workload this spawns `--runs` fresh Node processes that import the built library from
 * `--dist` (the built JavaScript, so TypeScript transpilation is not measured), build the model and
 * record a failing run, then time the first attribution call and then a second, warm one
 * (performance.now around the await). Each figure is the median over the processes [min–max].
 *
 * Beside each build runs `floor` (on by default, as is `required`; `--dist dist` alone leaves them
 * out): the same workload through the least an engine can do, in a fresh process too. It holds or
 * draws each step, awaits the agent, scores the output and counts; no trajectory, no timeout, no
 * budget, no pool, no statistics. What it takes is a floor no engine of async agents can go below
 * on this machine, so it shows how much of a first call is the engine's and how much is V8 running
 * cold async code.
 * "CPU × floor" divides a build's median CPU time by the floor's, first call / warm call.
 *
 * `required` is the floor plus the two things this library's results need of any engine that gives
 * them: the library's own step streams (draw for draw seedrandom's alea, imported from `dist`; every
 * seeded result depends on them) and each rollout's trajectory as the public schema has it (a copy
 * of the input, a record per step, the output, the replay counts), since a predicate is a function
 * of the trajectory. Its ratio to the floor is what those two cost before any timeout, budget,
 * pool, plan or statistics.
 *
 * Workloads, the reference implementation's own:
 * - contrastive, K = 80, `sequential: false`, on the pivotal model (lookup → decide → reply);
 * - Shapley, permutation method, 80 permutations × 12 samples, antithetic, on the AND model.
 * The reference (the paper's Python implementation, first call in a fresh process, measured on
 * this machine class) took 168 ms and 659 ms; the target is 50× that: 3.4 ms and 13 ms.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { loadavg } from 'node:os'
import { relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const REFERENCE_MS = { contrastive: 168, shapley: 659 }
const TARGET_SPEEDUP = 50

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback)
}

const RUNS = Number(argument('runs', '9'))
const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** The pseudo-build that runs the minimal engine of {@link floorScript} instead of a library build. */
const FLOOR = 'floor'
/** The pseudo-build that runs {@link floorScript} with what the library's results require. */
const REQUIRED = 'required'
const isPseudo = (dist: string) => dist === FLOOR || dist === REQUIRED
const DISTS = argument('dist', `dist,${REQUIRED},${FLOOR}`)
  .split(',')
  .map((dist) => (isPseudo(dist) ? dist : resolve(ROOT, dist)))
// `required` imports the library's streams from ./dist, so that build must exist too.
const BUILDS = DISTS.filter((dist) => !isPseudo(dist))
for (const dist of DISTS.includes(REQUIRED) ? [...BUILDS, resolve(ROOT, 'dist')] : BUILDS) {
  if (!existsSync(entry(dist))) {
    console.error(`${entry(dist)} does not exist: run \`npm run build\` first (or pass --dist).`)
    process.exit(1)
  }
}

function entry(dist: string): string {
  return resolve(dist, 'src/index.js')
}

type Workload = 'contrastive' | 'shapley'

/**
 * The end of every child script: times `attribute(7)`, the first call, and `attribute(8)`, a warm
 * one, and prints one JSON line (a {@link Sample}) with the `importMs` and `recordMs` it defined.
 */
const TIMED_CALLS = `
// CPU time beside wall time: on a machine shared with other work, wall time also counts waiting
// for a core; CPU time (which includes V8's GC helper threads) does not.
const cpuMs = (since) => {
  const { user, system } = process.cpuUsage(since)
  return (user + system) / 1000
}
let cpu = process.cpuUsage()
let start = performance.now()
const first = await attribute(7)
const firstMs = performance.now() - start
const firstCpuMs = cpuMs(cpu)
cpu = process.cpuUsage()
start = performance.now()
const warm = await attribute(8)
const warmMs = performance.now() - start
const warmCpuMs = cpuMs(cpu)
console.log(JSON.stringify({
  importMs, recordMs, firstMs, firstCpuMs, warmMs, warmCpuMs, rollouts: first.rolloutsUsed, warmRollouts: warm.rolloutsUsed,
}))
`

/**
 * The end of a `--calls N` script: N untimed calls, from seed 7 on like {@link TIMED_CALLS}, and no
 * output, for a profiler or an instruction count to measure.
 */
function untimedCalls(count: number): string {
  return `\nfor (let call = 0; call < ${count}; call++) await attribute(7 + call)\n`
}

/**
 * The child process: plain JavaScript against the built library. The models are those of
 * examples/synthetic/scms.ts (which dist/ does not contain). Prints one JSON line.
 */
function childScript(workload: Workload, dist: string, calls = TIMED_CALLS): string {
  return `
const t0 = performance.now()
const root = await import(${JSON.stringify(pathToFileURL(entry(dist)).href)})
// A build from before the /replay and /attribution subpaths has everything in its root.
const { record } = 'record' in root ? root : await import(${JSON.stringify(pathToFileURL(resolve(dist, 'src/entries/replay.js')).href)})
const { contrastive, shapley } = 'contrastive' in root ? root : await import(${JSON.stringify(pathToFileURL(resolve(dist, 'src/entries/attribution.js')).href)})
const importMs = performance.now() - t0
const { defineAgent } = root
const workload = ${JSON.stringify(workload)}
const p = 0.3
const agent = workload === 'contrastive'
  ? defineAgent({
      name: 'pivotal(p=0.3)',
      input: { p },
      async run(_input, ctx) {
        await ctx.step('lookup', (rng) => (rng() < 0.5 ? 'order' : 'account'))
        const decision = await ctx.step('decide', (rng) => (rng() < p ? 'bad' : 'good'))
        await ctx.step('reply', (rng) => (rng() < 0.5 ? 'Done.' : 'All set.'))
        return decision
      },
    })
  : defineAgent({
      name: 'and(q=0.3)',
      input: { q: p },
      async run(_input, ctx) {
        const a = await ctx.step('a', (rng) => (rng() < p ? 'bad' : 'good'))
        const b = await ctx.step('b', (rng) => (rng() < p ? 'bad' : 'good'))
        await ctx.step('reply', (rng) => (rng() < 0.5 ? 'Done.' : 'All set.'))
        return a === 'bad' && b === 'bad' ? 'bad' : 'good'
      },
    })
const isBad = (trajectory) => trajectory.output === 'bad'
// The failing run the test would have found: the first bad rollout of seed 1.
const t1 = performance.now()
let factual
for (let rollout = 0; factual === undefined; rollout++) {
  const run = await record(agent, { seed: 1, rollout })
  if (isBad(run)) factual = run
}
const recordMs = performance.now() - t1
const attribute = (seed) =>
  workload === 'contrastive'
    ? contrastive(agent, factual, { isBad, seed, rollouts: 80, sequential: false })
    : shapley(agent, factual, {
        isBad, seed, method: 'permutation', permutations: 80, samplesPerEval: 12, antithetic: true,
      })
${calls}`
}

/**
 * The floor: the same workload with the least an engine must do. Each rollout gets a fresh `ctx`
 * whose `step` returns the held action or draws one from a generator seeded per (seed, rollout,
 * step), the agent is awaited and its output scored and counted. Arms run one rollout after
 * another (no pool), and nothing is recorded. The agents and rollout counts are the library
 * workloads': contrastive holds the first 0–3 steps of the failing run (the baseline and three
 * arms, 80 rollouts each); Shapley holds each prefix of 80 random orders of the 3 steps (12
 * rollouts each). Ends like {@link childScript}, with import and record at 0.
 *
 * With `required`, each step draws from the library's `stepStream` (its seed cache included) and
 * the rollout builds its trajectory with the schema's fields, which `isBad` then reads.
 */
function floorScript(workload: Workload, required: boolean, calls = TIMED_CALLS): string {
  const dist = pathToFileURL(resolve(ROOT, 'dist/src')).href
  const rollout = required
    ? `
    const steps = []
    const input = copyJson({ p }, 'The scenario input')
    const ctx = {
      step(name, policy) {
        const index = steps.length
        const source = held.includes(index) ? 'held' : 'policy'
        const action = source === 'held' ? factual[index] : policy(stepStream(seed, rollout, index))
        steps.push({ index, name, action, contextDigest: null, source, observations: [] })
        return Promise.resolve(action)
      },
    }
    const output = await agent(input, ctx)
    const trajectory = {
      schema: 'vitest-causal-replay/trajectory@1', agent: 'floor', input, seed, rollout,
      intervention: 'held', preamble: [], steps, output,
      replay: { heldSteps: held.length, matchedSteps: held.length },
    }
    if (trajectory.output === 'bad') bad++`
    : `
    let index = 0
    const ctx = {
      step(_name, policy) {
        const step = index++
        return Promise.resolve(held.includes(step) ? factual[step] : policy(stream(seed, rollout, step)))
      },
    }
    if ((await agent({ p }, ctx)) === 'bad') bad++`
  return `
${required ? `import { stepStream } from '${dist}/random/streams.js'\nimport { copyJson } from '${dist}/json.js'` : ''}
const p = 0.3
const agent = ${JSON.stringify(workload)} === 'contrastive'
  ? async (_input, ctx) => {
      await ctx.step('lookup', (rng) => (rng() < 0.5 ? 'order' : 'account'))
      const decision = await ctx.step('decide', (rng) => (rng() < p ? 'bad' : 'good'))
      await ctx.step('reply', (rng) => (rng() < 0.5 ? 'Done.' : 'All set.'))
      return decision
    }
  : async (_input, ctx) => {
      const a = await ctx.step('a', (rng) => (rng() < p ? 'bad' : 'good'))
      const b = await ctx.step('b', (rng) => (rng() < p ? 'bad' : 'good'))
      await ctx.step('reply', (rng) => (rng() < 0.5 ? 'Done.' : 'All set.'))
      return a === 'bad' && b === 'bad' ? 'bad' : 'good'
    }
const factual = ${JSON.stringify(workload)} === 'contrastive' ? ['order', 'bad', 'Done.'] : ['bad', 'bad', 'Done.']
// mulberry32 seeded from (seed, rollout, step): one closure per drawing step.
const stream = (seed, rollout, step) => {
  let a = (Math.imul(seed, 0x9e3779b1) ^ Math.imul(rollout + 1, 0x85ebca6b) ^ Math.imul(step + 1, 0xc2b2ae35)) | 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
// One arm: \`rollouts\` rollouts with the steps in \`held\` at their recorded actions; its bad count.
const runArm = async (seed, held, rollouts) => {
  let bad = 0
  for (let rollout = 0; rollout < rollouts; rollout++) {${rollout}
  }
  return bad
}
const attribute = async (seed) => {
  let rollouts = 0
  if (${JSON.stringify(workload)} === 'contrastive') {
    for (let k = 3; k >= 0; k--) {
      await runArm(seed, [0, 1, 2].slice(0, k), 80)
      rollouts += 80
    }
  } else {
    const order = stream(seed, -1, 0)
    for (let permutation = 0; permutation < 80; permutation++) {
      const steps = [0, 1, 2].sort(() => order() - 0.5)
      for (let size = 0; size <= 3; size++) {
        await runArm(seed + permutation, steps.slice(0, size), 12)
        rollouts += 12
      }
    }
  }
  return { rolloutsUsed: rollouts }
}
const importMs = 0
const recordMs = 0
${calls}`
}

const script = argument('script', '')
if (script === 'contrastive' || script === 'shapley') {
  const dist = DISTS[0] as string
  const calls = argument('calls', '')
  const end = calls === '' ? TIMED_CALLS : untimedCalls(Number(calls))
  console.log(isPseudo(dist) ? floorScript(script, dist === REQUIRED, end) : childScript(script, dist, end))
  process.exit(0)
}

interface Sample {
  importMs: number
  recordMs: number
  firstMs: number
  firstCpuMs: number
  warmMs: number
  warmCpuMs: number
  rollouts: number
  warmRollouts: number
}

function runChild(workload: Workload, dist: string): Sample {
  const source = isPseudo(dist) ? floorScript(workload, dist === REQUIRED) : childScript(workload, dist)
  const result = spawnSync(process.execPath, ['--input-type=module', '--eval', source], {
    encoding: 'utf8',
    cwd: ROOT,
  })
  if (result.status !== 0) throw new Error(`the ${workload} child failed:\n${result.stderr}`)
  return JSON.parse(result.stdout.trim().split('\n').pop() as string) as Sample
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

function spread(values: readonly number[], digits = 1): string {
  const sorted = [...values].sort((a, b) => a - b)
  const fmt = (n: number) => n.toFixed(digits)
  return `${fmt(median(values))} [${fmt(sorted[0] as number)}–${fmt(sorted[sorted.length - 1] as number)}]`
}

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
console.log(`${RUNS} fresh processes per workload and build, alternating; median [min–max]\n`)

const samples = new Map<string, Sample[]>()
const key = (workload: Workload, dist: string) => `${workload}\n${dist}`
// Alternate workloads and builds so that a burst of load from other work hits them all alike.
for (let run = 0; run < RUNS; run++) {
  for (const workload of ['contrastive', 'shapley'] as const) {
    for (const dist of DISTS) {
      const list = samples.get(key(workload, dist)) ?? []
      list.push(runChild(workload, dist))
      samples.set(key(workload, dist), list)
    }
  }
}

/**
 * A build's median CPU time over the floor's, first call / warm call: how far the engine is from
 * the least an engine can do. CPU rather than wall time, as the steadier figure on a shared
 * machine; empty without a floor in the run.
 */
function overFloor(workload: Workload, list: readonly Sample[]): string {
  const floor = samples.get(key(workload, FLOOR))
  if (floor === undefined) return ''
  const ratio = (of: (sample: Sample) => number) =>
    `${(median(list.map(of)) / median(floor.map(of))).toFixed(1)}×`
  return `${ratio((sample) => sample.firstCpuMs)} / ${ratio((sample) => sample.warmCpuMs)}`
}

const rows = (['contrastive', 'shapley'] as const).flatMap((workload) =>
  DISTS.map((dist) => {
    const list = samples.get(key(workload, dist)) ?? []
    const first = list.map((sample) => sample.firstMs)
    const target = REFERENCE_MS[workload] / TARGET_SPEEDUP
    return [
      workload === 'contrastive' ? 'contrastive K=80 (pivotal)' : 'shapley 80×12 antithetic (AND)',
      isPseudo(dist) ? dist : relative(ROOT, dist) || '.',
      spread(list.map((sample) => sample.importMs)),
      spread(list.map((sample) => sample.recordMs)),
      spread(first),
      spread(list.map((sample) => sample.firstCpuMs)),
      spread(list.map((sample) => sample.warmMs)),
      spread(list.map((sample) => sample.warmCpuMs)),
      overFloor(workload, list),
      String(list[0]?.rollouts ?? 0),
      spread(
        list.map((sample) => (sample.firstMs * 1000) / sample.rollouts),
        2,
      ),
      spread(
        list.map((sample) => (sample.warmMs * 1000) / sample.warmRollouts),
        2,
      ),
      `${REFERENCE_MS[workload]} ms`,
      `${(REFERENCE_MS[workload] / median(first)).toFixed(0)}×`,
      `${target.toFixed(1)} ms: ${median(first) <= target ? 'yes' : 'NO'}`,
    ]
  }),
)
console.log(
  table(
    [
      'workload',
      'build',
      'import ms',
      'record ms',
      'first call ms',
      'first CPU ms',
      'warm call ms',
      'warm CPU ms',
      'CPU × floor (first / warm)',
      'rollouts',
      'first µs/rollout',
      'warm µs/rollout',
      'reference',
      'speed-up',
      `target (${TARGET_SPEEDUP}×)`,
    ],
    rows,
  ),
)
