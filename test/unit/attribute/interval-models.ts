import { defineAgent, type Trajectory } from '../../../src/index.js'
import { record } from '../../../src/entries/replay.js'
import { stepStream } from '../../../src/random/streams.js'
import seedrandom from 'seedrandom'

/**
 * Models for checking the printed effect intervals of contrastive attribution, unlike any in
 * `bench/` or `test/scm`: every step can matter a little (small, skewed effects, several rescuing
 * steps at once), the outcome is decided by a live environment draw shared across arms under common
 * random numbers, and in "mirror" models the same draw that lets a bad decision fail rescues a good
 * one — so the pairs of a resampled arm and the baseline are negatively correlated.
 *
 * Step k decides 'bad' with probability `pBad[k]`. Given the actions a, the run goes bad with
 * probability φ(a) = clamp(base + Σ weight[k]·1{a_k bad}, 0, 1), realised by one uniform draw v of
 * the environment: bad iff v < φ(a), or, in a mirror model when the mirror step decided 'good',
 * bad iff v ≥ 1 − φ(a). The true P(bad | intervention) is then exact by enumeration.
 */
export interface IntervalModel {
  readonly pBad: readonly number[]
  readonly weight: readonly number[]
  readonly base: number
  /** The step whose action flips which end of the environment draw is bad; undefined: none. */
  readonly mirror: number | undefined
}

/** φ(a): the chance that a run with these actions goes bad. */
export function badChance(model: IntervalModel, bad: readonly boolean[]): number {
  let value = model.base
  bad.forEach((isBad, k) => {
    if (isBad) value += model.weight[k] as number
  })
  return Math.min(1, Math.max(0, value))
}

/** The agent of `model`: one step per decision, then the environment's draw, shared under CRN. */
export function intervalModelAgent(model: IntervalModel) {
  return defineAgent({
    name: 'interval-model',
    input: {},
    async run(_input, ctx) {
      const bad: boolean[] = []
      for (let k = 0; k < model.pBad.length; k++) {
        const p = model.pBad[k] as number
        bad.push((await ctx.step(`s${k}`, (rng) => (rng() < p ? 'bad' : 'ok'))) === 'bad')
      }
      const chance = badChance(model, bad)
      const draw = stepStream(ctx.rollout.seed + 7, ctx.rollout.index, 0)()
      const flipped = model.mirror !== undefined && !bad[model.mirror]
      const outcome = await ctx.tool('environment', { chance }, () =>
        (flipped ? draw >= 1 - chance : draw < chance) ? 'failed' : 'ok',
      )
      return outcome === 'failed' ? 'bad' : 'good'
    },
  })
}

/** The outcome the models are scored on. */
export const intervalModelBad = (trajectory: Trajectory): boolean => trajectory.output === 'bad'

/**
 * The true P(bad) when steps before `from` keep the factual actions and steps from `from` on are
 * drawn afresh (`from` = the number of steps: everything held, the baseline).
 */
export function truePBad(model: IntervalModel, factual: readonly boolean[], from: number): number {
  const free = model.pBad.length - from
  let total = 0
  for (let mask = 0; mask < 1 << free; mask++) {
    let weight = 1
    const bad = factual.slice(0, from)
    for (let j = 0; j < free; j++) {
      const isBad = (mask >> j) & 1
      const p = model.pBad[from + j] as number
      weight *= isBad ? p : 1 - p
      bad.push(isBad === 1)
    }
    total += weight * badChance(model, bad)
  }
  return total
}

/** The true effect of resampling step k: P(bad | resample(k)) − P(bad | baseline). */
export function trueEffect(model: IntervalModel, factual: readonly boolean[], k: number): number {
  return truePBad(model, factual, k) - truePBad(model, factual, model.pBad.length)
}

/**
 * A model drawn from `seed`: 3–7 steps, skewed bad probabilities (0.02–0.6), weights from −0.1 to
 * 0.7 (small effects included, some steps working against the failure), a small base rate, and a
 * mirror step in half of the models.
 */
export function drawIntervalModel(seed: number): IntervalModel {
  const rng = seedrandom.alea(`interval-model/${seed}`)
  const steps = 3 + Math.floor(rng() * 5)
  const pBad = Array.from({ length: steps }, () => 0.02 + 0.58 * rng() ** 2)
  const weight = Array.from({ length: steps }, () => -0.1 + 0.8 * rng() ** 1.5)
  const base = 0.15 * rng()
  const mirror = rng() < 0.5 ? Math.floor(rng() * steps) : undefined
  return { pBad, weight, base, mirror }
}

/** The first bad run of `model` under `seed`, with its actions; undefined if none in 2,000 rollouts. */
export async function failingIntervalRun(
  model: IntervalModel,
  seed: number,
): Promise<{ trajectory: Trajectory; bad: boolean[] } | undefined> {
  const agent = intervalModelAgent(model)
  for (let rollout = 0; rollout < 2_000; rollout++) {
    const trajectory = await record(agent, { seed, rollout })
    if (intervalModelBad(trajectory)) {
      return { trajectory, bad: trajectory.steps.map((step) => step.action === 'bad') }
    }
  }
  return undefined
}

/**
 * A context model for context attribution's intervals: step 0 decides from an object context of
 * 2–5 keys, each a few sentences; some keys hold a trigger sentence that raises P(bad decision) by
 * its weight (small and skewed weights, some negative). The environment's draw, shared under CRN,
 * turns a bad decision into a bad run with probability `q`, a good one with probability `r`; in a
 * mirror model the good decision's bad draws are the other end of the same uniform, so ablating a
 * part that flips the decision gives negatively correlated pairs.
 */
export interface ContextIntervalModel {
  readonly texts: readonly string[]
  readonly weights: readonly number[]
  readonly base: number
  readonly q: number
  readonly r: number
  readonly mirror: boolean
}

/** The trigger sentence of key i. */
export const trigger = (i: number): string => `Trigger ${i} is set.`

/** The chance that the decision is bad given its context's text. */
export function decisionBadChance(model: ContextIntervalModel, contextText: string): number {
  let value = model.base
  model.weights.forEach((weight, i) => {
    if (contextText.includes(trigger(i))) value += weight
  })
  return Math.min(1, Math.max(0, value))
}

/** The true P(bad) of a run whose decision sees `contextText`. */
export function contextPBad(model: ContextIntervalModel, contextText: string): number {
  const f = decisionBadChance(model, contextText)
  return f * model.q + (1 - f) * model.r
}

/** A context model drawn from `seed`. */
export function drawContextModel(seed: number): ContextIntervalModel {
  const rng = seedrandom.alea(`context-interval-model/${seed}`)
  const keys = 2 + Math.floor(rng() * 4)
  const texts: string[] = []
  const weights: number[] = []
  for (let i = 0; i < keys; i++) {
    const sentences = Array.from(
      { length: 2 + Math.floor(rng() * 3) },
      (_, j) => `Key ${i} sentence ${j} mentions item ${Math.floor(rng() * 1000)}.`,
    )
    const weight = rng() < 0.7 ? -0.1 + 0.8 * rng() ** 1.5 : 0
    if (weight !== 0) sentences.splice(Math.floor(rng() * (sentences.length + 1)), 0, trigger(i))
    texts.push(sentences.join(' '))
    weights.push(weight)
  }
  return {
    texts,
    weights,
    base: 0.02 + 0.1 * rng(),
    q: 0.6 + 0.4 * rng(),
    r: 0.2 * rng(),
    mirror: rng() < 0.5,
  }
}

/** The agent of a {@link ContextIntervalModel}. */
export function contextModelAgent(model: ContextIntervalModel) {
  const context = Object.fromEntries(model.texts.map((text, i) => [`k${i}`, text]))
  return defineAgent({
    name: 'context-interval-model',
    input: {},
    async run(_input, ctx) {
      const decision = await ctx.step(
        'decide',
        (rng, view) => (rng() < decisionBadChance(model, JSON.stringify(view.context)) ? 'bad' : 'ok'),
        { context },
      )
      const draw = stepStream(ctx.rollout.seed + 7, ctx.rollout.index, 0)()
      const bad = decision === 'bad' ? draw < model.q : model.mirror ? draw >= 1 - model.r : draw < model.r
      const outcome = await ctx.tool('environment', {}, () => (bad ? 'failed' : 'ok'))
      return outcome === 'failed' ? 'bad' : 'good'
    },
  })
}
