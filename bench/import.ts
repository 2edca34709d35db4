/**
 * Import benchmark. Prints a table; asserts nothing. Run after `npm run build`:
 *
 *   npx tsx bench/import.ts [--runs 41] [--dist dist[,other-build]]
 *
 * Every Vitest test file imports the package root (and the setup file the plugin registers), in a
 * fresh worker or a fresh module graph, so what the root costs to import is paid per file, whether
 * or not a claim in it fails. This times that import against the import of the root's own
 * dependencies alone (zod, chalk, seedrandom, microdiff): what no build of this library can go
 * below, since a test that uses it needs them.
 *
 * Each round spawns one fresh Node process per row: one that imports the dependencies and, for each
 * build in `--dist`, one that imports `<build>/src/index.js`. A process reads its CPU time
 * (`process.cpuUsage`, which counts V8's helper threads too) and its wall time around the dynamic
 * `import()` alone, so Node's start-up is left out. The rows run in a rotating order, so that load
 * from other work on the machine, and the file cache, hit them alike. Several builds (e.g. one built
 * before a change, `npx tsc -p tsconfig.build.json --outDir /tmp/before/dist` with `package.json`
 * and `node_modules` beside it) are printed side by side.
 *
 * "× dependencies" is the median over rounds of each round's ratio, the build's CPU time over the
 * dependencies' in the same round, with a 95% distribution-free confidence interval for that median
 * (binomial order statistics).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { loadavg } from 'node:os'
import { relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback)
}

const RUNS = Number(argument('runs', '41'))
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BUILDS = argument('dist', 'dist')
  .split(',')
  .map((dist) => resolve(ROOT, dist))
/** The package's runtime dependencies that a test which imports the root needs, as the issue names them. */
const DEPENDENCIES = ['zod', 'chalk', 'seedrandom', 'microdiff']
/** The goal: importing the root costs at most this many times its dependencies' import, CPU. */
const GOAL = 1.3
const CONFIDENCE = 0.95

for (const build of BUILDS) {
  if (!existsSync(entry(build))) {
    console.error(`${entry(build)} does not exist: run \`npm run build\` first (or pass --dist).`)
    process.exit(1)
  }
}

function entry(build: string): string {
  return resolve(build, 'src/index.js')
}

/** One row of the table: what its process imports, and where it resolves bare names from. */
interface Row {
  label: string
  specifiers: readonly string[]
}

const DEPENDENCY_ROW: Row = { label: `dependencies: ${DEPENDENCIES.join(', ')}`, specifiers: DEPENDENCIES }
const ROWS: readonly Row[] = [
  DEPENDENCY_ROW,
  ...BUILDS.map((build) => ({
    label: `root (${relative(ROOT, build) || '.'})`,
    specifiers: [pathToFileURL(entry(build)).href],
  })),
]

interface Sample {
  cpuMs: number
  wallMs: number
}

/** A fresh process that imports `row`'s modules in turn and prints the CPU and wall time it took. */
function runChild(row: Row): Sample {
  const source = `
const cpu = process.cpuUsage()
const start = performance.now()
for (const specifier of ${JSON.stringify(row.specifiers)}) await import(specifier)
const wallMs = performance.now() - start
const { user, system } = process.cpuUsage(cpu)
console.log(JSON.stringify({ cpuMs: (user + system) / 1000, wallMs }))
`
  // From the repository root, so the dependencies resolve from its node_modules like the builds' do.
  const result = spawnSync(process.execPath, ['--input-type=module', '--eval', source], {
    encoding: 'utf8',
    cwd: ROOT,
  })
  if (result.status !== 0) throw new Error(`the import of ${row.label} failed:\n${result.stderr}`)
  return JSON.parse(result.stdout.trim().split('\n').pop() as string) as Sample
}

function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b)
}

function median(values: readonly number[]): number {
  const order = sorted(values)
  const middle = Math.floor(order.length / 2)
  return order.length % 2 === 1
    ? (order[middle] as number)
    : ((order[middle - 1] as number) + (order[middle] as number)) / 2
}

function spread(values: readonly number[]): string {
  const order = sorted(values)
  return `${median(values).toFixed(1)} [${(order[0] as number).toFixed(1)}–${(order.at(-1) as number).toFixed(1)}]`
}

/**
 * A distribution-free confidence interval for the median of `values`: the order statistics
 * x(k) and x(n+1−k), with k the largest rank such that P(Binomial(n, ½) < k) ≤ (1 − confidence)/2.
 * Null when n is too small for any such interval.
 */
function medianInterval(values: readonly number[], confidence: number): [number, number] | null {
  const n = values.length
  const tail = (1 - confidence) / 2
  // P(X ≤ j) for X ~ Binomial(n, ½), built up one term at a time.
  let term = 0.5 ** n
  let below = 0
  let k = 0
  for (let j = 0; j < n; j++) {
    if (below + term > tail) break
    below += term
    k = j + 1
    term = (term * (n - j)) / (j + 1)
  }
  if (k === 0) return null
  const order = sorted(values)
  return [order[k - 1] as number, order[n - k] as number]
}

const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(', ')
console.log(`Node ${process.version}, ${process.platform}/${process.arch}; load average ${load}`)
console.log(
  `${RUNS} fresh processes per row, in a rotating order; the import alone (Node's start-up left out); median [min–max]\n`,
)

const samples = new Map<Row, Sample[]>(ROWS.map((row) => [row, []]))
for (let round = 0; round < RUNS; round++) {
  for (let position = 0; position < ROWS.length; position++) {
    const row = ROWS[(round + position) % ROWS.length] as Row
    samples.get(row)?.push(runChild(row))
  }
}

const dependencies = samples.get(DEPENDENCY_ROW) ?? []
function overDependencies(row: Row): string {
  if (row === DEPENDENCY_ROW) return '1'
  const ratios = (samples.get(row) ?? []).map(
    (sample, round) => sample.cpuMs / (dependencies[round] as Sample).cpuMs,
  )
  const interval = medianInterval(ratios, CONFIDENCE)
  const goal = median(ratios) <= GOAL ? 'yes' : 'NO'
  return `${median(ratios).toFixed(2)}× ${interval === null ? '' : `[${interval[0].toFixed(2)}, ${interval[1].toFixed(2)}]`}  ${goal}`
}

const header = ['import', 'CPU ms', 'wall ms', `CPU × dependencies [95% CI], ≤ ${GOAL}×`]
const rows = ROWS.map((row) => {
  const list = samples.get(row) ?? []
  return [
    row.label,
    spread(list.map((sample) => sample.cpuMs)),
    spread(list.map((sample) => sample.wallMs)),
    overDependencies(row),
  ]
})
const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)))
const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i] as number)).join('  ')
console.log([line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n'))
console.log(
  `\n× dependencies: the median of each round's ratio (CPU of the row / CPU of the dependencies in that round), with a ${CONFIDENCE * 100}% distribution-free interval for the median (binomial order statistics)`,
)
