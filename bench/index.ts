// `npm run bench`: every benchmark, one after the other, each in its own process so that one
// bench's warm JIT and heap do not flatter the next. Each prints its own table of measured ratios.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BENCHES = [
  'engine.ts',
  'gate-rollouts.ts',
  'baseline-power.ts',
  'attribution.ts',
  'shapley.ts',
  'binary-search.ts',
  'sequential-bias.ts',
  'memory.ts',
  'first-call.ts',
  'judge-correction.ts',
]

for (const bench of BENCHES) {
  const file = fileURLToPath(new URL(bench, import.meta.url))
  console.log(`\n=== bench/${bench} ===`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' })
  if (result.status !== 0) process.exitCode = 1
}
