/**
 * What the defaults of a "≤ 5%" rate gate at 95% buy, exactly: for each true rate, the chance that
 * it passes, fails or ends inconclusive at `maxRollouts` 400, and the mean rollouts it spends, by
 * dynamic programming over the test's boundaries (`sequentialOperatingCharacteristics`; no
 * simulation, so no noise). Prints a Markdown table; asserts nothing. bench/gate-rollouts.ts checks
 * these values against a seeded simulation and a fixed-n design.
 *
 *   npx tsx bench/gate-characteristics.ts
 */
import { sequentialOperatingCharacteristics } from '../src/stats/operating-characteristics.js'

const BOUND = 0.05
const ALPHA = 0.05
const MAX_ROLLOUTS = 400
const RATES = [0, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.6]

const percent = (probability: number) => `${(100 * probability).toFixed(1)}%`

console.log(
  `"≤ ${BOUND * 100}%" gate, α = ${ALPHA}, maxRollouts ${MAX_ROLLOUTS}, checked after every rollout (exact)`,
)
console.log('| true rate | pass | fail | inconclusive | mean rollouts |')
console.log('|---|---|---|---|---|')
for (const rate of RATES) {
  const { pBelow, pAbove, pUndecided, meanRollouts } = sequentialOperatingCharacteristics({
    rate,
    bound: BOUND,
    alpha: ALPHA,
    maxRollouts: MAX_ROLLOUTS,
  })
  console.log(
    `| ${percent(rate).replace('.0%', '%')} | ${percent(pBelow)} | ${percent(pAbove)} | ${percent(pUndecided)} | ${meanRollouts.toFixed(0)} |`,
  )
}
