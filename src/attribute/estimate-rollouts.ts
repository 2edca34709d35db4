import { z } from 'zod'
import { InvalidOptionError } from '../errors.js'
import { DEFAULTS } from '../options/defaults.js'
import { ConfidenceField, PositiveIntegerField } from '../options/fields.js'
import { parseOptions, type DescribesSchema } from '../options/parse-options.js'
import { describeReceived } from '../options/received.js'
import type { Trajectory } from '../trajectory/schema.js'
import {
  binarySearchEvaluations,
  searchFor,
  SearchField,
  type ContrastiveOptions,
  type ContrastiveSearch,
} from './contrastive/contrastive-options.js'
import {
  shapleyPlan,
  shapleyPlanFields,
  type ShapleyOptions,
  type ShapleyPlan,
} from './shapley/shapley-options.js'

/** What a contrastive attribution can spend, before it starts. */
export interface ContrastivePrice {
  search: 'linear' | 'binary'
  rolloutsPerStep: number
  /** Steps the search evaluates at most: n (linear), ⌈log₂(n + 1)⌉ (binary, unless Holm re-opens it). */
  stepEvaluations: number
  /** (stepEvaluations + 1) × rolloutsPerStep: the search's worst case, baseline included. */
  plannedRollouts: number
  /**
   * (n + 1) × rolloutsPerStep: a hard upper bound. Equal to `plannedRollouts` for linear search; a
   * binary search exceeds its plan when Holm's relaxed thresholds re-open it, when a probe ends
   * undecided and the search comes back to it, or when it extends the undecided step after its
   * latest rescue to twice `rolloutsPerStep` (more often on noisy replays). It extends only within
   * n × rolloutsPerStep, counting every step it could still evaluate, so the bound holds.
   */
  maxRollouts: number
}

/**
 * What a Shapley run spends. Exact unless the budget stops it for a fixed allocation (permutation,
 * or exact with `samplesPerEval`); for the default adaptive exact run, `rollouts` is the upper
 * bound (the worst case, every coalition value at 1/2) and `pilotRollouts` the least it spends.
 */
export type ShapleyPrice = ShapleyPlan

/** The price of both attributions of one run. */
export interface RolloutPrice {
  steps: number
  contrastive: ContrastivePrice
  shapley: ShapleyPrice
}

/** Options of {@link estimateRollouts}: the attribution options that decide the price. */
export interface EstimateRolloutsOptions {
  contrastive?: Pick<ContrastiveOptions, 'rollouts' | 'search'>
  shapley?: Pick<ShapleyOptions, 'method' | 'permutations' | 'samplesPerEval' | 'antithetic' | 'confidence'>
}

// `.prefault({})`: an absent group is parsed as an empty one, so its defaults fill in.
const EstimateRolloutsOptionsSchema = z.strictObject({
  contrastive: z
    .strictObject({
      rollouts: PositiveIntegerField.default(DEFAULTS.contrastiveRollouts),
      search: SearchField.default(DEFAULTS.search),
    })
    .prefault({}),
  shapley: z
    .strictObject({ ...shapleyPlanFields, confidence: ConfidenceField.default(DEFAULTS.confidence) })
    .prefault({}),
})
const _sameOptions: DescribesSchema<EstimateRolloutsOptions, typeof EstimateRolloutsOptionsSchema> = true

/**
 * Prices an attribution before it starts, for a factual run or a step count: the rollouts
 * `contrastive` can spend at most (sequential sampling usually spends far fewer) and the rollouts
 * `shapley` spends. Shapley's `rollouts` is exact for a fixed allocation and an upper bound for the
 * default exact run, which allocates rollouts adaptively and spends between `pilotRollouts` and
 * `rollouts` (on 3 steps: between 256 and 1,712; about 940 on the pivotal model, 1,030 on the AND
 * model). Throws the same InvalidOptionError the attribution would for an unusable option.
 */
export function estimateRollouts(
  factualOrStepCount: Trajectory | number,
  options: EstimateRolloutsOptions = {},
): RolloutPrice {
  const caller = 'estimateRollouts'
  const steps =
    typeof factualOrStepCount === 'number' ? factualOrStepCount : factualOrStepCount?.steps?.length
  if (steps === undefined || !Number.isInteger(steps) || steps < 0) {
    throw new InvalidOptionError({
      caller,
      option: 'factualOrStepCount',
      expected: 'a trajectory or a step count (a non-negative integer)',
      received: describeReceived(factualOrStepCount),
    })
  }
  const parsed = parseOptions(caller, EstimateRolloutsOptionsSchema, options)
  const contrastive = contrastiveRollouts(steps, parsed.contrastive)
  const shapley = shapleyPlan(caller, steps, parsed.shapley, parsed.shapley.confidence, 'shapley.')
  // Without steps there is nothing to replay: both attributions return at once.
  if (steps === 0) {
    return {
      steps: 0,
      contrastive: { ...contrastive, plannedRollouts: 0, maxRollouts: 0 },
      shapley: { ...shapley, evaluations: 0, rollouts: 0, pilotRollouts: 0 },
    }
  }
  return { steps, contrastive, shapley }
}

/** The price of a contrastive attribution over `steps` steps, for options already checked. */
export function contrastiveRollouts(
  steps: number,
  options: { rollouts?: number; search?: ContrastiveSearch },
): ContrastivePrice {
  const rolloutsPerStep = options.rollouts ?? DEFAULTS.contrastiveRollouts
  const search = searchFor(steps, options.search ?? DEFAULTS.search)
  const stepEvaluations = search === 'linear' ? steps : Math.min(steps, binarySearchEvaluations(steps))
  return {
    search,
    rolloutsPerStep,
    stepEvaluations,
    plannedRollouts: (stepEvaluations + 1) * rolloutsPerStep,
    maxRollouts: (steps + 1) * rolloutsPerStep,
  }
}
