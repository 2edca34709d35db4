/**
 * What `toMatchRateBaseline` catches at its default 100 rollouts and 95% confidence, exactly (every
 * table of stored and new outcomes weighed by its probability, no simulation noise).
 *
 *   npx tsx bench/baseline-power.ts
 *
 * A new run on the stored seed is compared with the stored one rollout by rollout (Tango's paired
 * interval, continuity correction of one pair): "now". "Before" is the rule it replaced, the
 * continuity-corrected Newcombe interval of two independent rates.
 *
 * 1. An agent with randomness of its own (an unseeded hosted model): the two runs are independent
 *    whatever the seed. False failures of an unchanged agent, and the regression caught 80% of the
 *    time. (A seeded agent whose randomness all flows through its steps reproduces its stored run
 *    and always passes when unchanged.)
 * 2. A changed seeded agent: the runs share rollout r's numbers, so the change decides how the two
 *    outcomes of a rollout are coupled. Wrong passes at a regression of exactly the tolerance, from
 *    countermonotone (the change reads the shared draw the other way) to comonotone.
 */
import { compareWithBaseline, comparePairedWithBaseline } from '../src/verdict/baseline-comparison.js'

const ROLLOUTS = 100
const CONFIDENCE = 0.95
const BASE_RATES = [0.05, 0.1, 0.23, 0.5]
const TOLERANCES = [0, 0.05, 0.1, 0.15]
const REGRESSIONS = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3]

const logFactorial = [0]
for (let i = 1; i <= ROLLOUTS; i++) logFactorial.push((logFactorial[i - 1] as number) + Math.log(i))
const f = (i: number) => logFactorial[i] as number
const term = (k: number, p: number) => (k === 0 ? 0 : p <= 0 ? -Infinity : k * Math.log(p))

/**
 * The law of one rollout's pair, lower being better: `both` bad in both runs, `newOnly` bad in the
 * new run only, `storedOnly` in the stored run only.
 */
interface PairLaw {
  both: number
  newOnly: number
  storedOnly: number
}

function independent(stored: number, current: number): PairLaw {
  return { both: stored * current, newOnly: current * (1 - stored), storedOnly: stored * (1 - current) }
}

/** `steps + 1` couplings of these marginals, from countermonotone to comonotone. */
function couplings(stored: number, current: number, steps: number): PairLaw[] {
  const least = Math.max(0, stored + current - 1)
  const most = Math.min(stored, current)
  return Array.from({ length: steps + 1 }, (_, i) => {
    const both = least + ((most - least) * i) / steps
    return { both, newOnly: current - both, storedOnly: stored - both }
  })
}

/** Whether the rule fails a table: `both`, `newOnly`, `storedOnly` counts of the four kinds of pair. */
type Rule = (both: number, newOnly: number, storedOnly: number, tolerance: number) => boolean

const failsNow: Rule = (both, newOnly, storedOnly, tolerance) => {
  const neither = ROLLOUTS - both - newOnly - storedOnly
  const current = '1'.repeat(both + newOnly) + '0'.repeat(storedOnly + neither)
  const stored = '1'.repeat(both) + '0'.repeat(newOnly) + '1'.repeat(storedOnly) + '0'.repeat(neither)
  return (
    comparePairedWithBaseline(current, stored, { tolerance, better: 'lower', confidence: CONFIDENCE })
      .finding !== 'within'
  )
}
const failedBefore: Rule = (both, newOnly, storedOnly, tolerance) =>
  compareWithBaseline(
    { successes: both + newOnly, n: ROLLOUTS },
    { successes: both + storedOnly, n: ROLLOUTS },
    { tolerance, better: 'lower', confidence: CONFIDENCE },
  ).finding !== 'within'

/** P(the rule fails) under a pair law: every table of ROLLOUTS pairs by its multinomial probability. */
function failRate(rule: Rule, law: PairLaw, tolerance: number): number {
  const neitherP = 1 - law.both - law.newOnly - law.storedOnly
  let fail = 0
  for (let both = 0; both <= ROLLOUTS; both++) {
    for (let newOnly = 0; newOnly <= ROLLOUTS - both; newOnly++) {
      for (let storedOnly = 0; storedOnly <= ROLLOUTS - both - newOnly; storedOnly++) {
        const neither = ROLLOUTS - both - newOnly - storedOnly
        const p = Math.exp(
          f(ROLLOUTS) -
            f(both) -
            f(newOnly) -
            f(storedOnly) -
            f(neither) +
            term(both, law.both) +
            term(newOnly, law.newOnly) +
            term(storedOnly, law.storedOnly) +
            term(neither, neitherP),
        )
        if (p < 1e-13) continue
        if (rule(both, newOnly, storedOnly, tolerance)) fail += p
      }
    }
  }
  return fail
}

/** The smallest regression (in whole points) the gate fails at least 80% of the time, independent runs. */
function caught80(rule: Rule, stored: number, tolerance: number): number | null {
  for (let points = 0; stored + points / 100 <= 1; points++) {
    if (failRate(rule, independent(stored, stored + points / 100), tolerance) >= 0.8) return points / 100
  }
  return null
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`
const pts = (value: number | null) => (value === null ? 'never' : `+${Math.round(value * 100)} pts`)

console.log(
  `toMatchRateBaseline at ${ROLLOUTS} rollouts, ${CONFIDENCE * 100}% confidence; now: paired by rollout (Tango, continuity correction 1 pair); before: Newcombe, continuity-corrected\n`,
)
console.log('1. Independent runs (an unseeded agent)\n')
console.log('| base rate | tolerance | false fail, unchanged (now / before) | caught 80% (now / before) |')
console.log('|---|---|---|---|')
for (const base of BASE_RATES) {
  for (const tolerance of TOLERANCES) {
    const unchanged = independent(base, base)
    console.log(
      `| ${pct(base)} | ${pct(tolerance)} | ${pct(failRate(failsNow, unchanged, tolerance))} / ${pct(failRate(failedBefore, unchanged, tolerance))} | ${pts(caught80(failsNow, base, tolerance))} / ${pts(caught80(failedBefore, base, tolerance))} |`,
    )
  }
}

console.log('\nP(fail) by regression at tolerance 0.05, independent runs (now / before)\n')
console.log(`| base rate | ${REGRESSIONS.map((r) => `+${Math.round(r * 100)} pts`).join(' | ')} |`)
console.log(`|---|${REGRESSIONS.map(() => '---').join('|')}|`)
for (const base of BASE_RATES) {
  const cells = REGRESSIONS.map((regression) => {
    const law = independent(base, Math.min(1, base + regression))
    return `${pct(failRate(failsNow, law, 0.05))} / ${pct(failRate(failedBefore, law, 0.05))}`
  })
  console.log(`| ${pct(base)} | ${cells.join(' | ')} |`)
}

console.log(
  '\n2. Wrong passes at a regression of exactly the tolerance, by coupling of the two runs (now / before)\n',
)
console.log('| base rate | tolerance | countermonotone | independent | comonotone | worst of 11 couplings |')
console.log('|---|---|---|---|---|---|')
for (const base of BASE_RATES) {
  for (const tolerance of [0.05, 0.1]) {
    const laws = couplings(base, base + tolerance, 10)
    const cell = (law: PairLaw) =>
      `${pct(1 - failRate(failsNow, law, tolerance))} / ${pct(1 - failRate(failedBefore, law, tolerance))}`
    const worst = (rule: Rule) => Math.max(...laws.map((law) => 1 - failRate(rule, law, tolerance)))
    console.log(
      `| ${pct(base)} | ${pct(tolerance)} | ${cell(laws[0] as PairLaw)} | ${cell(independent(base, base + tolerance))} | ${cell(laws[10] as PairLaw)} | ${pct(worst(failsNow))} / ${pct(worst(failedBefore))} |`,
    )
  }
}
