/**
 * Shapley benchmark. Prints figures measured side by side in one run; asserts nothing.
 *
 *   npx tsx bench/shapley.ts
 *
 * Seeded simulations of the two estimators on binary-step models with exact values by enumeration
 * (test/scm/shapley-models.ts, and the README's pivotal and AND SCMs). Each run is drawn the way the
 * engine draws it (the coverage tests check the simulation against the engine), so thousands of
 * runs take seconds.
 *
 * (a) Permutation Shapley at the defaults (32 antithetic units of 1 sample): coverage and mean
 *     half-width of the candidate 95% intervals for a value, over the same units: plain Student t,
 *     with Tango over the step's rollout pairs where every unit agrees (the interval before), t with ¼ or ½ pseudo-unit at each end of [−1, 1] (`boundedMeanT`; ¼ is
 *     the default), t with a variance floor of 1/n, bootstrap-t (499 resamples; ∞ where a resample
 *     has no spread) and the empirical-Bernstein bound (Maurer & Pontil 2009). Then the efficiency
 *     sum: Tango over the rollout pairs (before) against `boundedMeanT` over the units (after).
 * (b) Exact Shapley, adaptive allocation against fixed ones at the default ±0.05 target: rollouts of
 *     the adaptive run (which stops once every value's half-width is at most 0.05), of the fixed
 *     worst-case sizing (214 per coalition at 3 steps: what `samplesPerEval` gives without knowing the
 *     model) with the half-width it actually reaches, and of the smallest fixed allocation that reaches
 *     ±0.05 in 95% of runs (equal precision, sized in hindsight for the model). The saving at equal
 *     precision is the ratio of the last to the first.
 * (c) The most any allocation could save with these intervals, on the README's 3-step models: with
 *     the true coalition values as the estimates, the fewest rollouts whose MOVER–Wilson intervals
 *     are all within ±0.05, by grid search over rollouts per group of coalitions of equal value,
 *     against the fewest with the same rollouts for every coalition.
 */
import { performance } from 'node:perf_hooks'
import seedrandom from 'seedrandom'
import {
  EXACT_PILOT_ROLLOUTS,
  exactValueInterval,
  nextAllocation,
  shapleyCoefficients,
  worstHalfWidth,
  type CoalitionCount,
} from '../src/attribute/shapley/shapley-allocation.js'
import { exactSamplesPerEval } from '../src/attribute/shapley/shapley-weights.js'
import { boundedMeanT, studentTMean, tango, wilson } from '../src/stats/index.js'
import { twoSidedT } from '../src/stats/student-t.js'
import {
  coalitionValues,
  exactShapleyValues,
  SHAPLEY_MODELS,
  simulatePermutationUnits,
  type PairTable,
  type StepModel,
} from '../test/scm/shapley-models.js'

const PERMUTATION_RUNS = 2000
const UNITS = 32
const ALLOCATION_RUNS = 1000
const HALF_WIDTH = 0.05

interface Bounds {
  readonly low: number
  readonly high: number
}

// ---------------------------------------------------------------------------------------------
// (a) candidate intervals for a permutation value

/** The interval before: plain t, and Tango over the step's rollout pairs where every unit agrees. */
function plainT(values: readonly number[], pairs: PairTable): Bounds {
  const t = studentTMean(values, 0.95)
  if (t.high > t.low) return t
  const paired = tango(pairs, 0.95)
  return { low: Math.min(paired.low, t.point), high: Math.max(paired.high, t.point) }
}

function varianceFloor(values: readonly number[]): Bounds {
  const n = values.length
  const point = values.reduce((sum, value) => sum + value, 0) / n
  const variance = values.reduce((sum, value) => sum + (value - point) ** 2, 0) / (n - 1)
  const half = twoSidedT(0.95, n - 1) * Math.sqrt(Math.max(variance, 1 / n) / n)
  return { low: point - half, high: point + half }
}

/** Bootstrap-t (Efron & Tibshirani 1993, §12.5), seeded; a resample with no spread gives ±∞. */
function bootstrapT(values: readonly number[], random: () => number): Bounds {
  const n = values.length
  const resamples = 499
  const point = values.reduce((sum, value) => sum + value, 0) / n
  const sd = Math.sqrt(values.reduce((sum, value) => sum + (value - point) ** 2, 0) / (n - 1))
  if (sd === 0) return { low: point, high: point }
  const statistics: number[] = []
  for (let b = 0; b < resamples; b++) {
    let sum = 0
    let squares = 0
    for (let i = 0; i < n; i++) {
      const value = values[Math.floor(random() * n)] as number
      sum += value
      squares += value * value
    }
    const mean = sum / n
    const spread = Math.sqrt(Math.max(0, (squares - n * mean * mean) / (n - 1)))
    statistics.push(
      spread > 0 ? (mean - point) / (spread / Math.sqrt(n)) : mean === point ? 0 : Infinity * (mean - point),
    )
  }
  statistics.sort((a, b) => a - b)
  const lower = statistics[Math.floor(0.025 * (resamples + 1)) - 1] as number
  const upper = statistics[Math.ceil(0.975 * (resamples + 1)) - 1] as number
  return { low: point - (upper * sd) / Math.sqrt(n), high: point - (lower * sd) / Math.sqrt(n) }
}

/** Maurer & Pontil (2009), Theorem 4, each side at α/2, for values in a range of width 2. */
function empiricalBernstein(values: readonly number[]): Bounds {
  const n = values.length
  const point = values.reduce((sum, value) => sum + value, 0) / n
  const variance = values.reduce((sum, value) => sum + (value - point) ** 2, 0) / (n - 1)
  const log = Math.log(2 / 0.025)
  const half = Math.sqrt((2 * variance * log) / n) + (7 * 2 * log) / (3 * (n - 1))
  return { low: point - half, high: point + half }
}

type Candidate = (values: readonly number[], random: () => number, pairs: PairTable) => Bounds

const CANDIDATES: ReadonlyArray<readonly [string, Candidate]> = [
  ['plain t, Tango if all agree (before)', (values, _random, pairs) => plainT(values, pairs)],
  ['t + ¼ pseudo-unit at ±1 (after)', (values) => boundedMeanT(values)],
  ['t + ½ pseudo-unit at ±1', (values) => boundedMeanT(values, { pseudoWeight: 0.5 })],
  ['t, variance floor 1/n', varianceFloor],
  ['bootstrap-t (499)', bootstrapT],
  ['empirical Bernstein', empiricalBernstein],
]

function covers(bounds: Bounds, truth: number): boolean {
  return bounds.low <= truth + 1e-12 && truth - 1e-12 <= bounds.high
}

function percent(value: number): string {
  return `${(100 * value).toFixed(1)}%`
}

function halfWidth(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : '∞'
}

function permutationIntervals(): void {
  console.log(
    `(a) permutation Shapley, ${UNITS} antithetic units × 1 sample: coverage of 95% intervals (lowest step, Wilson 95% CI over ${PERMUTATION_RUNS} runs) and mean half-width (over steps and runs)`,
  )
  for (const [modelIndex, model] of SHAPLEY_MODELS.entries()) {
    const truths = exactShapleyValues(model)
    const values = coalitionValues(model)
    const sumTruth = (values[values.length - 1] as number) - (values[0] as number)
    const random = seedrandom.alea(`bench/shapley/permutation/${modelIndex}`)
    const resampling = seedrandom.alea(`bench/shapley/bootstrap/${modelIndex}`)
    const covered = CANDIDATES.map(() => truths.map(() => 0))
    const widths = CANDIDATES.map(() => 0)
    const sum = { before: 0, after: 0, beforeWidth: 0, afterWidth: 0 }
    for (let run = 0; run < PERMUTATION_RUNS; run++) {
      const units = simulatePermutationUnits(model, UNITS, random)
      CANDIDATES.forEach(([, interval], candidate) => {
        units.unitValues.forEach((sample, step) => {
          const bounds = interval(sample, resampling, units.stepPairs[step] as PairTable)
          const counts = covered[candidate] as number[]
          if (covers(bounds, truths[step] as number)) counts[step] = (counts[step] as number) + 1
          widths[candidate] = (widths[candidate] as number) + (bounds.high - bounds.low) / 2
        })
      })
      const before = tango(units.endPairs, 0.95)
      const after = boundedMeanT(units.endValues)
      if (covers(before, sumTruth)) sum.before++
      if (covers(after, sumTruth)) sum.after++
      sum.beforeWidth += (before.high - before.low) / 2
      sum.afterWidth += (after.high - after.low) / 2
    }
    console.log(`    ${model.name}: values ${truths.map((truth) => truth.toFixed(3)).join(', ')}`)
    CANDIDATES.forEach(([name], candidate) => {
      const counts = covered[candidate] as number[]
      const lowest = Math.min(...counts)
      const ci = wilson(lowest, PERMUTATION_RUNS)
      console.log(
        `      ${name.padEnd(37)} lowest ${percent(lowest / PERMUTATION_RUNS)} [${percent(ci.low)}, ${percent(ci.high)}] (steps ${counts.map((count) => percent(count / PERMUTATION_RUNS)).join(', ')}), half-width ${halfWidth((widths[candidate] as number) / (PERMUTATION_RUNS * model.steps))}`,
      )
    })
    const beforeCi = wilson(sum.before, PERMUTATION_RUNS)
    const afterCi = wilson(sum.after, PERMUTATION_RUNS)
    console.log(
      `      efficiency sum ${sumTruth.toFixed(3)}: Tango over rollout pairs (before) ${percent(sum.before / PERMUTATION_RUNS)} [${percent(beforeCi.low)}, ${percent(beforeCi.high)}], ±${(sum.beforeWidth / PERMUTATION_RUNS).toFixed(3)}; t + ¼ pseudo-unit over the units (after) ${percent(sum.after / PERMUTATION_RUNS)} [${percent(afterCi.low)}, ${percent(afterCi.high)}], ±${(sum.afterWidth / PERMUTATION_RUNS).toFixed(3)}`,
    )
  }
}

// ---------------------------------------------------------------------------------------------
// (b) exact Shapley: adaptive against fixed allocations at equal precision

/** The README's pivotal SCM (p = 0.3) and AND SCM (q = 0.3), as step models. */
const README_MODELS: readonly StepModel[] = [
  {
    name: 'pivotal SCM (p = 0.3)',
    steps: 3,
    factual: [0, 1, 0],
    badProbability: (step) => (step === 1 ? 0.3 : 0.5),
    isBad: (actions) => actions[1] === 1,
  },
  {
    name: 'AND SCM (q = 0.3)',
    steps: 3,
    factual: [1, 1, 0],
    badProbability: (step) => (step === 2 ? 0.5 : 0.3),
    isBad: (actions) => actions[0] === 1 && actions[1] === 1,
  },
]

interface AllocationRun {
  readonly rollouts: number
  readonly worst: number
  readonly covered: number
}

function allocationRun(
  model: StepModel,
  truths: readonly number[],
  values: readonly number[],
  random: () => number,
  perCoalition: number | 'adaptive',
): AllocationRun {
  const players = model.steps
  const coefficients = shapleyCoefficients(players)
  const maxPerCoalition = exactSamplesPerEval(players, 0.95)
  const counts: Array<{ bad: number; n: number }> = values.map(() => ({ bad: 0, n: 0 }))
  const draw = (mask: number, to: number) => {
    const count = counts[mask] as { bad: number; n: number }
    for (; count.n < to; count.n++) if (random() < (values[mask] as number)) count.bad++
  }
  if (perCoalition === 'adaptive') {
    const settings = { players, confidence: 0.95, maxPerCoalition }
    counts.forEach((_, mask) => draw(mask, EXACT_PILOT_ROLLOUTS))
    for (let next = nextAllocation(counts, settings, coefficients); next !== null;) {
      next.forEach((target, mask) => draw(mask, target))
      next = nextAllocation(counts, settings, coefficients)
    }
  } else {
    counts.forEach((_, mask) => draw(mask, perCoalition))
  }
  const estimates: CoalitionCount[] = counts
  let covered = 0
  coefficients.forEach((row, player) => {
    const value = exactValueInterval(row, estimates, 0.95)
    if (covers(value, truths[player] as number)) covered++
  })
  return {
    rollouts: counts.reduce((sum, count) => sum + count.n, 0),
    worst: worstHalfWidth(estimates, coefficients, 0.95),
    covered,
  }
}

function summarize(runs: readonly AllocationRun[], players: number) {
  const rollouts = runs.reduce((sum, run) => sum + run.rollouts, 0) / runs.length
  const worst = runs.reduce((sum, run) => sum + run.worst, 0) / runs.length
  const reached = runs.filter((run) => run.worst <= HALF_WIDTH).length / runs.length
  const coverage = runs.reduce((sum, run) => sum + run.covered, 0) / (runs.length * players)
  return { rollouts, worst, reached, coverage }
}

function allocationAtEqualPrecision(): void {
  console.log(
    `(b) exact Shapley at ±${HALF_WIDTH}: the adaptive allocation against fixed ones (${ALLOCATION_RUNS} seeded runs each; coverage over every value)`,
  )
  for (const [modelIndex, model] of [...README_MODELS, ...SHAPLEY_MODELS].entries()) {
    const truths = exactShapleyValues(model)
    const values = coalitionValues(model)
    const coalitions = values.length
    const runAll = (perCoalition: number | 'adaptive', label: string) => {
      const random = seedrandom.alea(`bench/shapley/allocation/${modelIndex}/${label}`)
      return summarize(
        Array.from({ length: ALLOCATION_RUNS }, () =>
          allocationRun(model, truths, values, random, perCoalition),
        ),
        model.steps,
      )
    }
    const adaptive = runAll('adaptive', 'adaptive')
    const worstCase = exactSamplesPerEval(model.steps, 0.95)
    const sized = runAll(worstCase, 'worst-case')
    // The smallest fixed allocation that reaches ±0.05 in 95% of runs, by bisection on rollouts per
    // coalition (reaching it is monotone in the allocation up to Monte Carlo noise).
    let low = 1
    let high = worstCase
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2)
      if (runAll(middle, `fixed-${middle}`).reached >= 0.95) high = middle
      else low = middle
    }
    const equal = runAll(high, `fixed-${high}`)
    console.log(`    ${model.name} (${coalitions} coalitions)`)
    console.log(
      `      adaptive (default):              ${adaptive.rollouts.toFixed(0).padStart(5)} rollouts, worst half-width ±${adaptive.worst.toFixed(3)} (≤ ±${HALF_WIDTH} in ${percent(adaptive.reached)} of runs), coverage ${percent(adaptive.coverage)}`,
    )
    console.log(
      `      fixed ${String(worstCase).padStart(3)}/coalition (worst case): ${sized.rollouts.toFixed(0).padStart(5)} rollouts, worst half-width ±${sized.worst.toFixed(3)}, coverage ${percent(sized.coverage)}: ${(sized.rollouts / adaptive.rollouts).toFixed(2)}× the adaptive run's rollouts, at a finer precision`,
    )
    console.log(
      `      fixed ${String(high).padStart(3)}/coalition (±${HALF_WIDTH} in 95%):  ${equal.rollouts.toFixed(0).padStart(5)} rollouts, worst half-width ±${equal.worst.toFixed(3)} (≤ ±${HALF_WIDTH} in ${percent(equal.reached)}), coverage ${percent(equal.coverage)}: ${(equal.rollouts / adaptive.rollouts).toFixed(2)}× the adaptive run's rollouts at equal precision`,
    )
  }
}

// ---------------------------------------------------------------------------------------------
// (c) the best allocation for MOVER–Wilson, coalition values known

function meetsTarget(values: readonly number[], perCoalition: (mask: number) => number): boolean {
  const estimates = values.map((value, mask) => {
    const n = perCoalition(mask)
    return { bad: Math.round(value * n), n }
  })
  return worstHalfWidth(estimates, shapleyCoefficients(3), 0.95) <= HALF_WIDTH
}

function bestAllocation(): void {
  console.log(
    `(c) the fewest rollouts whose MOVER–Wilson intervals are all within ±${HALF_WIDTH}, with the true coalition values as the estimates`,
  )
  for (const [modelIndex, model] of README_MODELS.entries()) {
    const values = coalitionValues(model)
    // Coalitions of equal value get equal rollouts: the pivotal SCM has 2 groups, the AND SCM 3.
    const distinct = [...new Set(values)]
    const group = (mask: number) => distinct.indexOf(values[mask] as number)
    const sizes = distinct.map(() => 0)
    let best = { total: Infinity, sizes: [] as number[] }
    const search = (index: number): void => {
      if (index === distinct.length) {
        const total = values.reduce((sum, _, mask) => sum + (sizes[group(mask)] as number), 0)
        if (total < best.total && meetsTarget(values, (mask) => sizes[group(mask)] as number))
          best = { total, sizes: [...sizes] }
        return
      }
      for (let n = 10; n <= 250; n += 2) {
        sizes[index] = n
        search(index + 1)
      }
    }
    search(0)
    let uniform = 1
    while (!meetsTarget(values, () => uniform)) uniform++
    const byGroup = distinct
      .map((value, index) => `${best.sizes[index]} at v = ${value.toFixed(2)}`)
      .join(', ')
    console.log(
      `    ${README_MODELS[modelIndex]?.name}: best ${best.total} rollouts (${byGroup}), uniform ${uniform * values.length} (${uniform} each): at most ${((uniform * values.length) / best.total).toFixed(2)}× from allocation alone`,
    )
  }
}

const start = performance.now()
permutationIntervals()
console.log()
allocationAtEqualPrecision()
console.log()
bestAllocation()
console.log(`\ntotal ${((performance.now() - start) / 1000).toFixed(1)} s`)
