/**
 * Judge-corrected rate gate benchmark, computed exactly (no sampling). Prints, side by side, how
 * often the rate gate passes a claim that is false (the true rate sits exactly at the bound) when the
 * predicate is an imperfect LLM judge: uncorrected (the gate tests the judge's apparent rate), the
 * corrected gate (Rogan–Gladen, decided by the weighted test of `judgeCorrectedFrontier`), and the
 * union bound it replaced (bench/union-bound-judge-gate.ts). Then the power of the corrected gates on
 * a clearly true claim and the rollouts they need to pass, and the worst wrong pass on the judges of
 * an outside audit.
 *
 *   npx tsx bench/judge-correction.ts
 *
 * Every figure is exact: a sum over the calibration counts a labelled set of the stated sizes gives
 * the judge (Binomial(positives, Se) and Binomial(negatives, Sp)), and, for each, the gate's stopping
 * rule after every rollout up to `maxRollouts`, walked as a distribution over (judge-yes, rollouts).
 * Calibrations less likely than 1e-7 are left out and their mass counted as wrong passes, so a wrong
 * pass is an upper bound by at most that mass. The decisions are the gates' own functions. The judge
 * models of the first two tables were not used to choose either method or its α split.
 */
import { fileURLToPath } from 'node:url'
import { mixtureLogEValues } from '../src/stats/mixture-e-process.js'
import type { SequentialDecision } from '../src/stats/sequential-rate-test.js'
import type { JudgeCalibration } from '../src/trajectory/judge-calibration.js'
import { correctedDecision, judgeCorrectionPlan } from '../src/verdict/judge-correction.js'
import { unionBoundDecider } from './union-bound-judge-gate.js'

/** One judge model: the claim, the true rate, the judge's error rates and the calibration's sizes. */
export interface JudgeModel {
  readonly name: string
  /** `rarely`: the rate must be at most `bound`; `usually`: at least. */
  readonly claim: 'rarely' | 'usually'
  readonly bound: number
  /** The true rate of the rubric holding. */
  readonly rate: number
  readonly sensitivity: number
  readonly specificity: number
  /** Labelled runs where the rubric holds / does not. */
  readonly positives: number
  readonly negatives: number
}

/** The decision rule of one gate, given the calibration it was handed. */
export type JudgeGate = (calibration: JudgeCalibration, bound: number, alpha: number) => Decide
type Decide = (successes: number, n: number) => SequentialDecision

/** The corrected gate, as the library runs it. */
export const CORRECTED: JudgeGate = (calibration, bound, alpha) => {
  const plan = judgeCorrectionPlan(calibration, bound, alpha)
  return (successes, n) => correctedDecision(successes, n, plan)
}

/** The union bound the corrected gate replaced. */
export const UNION_BOUND: JudgeGate = unionBoundDecider

/** The gate on the judge's answers as they are: the plain sequential test at the bound. */
export const UNCORRECTED: JudgeGate = (_calibration, bound, alpha) => (successes, n) => {
  if (n === 0) return 'undecided'
  const logE = mixtureLogEValues(successes, n, bound)
  const threshold = Math.log(1 / alpha)
  return logE.below >= threshold ? 'below' : logE.above >= threshold ? 'above' : 'undecided'
}

/** Where the true rate sits at the bound: a pass is a wrong pass. */
export const NULL_MODELS: readonly JudgeModel[] = [
  {
    name: 'rarely ≤ 20%, Se 0.8 / Sp 0.97, 50+100 labels',
    claim: 'rarely',
    bound: 0.2,
    rate: 0.2,
    sensitivity: 0.8,
    specificity: 0.97,
    positives: 50,
    negatives: 100,
  },
  {
    name: 'usually ≥ 80%, Se 0.95 / Sp 0.7, 40+40 labels',
    claim: 'usually',
    bound: 0.8,
    rate: 0.8,
    sensitivity: 0.95,
    specificity: 0.7,
    positives: 40,
    negatives: 40,
  },
  {
    name: 'rarely ≤ 10%, Se 0.6 / Sp 0.99, 20+30 labels',
    claim: 'rarely',
    bound: 0.1,
    rate: 0.1,
    sensitivity: 0.6,
    specificity: 0.99,
    positives: 20,
    negatives: 30,
  },
  {
    name: 'usually ≥ 90%, Se 0.99 / Sp 0.8, 100+25 labels',
    claim: 'usually',
    bound: 0.9,
    rate: 0.9,
    sensitivity: 0.99,
    specificity: 0.8,
    positives: 100,
    negatives: 25,
  },
  {
    name: 'rarely ≤ 30%, Se 0.9 / Sp 0.9, 30+30 labels',
    claim: 'rarely',
    bound: 0.3,
    rate: 0.3,
    sensitivity: 0.9,
    specificity: 0.9,
    positives: 30,
    negatives: 30,
  },
]

/**
 * The judges of the third statistics audit (Se/Sp 0.6/0.99, 0.9/0.9, 0.99/0.99 with 20+20 labels,
 * and a new user's 13+27 labels at 8/13 and 24/27), each under three claims with the true rate at
 * the bound: the worst wrong pass over them is the test's exact size on the audit's judges.
 */
export const AUDIT_MODELS: readonly JudgeModel[] = [
  { sensitivity: 0.6, specificity: 0.99, positives: 20, negatives: 20 },
  { sensitivity: 0.9, specificity: 0.9, positives: 20, negatives: 20 },
  { sensitivity: 0.99, specificity: 0.99, positives: 20, negatives: 20 },
  { sensitivity: 8 / 13, specificity: 24 / 27, positives: 13, negatives: 27 },
].flatMap((judge) =>
  (
    [
      ['rarely', 0.1],
      ['rarely', 0.3],
      ['usually', 0.8],
    ] as const
  ).map(([claim, bound]) => ({
    ...judge,
    claim,
    bound,
    rate: bound,
    name: `${claim === 'rarely' ? 'rarely ≤' : 'usually ≥'} ${100 * bound}%, Se ${judge.sensitivity === 8 / 13 ? '8/13' : judge.sensitivity} / Sp ${judge.specificity === 24 / 27 ? '24/27' : judge.specificity}, ${judge.positives}+${judge.negatives} labels`,
  })),
)

/** The cases the audit priced in rollouts: the true rate well inside the claim. */
export const POWER_CASES: readonly JudgeModel[] = [
  {
    name: 'rarely ≤ 10%, true 2.5%, Se 0.99 / Sp 0.99, 20+20 labels',
    claim: 'rarely',
    bound: 0.1,
    rate: 0.025,
    sensitivity: 0.99,
    specificity: 0.99,
    positives: 20,
    negatives: 20,
  },
  {
    name: 'rarely ≤ 10%, true 0%, Se 0.6 / Sp 0.99, 20+20 labels',
    claim: 'rarely',
    bound: 0.1,
    rate: 0,
    sensitivity: 0.6,
    specificity: 0.99,
    positives: 20,
    negatives: 20,
  },
  {
    name: 'rarely ≤ 10%, true 2.5%, Se 0.9 / Sp 0.9, 20+20 labels',
    claim: 'rarely',
    bound: 0.1,
    rate: 0.025,
    sensitivity: 0.9,
    specificity: 0.9,
    positives: 20,
    negatives: 20,
  },
  {
    name: 'rarely ≤ 30%, true 7.5%, Se 0.9 / Sp 0.9, 30+30 labels',
    claim: 'rarely',
    bound: 0.3,
    rate: 0.075,
    sensitivity: 0.9,
    specificity: 0.9,
    positives: 30,
    negatives: 30,
  },
]

/** What one gate does on one model, exactly. */
export interface GateOutcomes {
  /** Probability the gate's first decision passes the claim, plus the left-out calibrations' mass. */
  readonly pass: number
  /** Probability its first decision fails the claim. */
  readonly fail: number
  /** The rest: no decision within maxRollouts, or a calibration no better than chance (refused when the judge is made). */
  readonly inconclusive: number
  /** Expected rollouts scored (a refused calibration scores none). */
  readonly rollouts: number
  /** passBy[n]: probability of having passed by rollout n (index 0: none yet), without the left-out mass. */
  readonly passBy: readonly number[]
  /** Mass of the calibrations left out (each less likely than 1e-7), counted in `pass`. */
  readonly leftOut: number
}

/** Calibrations less likely than this are left out, their mass counted as passes. */
const LEAST_CALIBRATION = 1e-7

/**
 * The exact outcome of `gate` on `model`: over every calibration the labelled set can give, the
 * gate's stopping rule walked as a distribution over judge-yes counts, one rollout at a time.
 */
export function exactJudgeGate(
  model: JudgeModel,
  gate: JudgeGate,
  options: { alpha?: number; maxRollouts?: number } = {},
): GateOutcomes {
  const alpha = options.alpha ?? 0.05
  const maxRollouts = options.maxRollouts ?? 400
  const yesRate = model.sensitivity * model.rate + (1 - model.specificity) * (1 - model.rate)
  const passBy = new Array<number>(maxRollouts + 1).fill(0)
  let fail = 0
  let rollouts = 0
  let leftOut = 0
  const positives = binomialPmf(model.positives, model.sensitivity)
  const negatives = binomialPmf(model.negatives, model.specificity)
  positives.forEach((positiveMass, sensitivityCount) => {
    negatives.forEach((negativeMass, specificityCount) => {
      const mass = positiveMass * negativeMass
      if (mass < LEAST_CALIBRATION) {
        leftOut += mass
        return
      }
      // A calibration no better than chance is refused when the judge is made: no run happens.
      if (sensitivityCount / model.positives + specificityCount / model.negatives <= 1) return
      const calibration = {
        sensitivity: { correct: sensitivityCount, of: model.positives },
        specificity: { correct: specificityCount, of: model.negatives },
      }
      const run = exactRun(gate(calibration, model.bound, alpha), yesRate, maxRollouts)
      const [passed, failed] = model.claim === 'rarely' ? [run.belowBy, run.above] : [run.aboveBy, run.below]
      passed.forEach((by, n) => (passBy[n] = (passBy[n] ?? 0) + mass * by))
      fail += mass * failed
      rollouts += mass * run.rollouts
    })
  })
  const pass = (passBy[maxRollouts] ?? 0) + leftOut
  return { pass, fail, inconclusive: Math.max(0, 1 - pass - fail), rollouts, passBy, leftOut }
}

/**
 * One calibration's run, exactly: the probability of each decision by rollout n, and the expected
 * rollouts. At each n the decision regions are runs of judge-yes counts from each end (each e-value
 * moves one way with the count). From n − 1 to n the 'below' edge stays or moves up by one: a count
 * that decided 'below' at n − 1 decides it at n (one more rollout judged no adds to the evidence),
 * and a count one higher at n would have decided at n − 1 without its yes. Likewise the 'above' edge
 * stays or moves up by one. So each n asks the gate about one count per side.
 */
function exactRun(
  decide: Decide,
  yesRate: number,
  maxRollouts: number,
): { belowBy: number[]; aboveBy: number[]; below: number; above: number; rollouts: number } {
  // alive[yes]: the probability of being undecided with `yes` judge-yes after n rollouts.
  let alive = new Float64Array(maxRollouts + 2)
  let next = new Float64Array(maxRollouts + 2)
  alive[0] = 1
  const belowBy = [0]
  const aboveBy = [0]
  let rollouts = 0
  let belowEdge = -1
  let aboveEdge = 1
  let below = 0
  let above = 0
  for (let n = 1; n <= maxRollouts; n++) {
    let undecided = 0
    next[0] = (alive[0] as number) * (1 - yesRate)
    for (let yes = 1; yes <= n; yes++) {
      undecided += alive[yes - 1] as number
      next[yes] = (alive[yes] as number) * (1 - yesRate) + (alive[yes - 1] as number) * yesRate
    }
    rollouts += undecided
    if (decide(belowEdge + 1, n) === 'below') belowEdge++
    // The 'above' edge at n − 1 moves up by one unless that count still decides 'above' at n.
    if (decide(aboveEdge, n) !== 'above') aboveEdge++
    aboveEdge = Math.max(aboveEdge, belowEdge + 1)
    for (let yes = 0; yes <= belowEdge; yes++) {
      below += next[yes] as number
      next[yes] = 0
    }
    for (let yes = aboveEdge; yes <= n; yes++) {
      above += next[yes] as number
      next[yes] = 0
    }
    belowBy.push(below)
    aboveBy.push(above)
    ;[alive, next] = [next, alive]
  }
  return {
    belowBy,
    aboveBy,
    below: belowBy[maxRollouts] ?? 0,
    above: aboveBy[maxRollouts] ?? 0,
    rollouts,
  }
}

/** P(X = k) for X ~ Binomial(n, p), k = 0 … n, by the recurrence from the mode's side that does not underflow. */
function binomialPmf(n: number, p: number): number[] {
  const logPmf = Array.from({ length: n + 1 }, (_, k) => {
    const logChoose = logFactorial(n) - logFactorial(k) - logFactorial(n - k)
    const logP = k === 0 ? 0 : k * Math.log(p)
    const logQ = n - k === 0 ? 0 : (n - k) * Math.log1p(-p)
    return logChoose + logP + logQ
  })
  return logPmf.map(Math.exp)
}

function logFactorial(n: number): number {
  let sum = 0
  for (let i = 2; i <= n; i++) sum += Math.log(i)
  return sum
}

/** The least n by which the gate has passed with probability ½, or null when it has not by maxRollouts. */
export function medianRolloutsToPass(outcomes: GateOutcomes): number | null {
  const n = outcomes.passBy.findIndex((passed) => passed >= 0.5)
  return n < 0 ? null : n
}

function main(): void {
  const percent = (p: number, digits = 1) => `${(100 * p).toFixed(digits)}%`
  const toPass = (outcomes: GateOutcomes, maxRollouts: number) =>
    `${medianRolloutsToPass(outcomes) ?? `> ${maxRollouts}`}`
  console.log('wrong passes at α = 5% (true rate at the bound), exact, maxRollouts 400')
  console.log(
    '| model | uncorrected wrong pass | corrected wrong pass | union bound wrong pass | uncorrected rollouts | corrected rollouts | union bound rollouts |',
  )
  console.log('|---|---|---|---|---|---|---|')
  for (const model of NULL_MODELS) {
    const [uncorrected, corrected, unionBound] = [UNCORRECTED, CORRECTED, UNION_BOUND].map((gate) =>
      exactJudgeGate(model, gate),
    ) as [GateOutcomes, GateOutcomes, GateOutcomes]
    console.log(
      `| ${model.name} | ${percent(uncorrected.pass)} | ${percent(corrected.pass, 2)} | ${percent(unionBound.pass, 2)} | ${uncorrected.rollouts.toFixed(0)} | ${corrected.rollouts.toFixed(0)} | ${unionBound.rollouts.toFixed(0)} |`,
    )
  }
  console.log(
    '\npower: the same judges, the true rate well inside the claim (a pass is right), exact, maxRollouts 400',
  )
  console.log(
    '| model | uncorrected pass | corrected pass | union bound pass | corrected rollouts to pass (median) | union bound rollouts to pass (median) |',
  )
  console.log('|---|---|---|---|---|---|')
  for (const model of NULL_MODELS) {
    const rate = model.claim === 'rarely' ? model.bound / 4 : 1 - (1 - model.bound) / 4
    const inside = { ...model, rate }
    const name = `${model.name.split(',')[0]}, true ${(100 * rate).toFixed(1)}%${model.name.slice(model.name.indexOf(','))}`
    const [uncorrected, corrected, unionBound] = [UNCORRECTED, CORRECTED, UNION_BOUND].map((gate) =>
      exactJudgeGate(inside, gate),
    ) as [GateOutcomes, GateOutcomes, GateOutcomes]
    console.log(
      `| ${name} | ${percent(uncorrected.pass)} | ${percent(corrected.pass)} | ${percent(unionBound.pass)} | ${toPass(corrected, 400)} | ${toPass(unionBound, 400)} |`,
    )
  }
  const longRun = 2000
  console.log(`\nrollouts to pass: the audit's priced cases, exact, maxRollouts ${longRun}`)
  console.log(
    '| case | corrected pass | union bound pass | corrected rollouts to pass (median) | union bound rollouts to pass (median) |',
  )
  console.log('|---|---|---|---|---|')
  for (const model of POWER_CASES) {
    const [corrected, unionBound] = [CORRECTED, UNION_BOUND].map((gate) =>
      exactJudgeGate(model, gate, { maxRollouts: longRun }),
    ) as [GateOutcomes, GateOutcomes]
    console.log(
      `| ${model.name} | ${percent(corrected.pass)} | ${percent(unionBound.pass)} | ${toPass(corrected, longRun)} | ${toPass(unionBound, longRun)} |`,
    )
  }
  console.log(
    "\nexact worst wrong pass on the audit's judges (true rate at the bound), α = 5%, maxRollouts 400",
  )
  console.log('| judge and claim | corrected wrong pass | union bound wrong pass |')
  console.log('|---|---|---|')
  let worstCorrected = 0
  let worstUnionBound = 0
  for (const model of AUDIT_MODELS) {
    const corrected = exactJudgeGate(model, CORRECTED)
    const unionBound = exactJudgeGate(model, UNION_BOUND)
    worstCorrected = Math.max(worstCorrected, corrected.pass)
    worstUnionBound = Math.max(worstUnionBound, unionBound.pass)
    console.log(`| ${model.name} | ${percent(corrected.pass, 3)} | ${percent(unionBound.pass, 3)} |`)
  }
  console.log(`| worst | ${percent(worstCorrected, 3)} | ${percent(worstUnionBound, 3)} |`)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main()
