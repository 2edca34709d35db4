import type { AgentOrScenario } from '../../agent/define-agent.js'
import type { Trajectory } from '../../trajectory/schema.js'
import type { ShapleyResult } from '../schema.js'
import type { ShapleyEstimate } from './shapley-estimate.js'
import { exactShapley } from './shapley-exact.js'
import { resolveShapleyOptions, type ResolvedShapleyOptions, type ShapleyOptions } from './shapley-options.js'
import { permutationShapley } from './shapley-permutation.js'

/**
 * Shapley attribution: splits v(N) − v(∅) between the steps, where a coalition S is the
 * set of steps held at their factual action and v(S) = P(bad | hold(S)) is estimated by replaying
 * `factual` under `hold(S)`. Where contrastive effects over-count steps that only cause the failure
 * together (each gets the full effect), Shapley values add up to the efficiency sum.
 *
 * `method: 'exact'` (the default up to 10 steps) enumerates all 2ⁿ coalitions with independent
 * seeds, so each value is a fixed linear combination of independent binomial estimates with an
 * exact variance; by default it allocates rollouts to coalitions in rounds until every value is
 * within ±0.05 (see `exactShapley`); `'permutation'` samples orders of the steps, antithetic pairs
 * by default, with no caching across permutations and a Student t interval over permutation units (see
 * `permutationShapley`). Use `estimateRollouts` to price either before running it.
 *
 * Budget: a spent budget stops the run cleanly and returns the values from the work done with
 * `truncated: true` (exact: within each round of the allocation, coalitions are filled round-robin
 * so every one has about the same rollouts; permutation: complete units only). If the work done cannot estimate the values at all
 * (a coalition without a scored rollout, fewer than two permutation units), `steps` is empty; and
 * when the budget left cannot pay even for that much (`minimumRollouts`), nothing is spent. It
 * does not throw a BudgetExceededError. Rollouts that end in an error are counted in
 * `rolloutsUsed` and never scored.
 *
 * Deterministic: the same seed gives a byte-identical result at any concurrency.
 */
export async function shapley(
  target: AgentOrScenario,
  factual: Trajectory,
  options: ShapleyOptions,
): Promise<ShapleyResult> {
  return shapleyResolved(factual, resolveShapleyOptions(target, factual, options))
}

/** {@link shapley} on options already resolved (the matchers' attribution resolves them once). */
export async function shapleyResolved(
  factual: Trajectory,
  resolved: ResolvedShapleyOptions,
): Promise<ShapleyResult> {
  const estimate =
    factual.steps.length === 0
      ? withoutSteps(resolved.confidence)
      : resolved.budget.remainingRollouts < resolved.minimumRollouts
        ? unaffordable(resolved.confidence)
        : resolved.method === 'exact'
          ? await exactShapley(factual, resolved)
          : await permutationShapley(factual, resolved)
  return {
    kind: 'shapley',
    agent: factual.agent,
    factual: { seed: factual.seed, rollout: factual.rollout },
    seed: resolved.seed,
    steps:
      estimate.values?.map((value, index) => ({
        index,
        name: factual.steps[index]?.name ?? '',
        action: factual.steps[index]?.action ?? null,
        value: value.point,
        low: value.low,
        high: value.high,
      })) ?? [],
    efficiencySum: estimate.efficiencySum,
    method: resolved.method,
    allocation: resolved.allocation,
    permutations: estimate.permutations,
    samplesPerEval: resolved.samplesPerEval,
    antithetic: resolved.antithetic,
    confidence: resolved.confidence,
    evaluations: estimate.evaluations,
    rolloutsUsed: estimate.rolloutsUsed,
    ...(estimate.errors === undefined ? {} : { errors: estimate.errors }),
    truncated: estimate.truncated,
    minimumRollouts: resolved.minimumRollouts,
    actionMatchRate: estimate.actionMatchRate,
    methods: estimate.methods,
  }
}

/**
 * A budget that cannot pay for the least work that estimates the values: nothing is spent (at
 * 2,000 steps, two antithetic units are 8,004 rollouts, and a budget of 200 would buy nothing).
 */
function unaffordable(confidence: number): ShapleyEstimate {
  return {
    values: null,
    efficiencySum: { point: 0, low: -1, high: 1, confidence, method: 'tango' },
    permutations: 0,
    evaluations: 0,
    rolloutsUsed: 0,
    actionMatchRate: 1,
    truncated: true,
    methods: { value: 'not estimated (budget)', efficiencySum: 'tango (no rollouts)' },
  }
}

/** A run without steps: N = ∅, so v(N) − v(∅) is exactly 0 and there is nothing to replay. */
function withoutSteps(confidence: number): ShapleyEstimate {
  return {
    values: [],
    efficiencySum: { point: 0, low: 0, high: 0, confidence, method: 'exact' },
    permutations: 0,
    evaluations: 0,
    rolloutsUsed: 0,
    actionMatchRate: 1,
    truncated: false,
    methods: { value: 'exact', efficiencySum: 'exact (no steps: v(N) = v(∅))' },
  }
}
