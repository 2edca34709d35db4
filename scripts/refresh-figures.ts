// `npm run figures`: runs the seeded benches of bench/runs.ts at their documented arguments, one
// after the other, stores each output in bench/figures/ (scripts/bench-output.ts), then fills the
// pages' figures from them (`npm run readme`'s machinery). The one command to run after a change to
// code a bench measures; all of them take about half an hour on a 2-core machine, most of it
// bench/context-attribution.ts, so on a shared machine run it under `nice`.
//
//   npm run figures                        every seeded bench: store its output, refresh the pages
//   npm run figures -- --only a,b          the same for the runs named a and b
//   npm run figures -- --check [--only …]  re-run them, and fail if an output differs from the stored one
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { relative } from 'node:path'
import { documentedRun, commandLine, type DocumentedRun } from '../bench/runs.js'
import { FIGURES_DIR, SEEDED_RUNS, runSeeded, storedOutputPath, storedOutputText } from './bench-output.js'
import { ROOT } from './public-entries.js'
import { refreshPages } from './readme-output.js'

/** The runs named by `--only a,b` (all seeded runs without it). */
function chosenRuns(argv: readonly string[]): readonly DocumentedRun[] {
  const at = argv.indexOf('--only')
  if (at === -1) return SEEDED_RUNS
  const names = (argv[at + 1] ?? '').split(',').filter((name) => name !== '')
  if (names.length === 0) throw new Error('--only needs the names of runs, comma-separated (bench/runs.ts).')
  return names.map((name) => {
    const run = documentedRun(name)
    if (run.check === 'timed')
      throw new Error(`The run "${name}" is timed: it has no seeded output to store.`)
    return run
  })
}

const argv = process.argv.slice(2)
const checking = argv.includes('--check')
const differing: string[] = []
await mkdir(FIGURES_DIR, { recursive: true })
for (const run of chosenRuns(argv)) {
  const started = performance.now()
  const output = await runSeeded(run)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const path = storedOutputPath(run)
  const before = await readFile(path, 'utf8').catch(() => null)
  const same = before === storedOutputText(run, output)
  console.log(`${commandLine(run)}: ${seconds} s, ${same ? 'as stored' : 'differs from the stored output'}`)
  if (same) continue
  differing.push(run.name)
  if (!checking) await writeFile(path, storedOutputText(run, output))
}
if (checking) {
  if (differing.length > 0) {
    console.error(
      `Outputs differ from bench/figures/: ${differing.join(', ')}. \`npm run figures\` stores them.`,
    )
    process.exitCode = 1
  }
} else {
  // The pages are filled from the stored outputs, by the same machinery as their code blocks.
  const changed = await refreshPages()
  console.log(
    changed.length === 0
      ? 'The pages already show these figures.'
      : `Figures refreshed in: ${changed.map((path) => relative(ROOT, path)).join(', ')}`,
  )
}
