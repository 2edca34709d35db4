/**
 * What `toBeNoWorseThan` decides at its defaults (95% confidence, up to 400 rollouts of each agent,
 * margin 0.05), by seeded simulation of its stopping rule (2000 runs a cell): the share of runs that
 * pass, fail or end inconclusive, and the mean number of pairs, side by side for pairs under
 * common random numbers (both agents make the same steps, so rollout r of each draws the same
 * numbers) and for independent pairs (different step structure).
 *
 *   npx tsx bench/comparison-power.ts
 */
import { stepStream } from '../src/random/streams.js'
import { comparisonDecision } from '../src/verdict/comparison-gate.js'

const RUNS = 2000
const MAX_PAIRS = 400
const MARGIN = 0.05
const ALPHA = 0.05
const CASES: Array<[number, number]> = [
  [0.2, 0.1],
  [0.2, 0.15],
  [0.2, 0.2],
  [0.2, 0.25],
  [0.2, 0.3],
  [0.2, 0.4],
  [0.02, 0.02],
  [0.02, 0.3],
]

function simulate(baseline: number, candidate: number, shared: boolean) {
  const tally = { pass: 0, fail: 0, inconclusive: 0, pairs: 0 }
  for (let run = 0; run < RUNS; run++) {
    const rng = stepStream(2026, run, 0)
    const pairs = { worse: 0, better: 0, same: 0 }
    let decision: 'pass' | 'fail' | null = null
    while (decision === null && pairs.worse + pairs.better + pairs.same < MAX_PAIRS) {
      const u = rng()
      const mine = u < candidate
      const theirs = (shared ? u : rng()) < baseline
      if (mine && !theirs) pairs.worse++
      else if (theirs && !mine) pairs.better++
      else pairs.same++
      decision = comparisonDecision(pairs, MARGIN, ALPHA)
    }
    tally[decision ?? 'inconclusive']++
    tally.pairs += pairs.worse + pairs.better + pairs.same
  }
  const share = (n: number) => `${((100 * n) / RUNS).toFixed(1)}%`
  return `${share(tally.pass)} / ${share(tally.fail)} / ${share(tally.inconclusive)}, ${Math.round(tally.pairs / RUNS)} pairs`
}

console.log(
  '| baseline → candidate (bad rate) | CRN: pass / fail / inconclusive, mean pairs | independent pairs |',
)
console.log('|---|---|---|')
for (const [baseline, candidate] of CASES) {
  console.log(
    `| ${baseline * 100}% → ${candidate * 100}% | ${simulate(baseline, candidate, true)} | ${simulate(baseline, candidate, false)} |`,
  )
}
