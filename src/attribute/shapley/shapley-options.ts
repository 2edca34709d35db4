import { z } from 'zod'
import type { AgentOrScenario } from '../../agent/define-agent.js'
import { InvalidOptionError } from '../../errors.js'
import { DEFAULTS } from '../../options/defaults.js'
import { BooleanField, oneOf, PositiveIntegerField } from '../../options/fields.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import type { Trajectory } from '../../trajectory/schema.js'
import { attributionFields, resolveAttributionOptions, type ResolvedAttributionOptions } from '../options.js'
import { EXACT_PILOT_ROLLOUTS } from './shapley-allocation.js'
import { exactSamplesPerEval } from './shapley-weights.js'

/** How `shapley` estimates the values. */
export type ShapleyMethod = 'auto' | 'exact' | 'permutation'

/** Exact enumeration evaluates 2ⁿ coalitions: allowed up to this many steps. */
export const EXACT_MAX_STEPS = 10

/** What a Shapley run will do, decided before it starts. */
export interface ShapleyPlan {
  method: 'exact' | 'permutation'
  /** Permutations sampled (0 for exact). */
  permutations: number
  /**
   * Rollouts per coalition evaluation; for an adaptive exact run, the most one coalition may get
   * (the worst-case size, `exactSamplesPerEval`).
   */
  samplesPerEval: number
  antithetic: boolean
  /** Coalition evaluations: 2ⁿ (exact) or permutations × (n + 1). */
  evaluations: number
  /**
   * `'adaptive'` for an exact run without `samplesPerEval`: rollouts allocated to coalitions in
   * rounds until every value is within ±0.05. `'fixed'` otherwise: samplesPerEval for every evaluation.
   */
  allocation: 'fixed' | 'adaptive'
  /**
   * evaluations × samplesPerEval: what a fixed run spends, and at most what an adaptive one spends
   * (every coalition at the worst case, all P(bad) = 1/2).
   */
  rollouts: number
  /**
   * The least a run spends unless its budget stops it: `rollouts`, or for an adaptive run its pilot
   * round, 2ⁿ × min(32, samplesPerEval). An adaptive run spends between the two, fewer the more
   * coalition values sit near 0 or 1 (on 3 steps about 940 on the pivotal model and 1,030 on the
   * AND model, against 1,712 for the worst case, which is finer than ±0.05 there; a fixed allocation
   * sized for these models in hindsight would spend about as much as the adaptive run).
   */
  pilotRollouts: number
  /**
   * The fewest rollouts from which the values can be estimated at all: every coalition once
   * (exact), or two complete permutation units (permutation: one spread needs two).
   */
  minimumRollouts: number
}

/**
 * The options that decide a Shapley run's plan (also priced by `estimateRollouts`).
 * `samplesPerEval` has no fixed default: it depends on the method and, for `'exact'`, on the steps.
 */
export const shapleyPlanFields = {
  /** Default `'auto'`: `'exact'` up to 10 steps, else `'permutation'`. */
  method: oneOf(['auto', 'exact', 'permutation']).default(DEFAULTS.shapleyMethod),
  /**
   * Default 64. Permutation method: permutations sampled, counting both members of an antithetic
   * pair (so it must be even with `antithetic`, and at least 4: two pairs to estimate a spread).
   */
  permutations: PositiveIntegerField.default(DEFAULTS.shapleyPermutations),
  /**
   * Rollouts per coalition evaluation. Default for `'permutation'`: 1. Default for `'exact'`:
   * adaptive — a pilot of 32 rollouts per coalition, then rollouts go where they narrow the values
   * most until every value is within ±0.05, never more per coalition than the worst case needs (214
   * at 3 steps, 18 at 10; see `exactSamplesPerEval`). Given for `'exact'`, every coalition gets
   * exactly this many.
   */
  samplesPerEval: PositiveIntegerField.optional(),
  /** Default true. Permutation method: sample each permutation together with its reverse. */
  antithetic: BooleanField.default(DEFAULTS.antithetic),
}

/** The plan options, parsed. */
export type ShapleyPlanOptions = z.output<StrictOptions<typeof shapleyPlanFields>>

/** Every plan option at its default: what the matchers' attribution runs with. */
export const SHAPLEY_PLAN_DEFAULTS: ShapleyPlanOptions = z.strictObject(shapleyPlanFields).parse({})

// Annotated with the fragments' types so that their doc comments reach the emitted `.d.ts`.
const shapleyFields: typeof attributionFields & typeof shapleyPlanFields = {
  ...attributionFields,
  ...shapleyPlanFields,
}
const ShapleyOptionsSchema: StrictOptions<typeof shapleyFields> = z.strictObject(shapleyFields)

/** Options of `shapley`. */
export type ShapleyOptions = z.input<typeof ShapleyOptionsSchema>

/** {@link ShapleyOptions} checked, with every default filled in and the plan decided. */
export type ResolvedShapleyOptions = ResolvedAttributionOptions & ShapleyPlan

/** Resolves the options of `shapley` once, naming any option it cannot use. */
export function resolveShapleyOptions(
  target: AgentOrScenario,
  factual: Trajectory,
  options: ShapleyOptions,
): ResolvedShapleyOptions {
  const caller = 'shapley'
  const parsed = parseOptions(caller, ShapleyOptionsSchema, options)
  const shared = resolveAttributionOptions(caller, target, factual, parsed)
  return { ...shared, ...shapleyPlan(caller, factual.steps.length, parsed, shared.confidence) }
}

/**
 * The plan of a Shapley run over `steps` steps (also used to price a run before it starts). Checks
 * what the schema cannot: the method against the step count, the permutations against `antithetic`.
 * `prefix` is where these options sit in the caller's options (`shapley.` for `estimateRollouts`).
 */
export function shapleyPlan(
  caller: string,
  steps: number,
  options: ShapleyPlanOptions,
  confidence: number,
  prefix = '',
): ShapleyPlan {
  const method =
    options.method === 'auto' ? (steps <= EXACT_MAX_STEPS ? 'exact' : 'permutation') : options.method
  if (method === 'exact' && steps > EXACT_MAX_STEPS) {
    throw new InvalidOptionError({
      caller,
      option: `${prefix}method`,
      expected: `'auto' or 'permutation' above ${EXACT_MAX_STEPS} steps ('exact' enumerates 2^n coalitions)`,
      received: `'exact' on a run of ${steps} steps (2^${steps} = ${2 ** steps} coalitions)`,
      hint: "Use method: 'permutation'.",
    })
  }
  if (method === 'exact') {
    const allocation = options.samplesPerEval === undefined ? 'adaptive' : 'fixed'
    const samplesPerEval = options.samplesPerEval ?? exactSamplesPerEval(steps, confidence)
    const evaluations = 2 ** steps
    const rollouts = evaluations * samplesPerEval
    return {
      method,
      permutations: 0,
      samplesPerEval,
      antithetic: false,
      evaluations,
      allocation,
      rollouts,
      pilotRollouts:
        allocation === 'fixed' ? rollouts : evaluations * Math.min(EXACT_PILOT_ROLLOUTS, samplesPerEval),
      minimumRollouts: evaluations,
    }
  }
  const { antithetic, permutations } = options
  if (antithetic && (permutations % 2 !== 0 || permutations < 4)) {
    throw new InvalidOptionError({
      caller,
      option: `${prefix}permutations`,
      expected:
        'even and at least 4 with `antithetic` (it counts both members of each pair, and two pairs estimate a spread)',
      received: String(permutations),
    })
  }
  if (!antithetic && permutations < 2) {
    throw new InvalidOptionError({
      caller,
      option: `${prefix}permutations`,
      expected: 'at least 2, to estimate a spread',
      received: String(permutations),
    })
  }
  const samplesPerEval = options.samplesPerEval ?? DEFAULTS.permutationSamplesPerEval
  const evaluations = permutations * (steps + 1)
  return {
    method,
    permutations,
    samplesPerEval,
    antithetic,
    evaluations,
    allocation: 'fixed',
    rollouts: evaluations * samplesPerEval,
    pilotRollouts: evaluations * samplesPerEval,
    minimumRollouts: 2 * (antithetic ? 2 : 1) * (steps + 1) * samplesPerEval,
  }
}
