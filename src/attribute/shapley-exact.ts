import { CausalReplayError } from '../errors.js'
import { deriveSeed } from '../random/streams.js'
import { hold } from '../replay/interventions.js'
import { planFor } from '../replay/plan.js'
import { newcombe, twoSidedZ, wilsonLimits, type Interval } from '../stats/index.js'
import type { Trajectory } from '../trajectory/schema.js'
import { actionMatchRate, Arm, ReplayArms, type ArmRequest } from './replay-arms.js'
import type { ShapleyEstimate } from './shapley-estimate.js'
import type { ResolvedShapleyOptions } from './shapley-options.js'
import { shapleyWeight } from './shapley-weights.js'

/** Printed in `methods.value` of an exact run. */
export const EXACT_VALUE_METHOD = 'MOVER with Wilson limits (Zou & Donner 2008), independent coalitions'

/**
 * Exact Shapley values over the n steps: every coalition S (the steps held at their factual action)
 * is replayed `samplesPerEval` times to estimate v(S) = P(bad | hold(S)), and
 *
 *   φᵢ = Σ_{S ∌ i} w(|S|)·(v(S ∪ {i}) − v(S)),   w(k) = k!(n − 1 − k)!/n!,
 *
 * a fixed linear combination Σ c_S·v(S) of the 2ⁿ estimates. Each coalition gets its own seed, so the
 * estimates are independent binomials and Var φ̂ᵢ = Σ c_S²·v(S)(1 − v(S))/m exactly — no covariance
 * terms to estimate. (Common random numbers across coalitions would cut that variance but make the
 * formula need every covariance; independence keeps it exact.) The interval is the MOVER for a
 * linear combination of independent proportions (Zou & Donner 2008; Zou, Huang & Zhang 2009): the
 * distance from each estimate to its Wilson limit stands in for its standard error, on the side
 * the coefficient's sign asks for. At a single difference it is Newcombe's method 10; unlike a
 * plug-in normal interval it keeps its width when coalition estimates are 0 or 1.
 *
 * The efficiency sum v(N) − v(∅) uses Newcombe's interval (the two coalitions are independent);
 * the point equals Σ φ̂ᵢ exactly. Rollouts go round-robin over the coalitions (rollout 0 of every
 * coalition, then rollout 1, …), so a budget that stops the run leaves every coalition with about
 * the same number of rollouts and the values are still estimated, with wider intervals.
 */
export async function exactShapley(
  factual: Trajectory,
  options: ResolvedShapleyOptions,
): Promise<ShapleyEstimate> {
  const n = factual.steps.length
  const { samplesPerEval, confidence, seed, tools } = options
  const coalitions = Array.from({ length: 2 ** n }, (_, mask) => {
    const held = stepsOf(mask, n)
    return new Arm(planFor(factual, hold(held), tools), deriveSeed(seed, `shapley/coalition/${mask}`))
  })
  const runner = new ReplayArms({ ...options, caller: 'shapley', total: options.rollouts })
  const requests: ArmRequest[] = []
  for (let rollout = 0; rollout < samplesPerEval; rollout++) {
    for (const arm of coalitions) requests.push({ arm, from: rollout, to: rollout + 1 })
  }
  await runner.run(requests)
  const truncated = runner.budgetStopped

  const estimates = coalitions.map((arm) => arm.scored())
  const full = estimates[2 ** n - 1] ?? { bad: 0, n: 0 }
  const empty = estimates[0] ?? { bad: 0, n: 0 }
  const unscored = estimates.findIndex((estimate) => estimate.n === 0)
  if (unscored !== -1 && !truncated) {
    throw new CausalReplayError(
      `shapley: every rollout of coalition hold([${stepsOf(unscored, n).join(',')}]) ended in an error, so its P(bad) is unknown; look at the replay errors (replay(agent, factual, hold([...]))).`,
    )
  }
  return {
    values:
      unscored === -1
        ? Array.from({ length: n }, (_, player) => exactValue(player, n, estimates, confidence))
        : null,
    efficiencySum: newcombe(full.bad, full.n, empty.bad, empty.n, confidence),
    permutations: 0,
    evaluations: coalitions.filter((arm) => arm.rolloutsRun > 0).length,
    rolloutsUsed: runner.rolloutsUsed,
    actionMatchRate: actionMatchRate(coalitions),
    truncated,
    methods: { value: EXACT_VALUE_METHOD, efficiencySum: 'newcombe' },
  }
}

/** φ of one player with its MOVER interval, from the coalition estimates indexed by bit mask. */
function exactValue(
  player: number,
  players: number,
  estimates: ReadonlyArray<{ bad: number; n: number }>,
  confidence: number,
): Interval {
  const z = twoSidedZ(confidence)
  const bit = 1 << player
  let point = 0
  // Squared distances to the Wilson limits on the side that lowers (below) or raises (above) φ.
  let below = 0
  let above = 0
  for (let mask = 0; mask < estimates.length; mask++) {
    const size = popCount(mask)
    // A coalition with the player enters with +w(|S| − 1), one without it with −w(|S|).
    const coefficient = mask & bit ? shapleyWeight(players, size - 1) : -shapleyWeight(players, size)
    const { bad, n } = estimates[mask] as { bad: number; n: number }
    const p = bad / n
    const limits = wilsonLimits(bad, n, z)
    point += coefficient * p
    const down = coefficient * (coefficient > 0 ? p - limits.low : limits.high - p)
    const up = coefficient * (coefficient > 0 ? limits.high - p : p - limits.low)
    below += down * down
    above += up * up
  }
  return { point, low: point - Math.sqrt(below), high: point + Math.sqrt(above), confidence, method: 'exact' }
}

/** The steps in a coalition bit mask, ascending. */
export function stepsOf(mask: number, steps: number): number[] {
  const held: number[] = []
  for (let step = 0; step < steps; step++) if (mask & (1 << step)) held.push(step)
  return held
}

function popCount(mask: number): number {
  let count = 0
  for (let rest = mask; rest !== 0; rest &= rest - 1) count++
  return count
}
