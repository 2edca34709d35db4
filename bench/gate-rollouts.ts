/**
 * Rollouts a "≤ 5%" gate spends with the anytime-valid sequential test, against a fixed-n design.
 *
 *   npx tsx bench/gate-rollouts.ts
 *
 * For each true rate, simulates (seeded) the sequential test checked after every rollout with a cap
 * of 400, and prints the mean rollouts to a decision and the decision rates, next to the exact
 * values (dynamic programming, no simulation noise) and to a fixed design of 153 rollouts decided
 * by one-sided 95% Clopper–Pearson bounds.
 */
import seedrandom from 'seedrandom'
import { clopperPearson } from '../src/stats/clopper-pearson.js'
import { MIXTURE_E_PROCESS_METHOD } from '../src/stats/mixture-e-process.js'
import { sequentialOperatingCharacteristics } from '../src/stats/operating-characteristics.js'
import { sequentialBoundaries } from '../src/stats/sequential-rate-test.js'

const BOUND = 0.05
const ALPHA = 0.05
const MAX_ROLLOUTS = 400
const FIXED_ROLLOUTS = 153
const RUNS = 20_000
const SEED = 'gate-rollouts'

/** Target mean rollouts to a decision, by true rate (null: the bound itself, where errors are measured). */
const TARGETS: readonly (readonly [rate: number, target: number | null])[] = [
  [0, 90],
  [0.01, 150],
  [0.05, null],
  [0.15, 75],
  [0.3, 20],
]

interface Simulated {
  meanRollouts: number
  pBelow: number
  pAbove: number
  pUndecided: number
}

function simulate(rate: number): Simulated {
  const { belowAtMost, aboveAtLeast } = sequentialBoundaries(BOUND, ALPHA, MAX_ROLLOUTS)
  const random = seedrandom.alea(`${SEED}-${rate}`)
  let rollouts = 0
  let below = 0
  let above = 0
  for (let run = 0; run < RUNS; run++) {
    let bad = 0
    let n = 1
    for (; n <= MAX_ROLLOUTS; n++) {
      if (random() < rate) bad++
      if (bad <= (belowAtMost[n] ?? -1)) {
        below++
        break
      }
      if (bad >= (aboveAtLeast[n] ?? n + 1)) {
        above++
        break
      }
    }
    rollouts += Math.min(n, MAX_ROLLOUTS)
  }
  return {
    meanRollouts: rollouts / RUNS,
    pBelow: below / RUNS,
    pAbove: above / RUNS,
    pUndecided: (RUNS - below - above) / RUNS,
  }
}

/** Exact decision rates of the fixed design: pass if the one-sided 95% upper bound is ≤ the bound. */
function fixedDesign(rate: number): { pBelow: number; pAbove: number } {
  let pBelow = 0
  let pAbove = 0
  let logChoose = 0
  for (let bad = 0; bad <= FIXED_ROLLOUTS; bad++) {
    if (bad > 0) logChoose += Math.log((FIXED_ROLLOUTS - bad + 1) / bad)
    const probability =
      rate === 0
        ? bad === 0
          ? 1
          : 0
        : Math.exp(logChoose + bad * Math.log(rate) + (FIXED_ROLLOUTS - bad) * Math.log1p(-rate))
    const interval = clopperPearson(bad, FIXED_ROLLOUTS, 1 - 2 * ALPHA)
    if (interval.high <= BOUND) pBelow += probability
    else if (interval.low >= BOUND) pAbove += probability
  }
  return { pBelow, pAbove }
}

const percent = (x: number) => `${(100 * x).toFixed(2)}%`
const COLUMNS = [
  ['true rate', 9],
  ['target', 6],
  ['mean (sim)', 10],
  ['mean (exact)', 12],
  ['pass', 7],
  ['fail', 7],
  ['undecided', 9],
  ['│', 1],
  ['fixed n', 7],
  ['pass', 7],
  ['fail', 7],
  ['met', 3],
] as const
const row = (cells: readonly string[]) =>
  cells.map((cell, i) => cell.padStart(COLUMNS[i]?.[1] ?? 0)).join('  ')

console.log(`"≤ ${BOUND * 100}%" gate, α = ${ALPHA}, checked after every rollout, cap ${MAX_ROLLOUTS}`)
console.log(`sequential test: ${MIXTURE_E_PROCESS_METHOD}; ${RUNS} seeded runs per rate (seed "${SEED}")`)
console.log(`fixed design: ${FIXED_ROLLOUTS} rollouts, one-sided 95% Clopper–Pearson bounds (exact)\n`)
console.log(row(COLUMNS.map(([header]) => header)))
let allMet = true
for (const [rate, target] of TARGETS) {
  const simulated = simulate(rate)
  const exact = sequentialOperatingCharacteristics({
    rate,
    bound: BOUND,
    alpha: ALPHA,
    maxRollouts: MAX_ROLLOUTS,
  })
  const fixed = fixedDesign(rate)
  const met = target === null ? exact.pBelow <= ALPHA && exact.pAbove <= ALPHA : exact.meanRollouts <= target
  allMet &&= met
  console.log(
    row([
      `${(rate * 100).toFixed(0)}%`,
      target === null ? 'α' : `≤ ${target}`,
      simulated.meanRollouts.toFixed(1),
      exact.meanRollouts.toFixed(1),
      percent(simulated.pBelow),
      percent(simulated.pAbove),
      percent(simulated.pUndecided),
      '│',
      String(FIXED_ROLLOUTS),
      percent(fixed.pBelow),
      percent(fixed.pAbove),
      met ? 'yes' : 'NO',
    ]),
  )
}
const { belowAtMost } = sequentialBoundaries(BOUND, ALPHA, MAX_ROLLOUTS)
console.log(`\nclean rollouts to pass: ${belowAtMost.indexOf(0)} (fixed-n minimum: 59, since 0.95^59 < 0.05)`)
console.log('at the bound (5%), "pass" is the error the gate must keep ≤ α, and "fail" the other error')
for (const batchSize of [10, 25]) {
  const means = TARGETS.map(
    ([rate]) =>
      sequentialOperatingCharacteristics({ rate, bound: BOUND, alpha: ALPHA, batchSize }).meanRollouts,
  )
  console.log(
    `checked every ${batchSize} rollouts (exact means): ${TARGETS.map(([rate], i) => `${rate * 100}% → ${(means[i] ?? NaN).toFixed(1)}`).join(', ')}`,
  )
}
console.log(allMet ? '\nall targets met' : '\nsome targets NOT met')
if (!allMet) process.exitCode = 1
