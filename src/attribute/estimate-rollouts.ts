import { InvalidOptionError } from '../errors.js'
import type { Trajectory } from '../trajectory/schema.js'
import { binarySearchEvaluations, searchFor, type ContrastiveOptions } from './contrastive-options.js'
import { enumOption, positiveIntegerOption } from './options.js'
import { shapleyPlan, type ShapleyOptions, type ShapleyPlan } from './shapley-options.js'

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
   * binary search exceeds its plan only when Holm's relaxed thresholds re-open it (rare).
   */
  maxRollouts: number
}

/** What a Shapley run spends: it is not sequential, so this is exact unless the budget stops it. */
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

/**
 * Prices an attribution before it starts: the rollouts `contrastive` can spend at most (sequential
 * sampling usually spends far fewer) and the rollouts `shapley` spends, for a factual run or a step
 * count. Throws the same InvalidOptionError the attribution would for an unusable option.
 */
export function estimateRollouts(
  factualOrStepCount: Trajectory | number,
  options: EstimateRolloutsOptions = {},
): RolloutPrice {
  const steps =
    typeof factualOrStepCount === 'number' ? factualOrStepCount : factualOrStepCount?.steps?.length
  if (!Number.isInteger(steps) || (steps as number) < 0) {
    throw new InvalidOptionError(
      `estimateRollouts: expected a trajectory or a step count (a non-negative integer), got ${String(factualOrStepCount)}.`,
    )
  }
  const n = steps as number
  const confidence = options.shapley?.confidence ?? 0.95
  if (!(confidence > 0 && confidence < 1)) {
    throw new InvalidOptionError(
      `estimateRollouts: \`shapley.confidence\` must be in (0, 1), got ${String(confidence)}.`,
    )
  }
  const contrastive = contrastiveRollouts(n, options.contrastive ?? {})
  const shapley = shapleyPlan('estimateRollouts', n, options.shapley ?? {}, confidence)
  // Without steps there is nothing to replay: both attributions return at once.
  if (n === 0) {
    return {
      steps: 0,
      contrastive: { ...contrastive, plannedRollouts: 0, maxRollouts: 0 },
      shapley: { ...shapley, evaluations: 0, rollouts: 0 },
    }
  }
  return { steps: n, contrastive, shapley }
}

/** The price of a contrastive attribution over `steps` steps. */
export function contrastiveRollouts(
  steps: number,
  options: Pick<ContrastiveOptions, 'rollouts' | 'search'>,
): ContrastivePrice {
  const rolloutsPerStep = positiveIntegerOption('estimateRollouts', 'rollouts', options.rollouts ?? 32)
  const search = searchFor(
    steps,
    enumOption('estimateRollouts', 'search', options.search ?? 'auto', ['linear', 'binary', 'auto']),
  )
  const stepEvaluations = search === 'linear' ? steps : Math.min(steps, binarySearchEvaluations(steps))
  return {
    search,
    rolloutsPerStep,
    stepEvaluations,
    plannedRollouts: (stepEvaluations + 1) * rolloutsPerStep,
    maxRollouts: (steps + 1) * rolloutsPerStep,
  }
}
