import { defineAgent, type Agent, type Trajectory } from '../../src/index.js'
import { record } from '../../src/entries/replay.js'
import { deriveSeed, stepStream } from '../../src/random/streams.js'

/**
 * Planted structural causal models with a known answer, for validating attribution (and for the
 * bench). Each model is an agent of `length` steps with exactly one **pivotal** step: it decides
 * "bad" with probability `badProbability`, and the run is bad iff that decision is bad. Every other
 * step is an irrelevant noisy decision (a random action nothing depends on), before and after the
 * pivot. An optional **stochastic tail** adds flaky environment checks after some steps at or after
 * the pivot: tool calls that "recover" a bad decision with probability ρ each.
 *
 * The recoveries are environment noise, not decisions: the tool draws from the rollout's own
 * environment stream (keyed by the replay seed and rollout index), so a replay with every step held
 * still recovers sometimes (replay fidelity F = Π(1 − ρ) < 1) and, under common random numbers,
 * every arm sees the same recoveries in rollout r. Resampling a tail step redraws an action nothing
 * depends on, so the pivot stays the causal locus. (Analytic values assume `tools: 'live'`, the
 * default: with `'recorded'`, held steps would replay the recorded "no recovery".)
 *
 * Analytic values, with p = badProbability and F the fidelity:
 * - P(bad | resample(k)) = p·F for k ≤ pivot (resampling an earlier step redraws the pivot too), F after;
 * - contrastive effects (p − 1)·F up to the pivot, 0 after; locus = pivot;
 * - marginal rescue of step k alone: (1 − p)·F at the pivot, 0 elsewhere;
 * - v(S) = P(bad | hold(S)) = F if the pivot is held, else p·F, so Shapley gives (1 − p)·F to the
 *   pivot and 0 to every other step, and the efficiency sum is (1 − p)·F.
 */
export interface PlantedScm {
  readonly seed: number
  readonly agent: Agent<PlantedInput, 'bad' | 'good'>
  readonly length: number
  readonly pivot: number
  readonly badProbability: number
  /** Environment recoveries: after step `after`, a bad decision is recovered with `probability`. */
  readonly recoveries: ReadonlyArray<{ readonly after: number; readonly probability: number }>
  /** P(bad | hold(all)): the replay fidelity. */
  readonly fidelity: number
  /** P(bad | resample(k)) for each step k. */
  readonly pBadResample: readonly number[]
  /** P(bad | resample(k)) − P(bad | hold(all)). */
  readonly effects: readonly number[]
  /** P(bad | resample(k+1)) − P(bad | resample(k)); the baseline stands in for k + 1 = length. */
  readonly marginalRescue: readonly number[]
  /** The analytic causal locus: the pivot. */
  readonly locus: number
  readonly shapley: readonly number[]
  readonly efficiencySum: number
}

/** The input every planted agent runs on (recorded with each trajectory). */
export interface PlantedInput {
  readonly scm: number
}

/** Ranges the generator draws from. */
export interface PlantedScmConfig {
  /** Default 3. */
  minLength: number
  /** Default 20. */
  maxLength: number
  /** Default [0, 0.3]: P(the pivot decides bad), uniform in this range. */
  badProbability: readonly [number, number]
  /** Default 0.5: chance that the model has a stochastic tail. */
  tailProbability: number
  /** Default [0.05, 0.2]: recovery probability of each tail check, uniform in this range. */
  recovery: readonly [number, number]
}

export const DEFAULT_PLANTED_CONFIG: PlantedScmConfig = {
  minLength: 3,
  maxLength: 20,
  badProbability: [0, 0.3],
  tailProbability: 0.5,
  recovery: [0.05, 0.2],
}

const NOISE_NAMES = ['plan', 'search', 'read', 'think', 'reply'] as const
const NOISE_ACTIONS = ['lookup_order', 'lookup_account', 'ask_user', 'summarize'] as const

/** The planted model of `seed` (the same seed always gives the same model). */
export function plantedScm(seed: number, config: Partial<PlantedScmConfig> = {}): PlantedScm {
  const { minLength, maxLength, badProbability, tailProbability, recovery } = {
    ...DEFAULT_PLANTED_CONFIG,
    ...config,
  }
  const random = stepStream(deriveSeed(seed, 'planted-scm'), 0, 0)
  const uniform = (low: number, high: number) => low + (high - low) * random()
  const integer = (low: number, high: number) => low + Math.floor(random() * (high - low + 1))

  const length = integer(minLength, maxLength)
  const pivot = integer(0, length - 1)
  const p = uniform(badProbability[0], badProbability[1])
  const recoveries: Array<{ after: number; probability: number }> = []
  if (random() < tailProbability) {
    const count = Math.min(integer(1, 2), length - pivot)
    const candidates = Array.from({ length: length - pivot }, (_, offset) => pivot + offset)
    for (let i = 0; i < count; i++) {
      const [after] = candidates.splice(integer(0, candidates.length - 1), 1)
      recoveries.push({ after: after as number, probability: uniform(recovery[0], recovery[1]) })
    }
    recoveries.sort((a, b) => a.after - b.after)
  }
  const recoveryAfter = new Map(recoveries.map(({ after, probability }) => [after, probability]))

  const agent = defineAgent<PlantedInput, 'bad' | 'good'>({
    name: `planted(${seed})`,
    input: { scm: seed },
    async run(input, ctx) {
      let decision: 'bad' | 'good' = 'good'
      let recovered = false
      // The environment's own stream: not a decision, so replay never holds it.
      const environment = stepStream(deriveSeed(ctx.rollout.seed, 'environment'), ctx.rollout.index, 0)
      for (let step = 0; step < length; step++) {
        if (step === pivot) {
          decision = await ctx.step('decide', (rng) => (rng() < p ? 'bad' : 'good'), {
            context: { ticket: input.scm },
          })
        } else {
          await ctx.step(
            NOISE_NAMES[step % NOISE_NAMES.length] as string,
            (rng) => NOISE_ACTIONS[Math.floor(rng() * NOISE_ACTIONS.length)] as string,
          )
        }
        const probability = recoveryAfter.get(step)
        if (probability !== undefined) {
          const draw = environment()
          const check = await ctx.tool('recheck', { step }, () =>
            draw < probability ? 'recovered' : 'still failing',
          )
          if (check === 'recovered') recovered = true
        }
      }
      return decision === 'bad' && !recovered ? 'bad' : 'good'
    },
  })

  const fidelity = recoveries.reduce((product, { probability }) => product * (1 - probability), 1)
  const pBadResample = Array.from({ length }, (_, k) => (k <= pivot ? p * fidelity : fidelity))
  return {
    seed,
    agent,
    length,
    pivot,
    badProbability: p,
    recoveries,
    fidelity,
    pBadResample,
    effects: pBadResample.map((value) => value - fidelity),
    marginalRescue: pBadResample.map((value, k) => (pBadResample[k + 1] ?? fidelity) - value),
    locus: pivot,
    shapley: Array.from({ length }, (_, k) => (k === pivot ? (1 - p) * fidelity : 0)),
    efficiencySum: (1 - p) * fidelity,
  }
}

/** The run ended bad. */
export const isPlantedBad = (trajectory: Trajectory): boolean => trajectory.output === 'bad'

/** The first bad rollout of the model under `seed` (its factual run to attribute). */
export async function failingRun(scm: PlantedScm, seed = scm.seed): Promise<Trajectory> {
  for (let rollout = 0; rollout < 10_000; rollout++) {
    const trajectory = await record(scm.agent, { seed, rollout })
    if (isPlantedBad(trajectory)) return trajectory
  }
  throw new Error(`planted(${scm.seed}) produced no bad run in 10 000 rollouts`)
}
