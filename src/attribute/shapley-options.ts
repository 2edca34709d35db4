import type { AgentOrScenario } from '../agent/define-agent.js'
import { InvalidOptionError } from '../errors.js'
import type { Trajectory } from '../trajectory/schema.js'
import {
  booleanOption,
  enumOption,
  positiveIntegerOption,
  resolveAttributionOptions,
  type AttributionOptions,
  type ResolvedAttributionOptions,
} from './options.js'
import { exactSamplesPerEval } from './shapley-weights.js'

/** How `shapley` estimates the values. */
export type ShapleyMethod = 'auto' | 'exact' | 'permutation'

/** Options of `shapley`. */
export interface ShapleyOptions extends AttributionOptions {
  /** Default `'auto'`: `'exact'` up to 10 steps, else `'permutation'`. */
  method?: ShapleyMethod
  /**
   * Default 64. Permutation method: permutations sampled, counting both members of an antithetic
   * pair (so it must be even with `antithetic`, and at least 4: two pairs to estimate a spread).
   */
  permutations?: number
  /**
   * Rollouts per coalition evaluation. Default for `'permutation'`: 1. Default for `'exact'`: the
   * fewest that bound every value's worst-case half-width by ±0.05 (214 at 3 steps, 18 at 10; see
   * `exactSamplesPerEval`), because exact enumeration has no permutation noise to average over.
   */
  samplesPerEval?: number
  /** Default true. Permutation method: sample each permutation together with its reverse. */
  antithetic?: boolean
}

/** Exact enumeration evaluates 2ⁿ coalitions: allowed up to this many steps. */
export const EXACT_MAX_STEPS = 10

/** What a Shapley run will do, decided before it starts. */
export interface ShapleyPlan {
  method: 'exact' | 'permutation'
  /** Permutations sampled (0 for exact). */
  permutations: number
  samplesPerEval: number
  antithetic: boolean
  /** Coalition evaluations: 2ⁿ (exact) or permutations × (n + 1). */
  evaluations: number
  /** evaluations × samplesPerEval. */
  rollouts: number
}

/** {@link ShapleyOptions} checked, with every default filled in. */
export interface ResolvedShapleyOptions extends ResolvedAttributionOptions, ShapleyPlan {}

/** Resolves the options of `shapley` once, naming any option it cannot use. */
export function resolveShapleyOptions(
  target: AgentOrScenario,
  factual: Trajectory,
  options: ShapleyOptions,
): ResolvedShapleyOptions {
  const shared = resolveAttributionOptions('shapley', target, factual, options)
  return { ...shared, ...shapleyPlan('shapley', factual.steps.length, options, shared.confidence) }
}

/** The plan of a Shapley run over `steps` steps (also used to price a run before it starts). */
export function shapleyPlan(
  caller: string,
  steps: number,
  options: Pick<ShapleyOptions, 'method' | 'permutations' | 'samplesPerEval' | 'antithetic'>,
  confidence: number,
): ShapleyPlan {
  const requested = enumOption(caller, 'method', options.method ?? 'auto', ['auto', 'exact', 'permutation'])
  const method = requested === 'auto' ? (steps <= EXACT_MAX_STEPS ? 'exact' : 'permutation') : requested
  if (method === 'exact' && steps > EXACT_MAX_STEPS) {
    throw new InvalidOptionError(
      `${caller}: method 'exact' enumerates 2^n coalitions and allows at most ${EXACT_MAX_STEPS} steps; this run has ${steps} (2^${steps} = ${2 ** steps} coalitions). Use method: 'permutation'.`,
    )
  }
  if (method === 'exact') {
    const samplesPerEval = positiveIntegerOption(
      caller,
      'samplesPerEval',
      options.samplesPerEval ?? exactSamplesPerEval(steps, confidence),
    )
    const evaluations = 2 ** steps
    return {
      method,
      permutations: 0,
      samplesPerEval,
      antithetic: false,
      evaluations,
      rollouts: evaluations * samplesPerEval,
    }
  }
  const antithetic = booleanOption(caller, 'antithetic', options.antithetic ?? true)
  const permutations = positiveIntegerOption(caller, 'permutations', options.permutations ?? 64)
  if (antithetic && (permutations % 2 !== 0 || permutations < 4)) {
    throw new InvalidOptionError(
      `${caller}: with \`antithetic\`, \`permutations\` counts both members of each pair and must be even and at least 4, got ${permutations}.`,
    )
  }
  if (!antithetic && permutations < 2) {
    throw new InvalidOptionError(
      `${caller}: \`permutations\` must be at least 2 to estimate a spread, got ${permutations}.`,
    )
  }
  const samplesPerEval = positiveIntegerOption(caller, 'samplesPerEval', options.samplesPerEval ?? 1)
  const evaluations = permutations * (steps + 1)
  return {
    method,
    permutations,
    samplesPerEval,
    antithetic,
    evaluations,
    rollouts: evaluations * samplesPerEval,
  }
}
