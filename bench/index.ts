// `npm run bench`: every documented run of bench/runs.ts, at the arguments the documentation quotes,
// one after the other, each in its own process so that one bench's warm JIT and heap do not flatter
// the next. Each prints its own table of measured ratios. `npm run figures` runs the seeded ones
// and stores their output for the pages.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { DOCUMENTED_RUNS, commandLine } from './runs.js'

for (const run of DOCUMENTED_RUNS) {
  const file = fileURLToPath(new URL(run.file, import.meta.url))
  console.log(`\n=== ${commandLine(run)} ===`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', file, ...(run.args ?? [])], {
    stdio: 'inherit',
    env: { ...process.env, ...run.env },
  })
  if (result.status !== 0) process.exitCode = 1
}
