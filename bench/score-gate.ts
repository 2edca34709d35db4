/**
 * Score gate benchmark. Prints operating characteristics measured in one run; asserts nothing.
 *
 *   npx tsx bench/score-gate.ts
 *
 * The gate of `toScoreAtLeast(scorer, 0.8)` with its defaults (α = 5%, maxRollouts 400, a look after
 * every rollout), on scores that are left-skewed like a judge's rubric scores: Beta(a, 1) draws
 * (U^(1/a), mean a/(a + 1)) for true means around the threshold, 2,000 seeded runs each. Side by
 * side, the share of runs that pass, fail and end inconclusive, and the mean rollouts scored. The
 * decision is the gate's: the first look at which the betting wealth at the threshold reaches 1/α.
 */
import seedrandom from 'seedrandom'
import { bettingLogWealthPath } from '../src/stats/betting-mean-test.js'

const THRESHOLD = 0.8
const MAX_ROLLOUTS = 400
const RUNS = 2000
const limit = Math.log(20)

const rows: string[][] = []
for (const mean of [0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]) {
  const shape = mean / (1 - mean)
  const rng = seedrandom(`score gate bench ${mean}`)
  let pass = 0
  let fail = 0
  let rollouts = 0
  for (let run = 0; run < RUNS; run++) {
    const scores = Array.from({ length: MAX_ROLLOUTS }, () => rng() ** (1 / shape))
    const path = bettingLogWealthPath(scores, THRESHOLD, 0.05)
    const first = path.findIndex((wealth) => wealth.above >= limit || wealth.below >= limit)
    if (first < 0) {
      rollouts += MAX_ROLLOUTS
      continue
    }
    rollouts += first + 1
    if (path[first]!.above >= limit) pass++
    else fail++
  }
  const share = (count: number) => `${((100 * count) / RUNS).toFixed(1)}%`
  rows.push([
    mean.toFixed(2),
    share(pass),
    share(fail),
    share(RUNS - pass - fail),
    (rollouts / RUNS).toFixed(0),
  ])
}

console.log(
  `toScoreAtLeast(scorer, ${THRESHOLD}), Beta(a, 1) scores, ${RUNS} runs per row, maxRollouts ${MAX_ROLLOUTS}`,
)
console.log('| true mean | pass | fail | inconclusive | mean rollouts |')
console.log('|---|---|---|---|---|')
for (const row of rows) console.log(`| ${row.join(' | ')} |`)
