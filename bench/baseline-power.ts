/**
 * What `toMatchRateBaseline` catches at its default 100 rollouts and 95% confidence, exactly (every
 * pair of stored and new counts weighed by its binomial probability, no simulation noise).
 *
 *   npx tsx bench/baseline-power.ts
 *
 * The stored and the new run are independent samples: an agent with randomness of its own (an
 * unseeded hosted model). An agent whose randomness all flows through its steps' streams reproduces
 * its stored run with the stored seed and always passes when unchanged (false-fail rate 0).
 * Side by side: the gate now (pass only when the one-sided 95% continuity-corrected Newcombe bound
 * of new − stored lies within the tolerance) and before (fail only when the two-sided 95% Newcombe interval lay entirely
 * beyond the tolerance).
 */
import { newcombe } from '../src/stats/newcombe.js'
import { compareWithBaseline } from '../src/verdict/baseline-comparison.js'

const ROLLOUTS = 100
const CONFIDENCE = 0.95
const BASE_RATES = [0.05, 0.1, 0.23, 0.5]
const TOLERANCES = [0, 0.05, 0.1, 0.15]
const REGRESSIONS = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3]

const logFactorial = [0]
for (let i = 1; i <= ROLLOUTS; i++) logFactorial.push((logFactorial[i - 1] as number) + Math.log(i))
function binomial(k: number, p: number): number {
  if (p <= 0) return k === 0 ? 1 : 0
  if (p >= 1) return k === ROLLOUTS ? 1 : 0
  const f = (i: number) => logFactorial[i] as number
  return Math.exp(f(ROLLOUTS) - f(k) - f(ROLLOUTS - k) + k * Math.log(p) + (ROLLOUTS - k) * Math.log1p(-p))
}

type Rule = (current: number, stored: number, tolerance: number) => boolean

const failsNow: Rule = (current, stored, tolerance) =>
  compareWithBaseline(
    { successes: current, n: ROLLOUTS },
    { successes: stored, n: ROLLOUTS },
    { tolerance, better: 'lower', confidence: CONFIDENCE },
  ).finding !== 'within'
const failedBefore: Rule = (current, stored, tolerance) =>
  newcombe(current, ROLLOUTS, stored, ROLLOUTS, CONFIDENCE).low > tolerance

/** P(the gate fails) with a stored rate `stored` and a new rate `current`. */
function failRate(rule: Rule, stored: number, current: number, tolerance: number): number {
  let fail = 0
  for (let s = 0; s <= ROLLOUTS; s++) {
    const ps = binomial(s, stored)
    if (ps < 1e-12) continue
    for (let c = 0; c <= ROLLOUTS; c++) {
      const pc = binomial(c, current)
      if (pc < 1e-12) continue
      if (rule(c, s, tolerance)) fail += ps * pc
    }
  }
  return fail
}

/** The smallest regression (in whole points) the gate fails at least 80% of the time. */
function caught80(rule: Rule, stored: number, tolerance: number): number | null {
  for (let points = 0; stored + points / 100 <= 1; points++) {
    if (failRate(rule, stored, stored + points / 100, tolerance) >= 0.8) return points / 100
  }
  return null
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`
const pts = (value: number | null) => (value === null ? 'never' : `+${Math.round(value * 100)} pts`)

console.log(
  `toMatchRateBaseline at ${ROLLOUTS} rollouts, ${CONFIDENCE * 100}% confidence; independent runs (unseeded agent)\n`,
)
console.log('| base rate | tolerance | false fail, unchanged (now / before) | caught 80% (now / before) |')
console.log('|---|---|---|---|')
for (const base of BASE_RATES) {
  for (const tolerance of TOLERANCES) {
    const now = failRate(failsNow, base, base, tolerance)
    const before = failRate(failedBefore, base, base, tolerance)
    console.log(
      `| ${pct(base)} | ${pct(tolerance)} | ${pct(now)} / ${pct(before)} | ${pts(caught80(failsNow, base, tolerance))} / ${pts(caught80(failedBefore, base, tolerance))} |`,
    )
  }
}

console.log('\nP(fail) by regression at tolerance 0.05 (now / before)\n')
console.log(`| base rate | ${REGRESSIONS.map((r) => `+${Math.round(r * 100)} pts`).join(' | ')} |`)
console.log(`|---|${REGRESSIONS.map(() => '---').join('|')}|`)
for (const base of BASE_RATES) {
  const cells = REGRESSIONS.map((regression) => {
    const current = Math.min(1, base + regression)
    return `${pct(failRate(failsNow, base, current, 0.05))} / ${pct(failRate(failedBefore, base, current, 0.05))}`
  })
  console.log(`| ${pct(base)} | ${cells.join(' | ')} |`)
}
