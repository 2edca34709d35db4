/**
 * Judge-corrected rate gate benchmark. Prints, side by side, how often the rate gate passes a claim
 * that is false (the true rate sits exactly at the bound) when the predicate is an imperfect LLM
 * judge: uncorrected (the gate tests the judge's apparent rate) and judge-corrected (Rogan–Gladen
 * with the union-bound interval over the apparent rate's confidence sequence and the calibration's
 * Clopper–Pearson intervals). Also the power of each on a clearly true claim, and the mean rollouts.
 *
 *   npx tsx bench/judge-correction.ts [runs]
 *
 * Each run draws its own calibration (the counts a labelled set of the stated sizes would give a
 * judge of the stated sensitivity and specificity), then samples rollouts one at a time, each bad
 * with the true rate and judged through the judge's error rates, asking the gate's stopping rule
 * after every rollout up to `maxRollouts`. The decisions are the gate's own functions
 * (`correctedDecision`, and `mixtureLogEValues` at the bound for the uncorrected gate). The judge
 * models were not used to choose the method or the α split.
 */
import { fileURLToPath } from 'node:url'
import seedrandom from 'seedrandom'
import { mixtureLogEValues } from '../src/stats/mixture-e-process.js'
import { correctedDecision, judgeCorrectionPlan } from '../src/verdict/judge-correction.js'

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

/** What one gate did over many runs. */
export interface GateOutcomes {
  pass: number
  fail: number
  inconclusive: number
  /** Rollouts scored, summed over runs. */
  rollouts: number
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
 * Runs `runs` gates of `model` under both rules, seeded by `seed`; α = 1 − confidence per side.
 * Each run's calibration counts, rollouts and judge answers are drawn once and shared by both rules.
 */
export function simulateJudgeGates(
  model: JudgeModel,
  runs: number,
  options: { seed: string; alpha?: number; maxRollouts?: number },
): { corrected: GateOutcomes; uncorrected: GateOutcomes } {
  const alpha = options.alpha ?? 0.05
  const maxRollouts = options.maxRollouts ?? 400
  const rng = seedrandom(options.seed)
  const binomial = (n: number, p: number) => {
    let count = 0
    for (let i = 0; i < n; i++) if (rng() < p) count++
    return count
  }
  const corrected: GateOutcomes = { pass: 0, fail: 0, inconclusive: 0, rollouts: 0 }
  const uncorrected: GateOutcomes = { pass: 0, fail: 0, inconclusive: 0, rollouts: 0 }
  const threshold = Math.log(1 / alpha)
  const record = (outcomes: GateOutcomes, decision: 'below' | 'above' | 'undecided', rollouts: number) => {
    outcomes.rollouts += rollouts
    if (decision === 'undecided') outcomes.inconclusive++
    else if ((decision === 'below') === (model.claim === 'rarely')) outcomes.pass++
    else outcomes.fail++
  }
  for (let run = 0; run < runs; run++) {
    const calibration = {
      sensitivity: { correct: binomial(model.positives, model.sensitivity), of: model.positives },
      specificity: { correct: binomial(model.negatives, model.specificity), of: model.negatives },
    }
    const { sensitivity, specificity } = calibration
    // A calibration no better than chance is refused when the judge is made; such a run is no test.
    const informative = sensitivity.correct / sensitivity.of + specificity.correct / specificity.of > 1
    const plan = informative ? judgeCorrectionPlan(calibration, model.bound, alpha) : null
    let yes = 0
    let correctedDone: 'below' | 'above' | null = null
    let uncorrectedDone: 'below' | 'above' | null = null
    for (let n = 1; n <= maxRollouts && (correctedDone === null || uncorrectedDone === null); n++) {
      const holds = rng() < model.rate
      if (rng() < (holds ? model.sensitivity : 1 - model.specificity)) yes++
      if (uncorrectedDone === null) {
        const logE = mixtureLogEValues(yes, n, model.bound)
        const decision = logE.below >= threshold ? 'below' : logE.above >= threshold ? 'above' : null
        if (decision !== null) {
          uncorrectedDone = decision
          record(uncorrected, decision, n)
        }
      }
      if (correctedDone === null) {
        const decision = plan === null ? 'undecided' : correctedDecision(yes, n, plan)
        if (decision !== 'undecided') {
          correctedDone = decision
          record(corrected, decision, n)
        }
      }
    }
    if (uncorrectedDone === null) record(uncorrected, 'undecided', maxRollouts)
    if (correctedDone === null) record(corrected, 'undecided', maxRollouts)
  }
  return { corrected, uncorrected }
}

function main(): void {
  const runs = Number(process.argv[2] ?? 2000)
  const share = (count: number) => `${((100 * count) / runs).toFixed(1)}%`
  const mean = (outcomes: GateOutcomes) => (outcomes.rollouts / runs).toFixed(0)
  console.log(
    `wrong passes at α = 5% (true rate at the bound), ${runs} seeded runs per model, maxRollouts 400`,
  )
  console.log(
    '| model | uncorrected wrong pass | corrected wrong pass | uncorrected rollouts | corrected rollouts |',
  )
  console.log('|---|---|---|---|---|')
  for (const model of NULL_MODELS) {
    const { corrected, uncorrected } = simulateJudgeGates(model, runs, { seed: `bench ${model.name}` })
    console.log(
      `| ${model.name} | ${share(uncorrected.pass)} | ${share(corrected.pass)} | ${mean(uncorrected)} | ${mean(corrected)} |`,
    )
  }
  console.log('\npower: the same judges, the true rate well inside the claim (a pass is right)')
  console.log('| model | uncorrected pass | corrected pass | corrected inconclusive | corrected rollouts |')
  console.log('|---|---|---|---|---|')
  for (const model of NULL_MODELS) {
    const rate = model.claim === 'rarely' ? model.bound / 4 : 1 - (1 - model.bound) / 4
    const inside = { ...model, rate, name: `${model.name.split(',')[0]}, true ${(100 * rate).toFixed(1)}%` }
    const { corrected, uncorrected } = simulateJudgeGates(inside, runs, { seed: `bench power ${model.name}` })
    console.log(
      `| ${inside.name}${model.name.slice(model.name.indexOf(','))} | ${share(uncorrected.pass)} | ${share(corrected.pass)} | ${share(corrected.inconclusive)} | ${mean(corrected)} |`,
    )
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main()
