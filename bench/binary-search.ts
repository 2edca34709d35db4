/**
 * Binary-search benchmark. Prints measured rates in one run; asserts nothing.
 *
 *   npx tsx bench/binary-search.ts [runs = 1000]
 *
 * Locus accuracy, false discoveries and rollouts (mean and max) of contrastive attribution on
 * 15-step noisy models (replay fidelity 0.8, see {@link noisyLocusModel}; on the null model,
 * accuracy is the share of runs that name no locus), side by side for the two designs a user picks
 * between above 12 steps: binary search with sequential arms (the default) and linear search with a
 * fixed K = 32 per step (`search: 'linear', sequential: false`, 512 rollouts on 15 steps). Both use
 * common random numbers and Holm over every step. A false discovery is a locus after the planted
 * step (a step whose redraw cannot rescue); on the null model, any locus at all.
 *
 * The model generator is exported for the unit tests (test/unit/attribute/binary-search.test.ts),
 * so the bench and the tests measure the same models.
 */
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { contrastive, type ContrastiveOptions } from '../src/entries/attribution.js'
import { defineAgent, type Agent, type Trajectory } from '../src/index.js'
import { record } from '../src/entries/replay.js'
import { deriveSeed, stepStream } from '../src/random/streams.js'
import { wilson } from '../src/stats/index.js'
import { extendedProbeRollouts } from '../src/text/attribution.js'

/** A generated model with a planted causal step (or none) and a live noisy tool. */
export interface NoisyLocusModel {
  readonly agent: Agent<{ readonly model: number }, 'bad' | 'good'>
  readonly length: number
  /** The one step whose redraw can rescue the run (the causal locus), or null: no step rescues. */
  readonly pivot: number | null
  /** P(the pivot decides bad). */
  readonly badProbability: number
  /** P(bad | every step held): the replay fidelity. */
  readonly fidelity: number
}

/** Ranges a {@link noisyLocusModel} is drawn from. */
export interface NoisyLocusConfig {
  /** Default 15. */
  minLength: number
  /** Default 15. */
  maxLength: number
  /** Default 0.8: P(the live tool leaves a bad decision bad). */
  fidelity: number
  /** Default 0.4: P(the pivot decides bad) is uniform in [0, this] (at least 0.01). */
  maxBadProbability: number
  /** Default true; false plants no pivot (every step is noise), the null model. */
  planted: boolean
}

const DEFAULT_NOISY_CONFIG: NoisyLocusConfig = {
  minLength: 15,
  maxLength: 15,
  fidelity: 0.8,
  maxBadProbability: 0.4,
  planted: true,
}

/**
 * The model of `seed`: `length` steps, one of them (uniform) the pivot that decides "bad" with
 * probability p; every other step an irrelevant random action. After the last step a live tool
 * re-checks the order and recovers a bad decision with probability 1 − fidelity. The tool is noise
 * the replay cannot hold (`tools: 'live'`, the default): its result is drawn from the rollout's
 * environment stream keyed by the actions so far, as a live service would answer differently to a
 * different conversation. So replaying with every step held reproduces the failure only a `fidelity`
 * share of the time, and — unlike a stream shared by every arm — an arm that redraws any step sees a
 * fresh tool draw: its pairs against the baseline are discordant in both directions, which is what
 * makes single probes of a binary search undecided.
 *
 * Analytic values: P(bad | resample(k)) = p·F for k ≤ pivot and F after it, so the effects are
 * (p − 1)·F up to the pivot (−0.48 to −0.8 at the defaults) and 0 after; the locus is the pivot.
 */
export function noisyLocusModel(seed: number, config: Partial<NoisyLocusConfig> = {}): NoisyLocusModel {
  const { minLength, maxLength, fidelity, maxBadProbability, planted } = {
    ...DEFAULT_NOISY_CONFIG,
    ...config,
  }
  const random = stepStream(deriveSeed(seed, 'noisy-locus-model'), 0, 0)
  const length = minLength + Math.floor(random() * (maxLength - minLength + 1))
  const drawnPivot = Math.floor(random() * length)
  const pivot = planted ? drawnPivot : null
  // Floored so that a failing run to attribute turns up within a few hundred rollouts.
  const badProbability = Math.max(0.01, maxBadProbability * random())
  const agent = defineAgent<{ readonly model: number }, 'bad' | 'good'>({
    name: `noisy-locus(${seed})`,
    input: { model: seed },
    async run(_input, ctx) {
      // The null model's outcome is bad unless the tool recovers it: no step can change that.
      let decision: 'bad' | 'good' = pivot === null ? 'bad' : 'good'
      const actions: string[] = []
      for (let step = 0; step < length; step++) {
        if (step === pivot) {
          decision = await ctx.step('decide', (rng) => (rng() < badProbability ? 'bad' : 'good'))
          actions.push(decision)
        } else {
          actions.push(await ctx.step(`noise-${step}`, (rng) => (rng() < 0.5 ? 'a' : 'b')))
        }
      }
      const environment = deriveSeed(ctx.rollout.seed, `environment/${actions.join(',')}`)
      const draw = stepStream(environment, ctx.rollout.index, 0)()
      const check = await ctx.tool('recheck', { order: seed }, () =>
        draw < 1 - fidelity ? 'recovered' : 'still failing',
      )
      return decision === 'bad' && check !== 'recovered' ? 'bad' : 'good'
    },
  })
  return { agent, length, pivot, badProbability, fidelity }
}

/** The run ended bad. */
export const isNoisyBad = (trajectory: Trajectory): boolean => trajectory.output === 'bad'

/** The first bad rollout of `model` under `seed`: the factual run to attribute. */
export async function failingNoisyRun(model: NoisyLocusModel, seed: number): Promise<Trajectory> {
  for (let rollout = 0; rollout < 10_000; rollout++) {
    const trajectory = await record(model.agent, { seed, rollout })
    if (isNoisyBad(trajectory)) return trajectory
  }
  throw new Error(`noisy-locus(${seed}) produced no bad run in 10 000 rollouts`)
}

/** What a design scored over many generated models. */
export interface LocusTally {
  runs: number
  correct: number
  /** A locus after the pivot, or any locus on the null model. */
  falseDiscoveries: number
  abstained: number
  /** Rollouts summed over the runs. */
  rollouts: number
  /** The most rollouts one run used. */
  maxRollouts: number
  /** Runs in which the search extended a probe past `rollouts` pairs. */
  extended: number
  /**
   * Runs that spent more than their ceiling: n × `rollouts` once a probe was extended, (n + 1) ×
   * `rollouts` (fixed linear search's cost) otherwise.
   */
  overCeiling: number
}

/** Attributes the failing run of `runs` models (seeds 0, 1, …) with `options`, and tallies the loci. */
export async function tallyLoci(
  runs: number,
  config: Partial<NoisyLocusConfig>,
  options: Omit<ContrastiveOptions, 'isBad' | 'seed'> = {},
  firstSeed = 0,
): Promise<LocusTally> {
  const tally: LocusTally = {
    runs,
    correct: 0,
    falseDiscoveries: 0,
    abstained: 0,
    rollouts: 0,
    maxRollouts: 0,
    extended: 0,
    overCeiling: 0,
  }
  for (let seed = firstSeed; seed < firstSeed + runs; seed++) {
    const model = noisyLocusModel(seed, config)
    const result = await contrastive(model.agent, await failingNoisyRun(model, seed), {
      ...options,
      isBad: isNoisyBad,
      seed,
    })
    tally.rollouts += result.rolloutsUsed
    tally.maxRollouts = Math.max(tally.maxRollouts, result.rolloutsUsed)
    const perStep = result.rolloutsPerStep
    const extended = extendedProbeRollouts(result) !== null
    if (extended) tally.extended++
    if (result.rolloutsUsed > (model.length + (extended ? 0 : 1)) * perStep) tally.overCeiling++
    if (result.locus === model.pivot) tally.correct++
    if (result.locus === null) tally.abstained++
    else if (model.pivot === null || result.locus > model.pivot) tally.falseDiscoveries++
  }
  return tally
}

function percentWithInterval(successes: number, n: number): string {
  const rate = wilson(successes, n)
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`
  return `${percent(rate.point)} [${percent(rate.low)}, ${percent(rate.high)}]`
}

function describeTally(label: string, tally: LocusTally): string {
  return `${label.padEnd(30)} accuracy ${percentWithInterval(tally.correct, tally.runs)}  false discoveries ${percentWithInterval(tally.falseDiscoveries, tally.runs)}  abstained ${tally.abstained}  rollouts mean ${(tally.rollouts / tally.runs).toFixed(1)}, max ${tally.maxRollouts}  extended a probe in ${tally.extended}`
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 1000)
  const start = performance.now()
  const designs = [
    ['binary search, sequential', { search: 'binary' }],
    ['linear search, fixed K = 32', { search: 'linear', sequential: false }],
  ] as const
  const models = [
    ['P(pivot bad) uniform in [0, 0.4]', {}],
    ['P(pivot bad) uniform in [0, 0.5] (weaker rescues)', { maxBadProbability: 0.5 }],
    ['null model: no step rescues', { planted: false }],
  ] as const
  console.log(
    `contrastive on ${runs} generated 15-step models per line, replay fidelity 0.8 (a live noisy tool); intervals: 95% Wilson`,
  )
  for (const [model, config] of models) {
    console.log(model)
    for (const [label, options] of designs) {
      console.log(`  ${describeTally(label, await tallyLoci(runs, config, options))}`)
    }
  }
  console.log(`\ntotal ${((performance.now() - start) / 1000).toFixed(1)} s`)
}

// Run only as a script: the unit tests import the model generator from this file.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main()
