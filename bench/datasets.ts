/**
 * Runs a "≤ 5%" gate over a 500-case dataset spends: the dataset gate, against the one-coin gate read
 * on the same runs and against running every case once.
 *
 *   npx tsx bench/datasets.ts
 *
 * Each dataset has a mean rate p̄ over its cases of 1%, 5% (the bound) or 15%, spread three ways:
 * every case at p̄; all-or-nothing (a few cases always bad, the rest never); and spread out (rates
 * drawn as squared normals, rescaled to p̄). For each, 1000 seeded gates run the cases in rounds
 * (every case once per round, in a fresh random order), ask after every run, and stop at a decision
 * or 2000 runs (4 rounds). Printed: the dataset gate's runs to a decision (median, 90th percentile,
 * mean) and its decisions; the one-coin gate ('log-odds mixture e-process', which assumes every run
 * is a draw of one coin) read on the very same runs; and the fixed design that runs every case
 * once (500 runs) and decides by a one-sided 95% Clopper–Pearson bound on that round.
 */
import seedrandom from 'seedrandom'
import { roundOrder } from '../src/random/round-order.js'
import { clopperPearson } from '../src/stats/clopper-pearson.js'
import {
  DATASET_E_PROCESS_METHOD,
  datasetDecision,
  type RoundCounts,
} from '../src/stats/dataset-rate-test.js'
import { MIXTURE_E_PROCESS_METHOD } from '../src/stats/mixture-e-process.js'
import { sequentialBoundaries, type SequentialDecision } from '../src/stats/sequential-rate-test.js'

const CASES = 500
const BOUND = 0.05
const ALPHA = 0.05
const MAX_RUNS = 2000
const GATES = 1000
const SEED = 'datasets'

/** The goals: runs to pass at 1%, to fail at 15% (null: the bound, where errors are measured). */
const GOALS: readonly (readonly [mean: number, goal: number | null])[] = [
  [0.01, 150],
  [0.05, null],
  [0.15, 40],
]

const SPREADS = ['equal', 'all-or-nothing', 'spread'] as const
type Spread = (typeof SPREADS)[number]

/** The dataset's case rates: `CASES` of them with mean exactly `mean`. */
function caseRates(mean: number, spread: Spread): number[] {
  if (spread === 'equal') return new Array<number>(CASES).fill(mean)
  if (spread === 'all-or-nothing') {
    const bad = Math.round(mean * CASES)
    return Array.from({ length: CASES }, (_, i) => (i < bad ? 1 : 0))
  }
  const random = seedrandom.alea(`${SEED}/rates/${mean}`)
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  let rates = Array.from({ length: CASES }, () => normal() ** 2)
  // Rescale to the mean; capping at 1 takes a little off, so rescale until it settles.
  for (let pass = 0; pass < 50; pass++) {
    const total = rates.reduce((sum, rate) => sum + rate, 0)
    rates = rates.map((rate) => Math.min(1, (rate * mean * CASES) / total))
  }
  return rates
}

interface GateRun {
  readonly decision: SequentialDecision
  readonly runs: number
}

interface Outcome {
  readonly dataset: GateRun
  readonly oneCoin: GateRun
  readonly everyCaseOnce: SequentialDecision
}

const { belowAtMost, aboveAtLeast } = sequentialBoundaries(BOUND, ALPHA, MAX_RUNS)

/** One seeded gate over the dataset; the one-coin gate and the first round are read on its runs. */
function runGate(rates: readonly number[], seed: number, label: string): Outcome {
  const random = seedrandom.alea(`${SEED}/${label}/${seed}`)
  const rounds: RoundCounts[] = []
  let dataset: GateRun | undefined
  let oneCoin: GateRun | undefined
  let everyCaseOnce: SequentialDecision = 'undecided'
  let runs = 0
  let successes = 0
  for (let round = 0; runs < MAX_RUNS && (dataset === undefined || oneCoin === undefined); round++) {
    let current = { successes: 0, runs: 0 }
    rounds.push(current)
    for (const index of roundOrder(seed, round, CASES)) {
      const bad = random() < (rates[index] as number) ? 1 : 0
      current = { successes: current.successes + bad, runs: current.runs + 1 }
      rounds[round] = current
      runs++
      successes += bad
      if (oneCoin === undefined) {
        if (successes <= (belowAtMost[runs] as number)) oneCoin = { decision: 'below', runs }
        else if (successes >= (aboveAtLeast[runs] as number)) oneCoin = { decision: 'above', runs }
      }
      if (dataset === undefined) {
        const decision = datasetDecision(CASES, rounds, BOUND, ALPHA)
        if (decision !== 'undecided') dataset = { decision, runs }
      }
      if (runs === CASES) everyCaseOnce = fixedDecision(successes)
      if (runs >= MAX_RUNS || (dataset !== undefined && oneCoin !== undefined && runs >= CASES)) break
    }
  }
  return {
    dataset: dataset ?? { decision: 'undecided', runs: MAX_RUNS },
    oneCoin: oneCoin ?? { decision: 'undecided', runs: MAX_RUNS },
    everyCaseOnce,
  }
}

/** Every case once: pass if the one-sided 95% upper bound is ≤ the bound, fail if the lower is ≥ it. */
function fixedDecision(successes: number): SequentialDecision {
  const interval = clopperPearson(successes, CASES, 1 - 2 * ALPHA)
  return interval.high <= BOUND ? 'below' : interval.low >= BOUND ? 'above' : 'undecided'
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`
const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number

/** Median / 90th percentile / mean of the runs to a decision, and the share of each decision. */
function summary(gates: readonly GateRun[]): string[] {
  const runs = gates.map((gate) => gate.runs).sort((a, b) => a - b)
  const share = (decision: SequentialDecision) =>
    percent(gates.filter((gate) => gate.decision === decision).length / gates.length)
  return [
    String(quantile(runs, 0.5)),
    String(quantile(runs, 0.9)),
    (runs.reduce((a, b) => a + b, 0) / runs.length).toFixed(1),
    share('below'),
    share('above'),
  ]
}

const COLUMNS = [
  ['p̄', 3],
  ['cases', 14],
  ['goal', 5],
  ['median', 6],
  ['p90', 5],
  ['mean', 6],
  ['pass', 6],
  ['fail', 6],
  ['│', 1],
  ['median', 6],
  ['p90', 5],
  ['mean', 6],
  ['pass', 6],
  ['fail', 6],
  ['│', 1],
  ['pass', 6],
  ['fail', 6],
] as const
const row = (cells: readonly string[]) =>
  cells.map((cell, i) => cell.padStart(COLUMNS[i]?.[1] ?? 0)).join('  ')

console.log(
  `"≤ ${BOUND * 100}%" gate over ${CASES} cases, α = ${ALPHA}, asked after every run, cap ${MAX_RUNS}`,
)
console.log(`${GATES} seeded gates per dataset (seed "${SEED}"); runs in rounds, every case once per round`)
console.log(`dataset gate: ${DATASET_E_PROCESS_METHOD}`)
console.log(`one coin: ${MIXTURE_E_PROCESS_METHOD}, read on the same runs (assumes one coin, not a dataset)`)
console.log(`every case once: ${CASES} runs, one-sided 95% Clopper–Pearson bounds\n`)
console.log(
  row(['', '', '', 'dataset gate', '', '', '', '', '│', 'one coin', '', '', '', '', '│', 'each once']),
)
console.log(row(COLUMNS.map(([header]) => header)))
const goalLines: string[] = []
for (const [mean, goal] of GOALS) {
  for (const spread of SPREADS) {
    const rates = caseRates(mean, spread)
    const outcomes = Array.from({ length: GATES }, (_, seed) => runGate(rates, seed, `${mean}/${spread}`))
    const dataset = outcomes.map((outcome) => outcome.dataset)
    const fixedShare = (decision: SequentialDecision) =>
      percent(outcomes.filter((outcome) => outcome.everyCaseOnce === decision).length / GATES)
    console.log(
      row([
        `${mean * 100}%`,
        spread,
        goal === null ? 'α' : `≤ ${goal}`,
        ...summary(dataset),
        '│',
        ...summary(outcomes.map((outcome) => outcome.oneCoin)),
        '│',
        fixedShare('below'),
        fixedShare('above'),
      ]),
    )
    if (goal !== null) {
      const runs = dataset.map((gate) => gate.runs).sort((a, b) => a - b)
      goalLines.push(
        `${mean * 100}% ${spread}: median ${quantile(runs, 0.5) <= goal ? 'meets' : 'misses'} ≤ ${goal}, 90th percentile ${quantile(runs, 0.9) <= goal ? 'meets' : 'misses'} it`,
      )
    }
  }
}
console.log(
  '\nat the bound (5%), "pass" is the wrong pass the gate must keep ≤ α, and "fail" the other error',
)
console.log('goals (runs of the dataset gate):')
for (const line of goalLines) console.log(`  ${line}`)
