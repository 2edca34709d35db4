import { CausalReplayError } from '../../errors.js'
import { deriveSeed } from '../../random/streams.js'
import { hold } from '../../replay/interventions.js'
import { planFor } from '../../replay/plan.js'
import { newcombe } from '../../stats/index.js'
import type { Trajectory } from '../../trajectory/schema.js'
import { actionMatchRate, Arm, ErrorTally, ReplayArms, type ArmRequest } from '../arms/replay-arms.js'
import {
  EXACT_PILOT_ROLLOUTS,
  EXACT_VALUE_METHOD,
  exactValueInterval,
  nextAllocation,
  shapleyCoefficients,
} from './shapley-allocation.js'
import type { ShapleyEstimate } from './shapley-estimate.js'
import type { ResolvedShapleyOptions } from './shapley-options.js'
import { EXACT_TARGET_HALF_WIDTH } from './shapley-weights.js'

/**
 * Exact Shapley values over the n steps: every coalition S (the steps held at their factual action)
 * is replayed to estimate v(S) = P(bad | hold(S)), and
 *
 *   φᵢ = Σ_{S ∌ i} w(|S|)·(v(S ∪ {i}) − v(S)),   w(k) = k!(n − 1 − k)!/n!,
 *
 * a fixed linear combination Σ c_S·v(S) of the 2ⁿ estimates. Each coalition gets its own seed, so the
 * estimates are independent binomials and Var φ̂ᵢ = Σ c_S²·v(S)(1 − v(S))/m_S exactly — no covariance
 * terms to estimate. (Common random numbers across coalitions would cut that variance but make the
 * formula need every covariance; independence keeps it exact.) The interval is the MOVER for a
 * linear combination of independent proportions (Zou & Donner 2008; Zou, Huang & Zhang 2009): the
 * distance from each estimate to its Wilson limit stands in for its standard error, on the side
 * the coefficient's sign asks for. At a single difference it is Newcombe's method 10; unlike a
 * plug-in normal interval it keeps its width when coalition estimates are 0 or 1.
 *
 * How many rollouts each coalition gets (`allocation`):
 * - `'adaptive'` (the default): in rounds. A pilot of 32 rollouts per coalition, then rollouts are
 *   allocated where they narrow the values most (Neyman allocation by each coalition's coefficients
 *   and estimated SD, see `nextAllocation`) until every value's interval is within ±0.05 of its
 *   point, never more than `samplesPerEval` (the worst-case size) for one coalition. A coalition
 *   with no variance (P(bad) = 1 when a pivotal step is held) gets fewer. On the pivotal and AND
 *   models this spends 1.82× and 1.67× fewer rollouts than the worst-case fixed allocation (which
 *   reaches ±0.035–0.037 there), but about as many as a fixed allocation sized in hindsight for
 *   ±0.05 (1.01–1.02×; `npx tsx bench/shapley.ts`): the saving is the stopping rule. Each
 *   round's allocation is decided from completed rounds only, and a coalition's rollouts extend
 *   its index range under its own seed, so the rollouts run do not depend on timing.
 * - `'fixed'` (when `samplesPerEval` is given): `samplesPerEval` rollouts for every coalition.
 *
 * The efficiency sum v(N) − v(∅) uses Newcombe's interval (the two coalitions are independent);
 * the point equals Σ φ̂ᵢ exactly. Within a round, rollouts go round-robin over the coalitions
 * (rollout k of every coalition that needs one, then rollout k + 1, …), so a budget that stops the
 * run leaves every coalition with about the same number of rollouts beyond the previous round and
 * the values are still estimated, with wider intervals.
 */
export async function exactShapley(
  factual: Trajectory,
  options: ResolvedShapleyOptions,
): Promise<ShapleyEstimate> {
  const n = factual.steps.length
  const { samplesPerEval, confidence, seed, tools } = options
  const coefficients = shapleyCoefficients(n)
  const coalitions = Array.from({ length: 2 ** n }, (_, mask) => {
    const held = stepsOf(mask, n)
    return new Arm(planFor(factual, hold(held), tools), deriveSeed(seed, `shapley/coalition/${mask}`))
  })
  const runner = new ReplayArms({ ...options, caller: 'shapley', total: options.rollouts })
  if (options.allocation === 'fixed') {
    await runRound(
      runner,
      coalitions.map(() => samplesPerEval),
      coalitions,
    )
  } else {
    const settings = {
      players: n,
      confidence,
      maxPerCoalition: samplesPerEval,
      halfWidth: EXACT_TARGET_HALF_WIDTH,
    }
    let targets = coalitions.map(() => Math.min(EXACT_PILOT_ROLLOUTS, samplesPerEval))
    while (await runRound(runner, targets, coalitions)) {
      if (runner.budgetStopped) break
      const estimates = coalitions.map((arm) => arm.scored())
      // A coalition with nothing scored (every rollout an error) cannot be allocated for; it is
      // reported below.
      if (estimates.some((estimate) => estimate.n === 0)) break
      const next = nextAllocation(estimates, settings, coefficients)
      if (next === null) break
      // The targets count scored rollouts; an error outcome is made up for, within the cap.
      targets = next.map((want, mask) => {
        const arm = coalitions[mask] as Arm
        return Math.min(samplesPerEval, arm.requested + want - (estimates[mask]?.n ?? 0))
      })
    }
  }
  const truncated = runner.budgetStopped

  const estimates = coalitions.map((arm) => arm.scored())
  const full = estimates[2 ** n - 1] ?? { bad: 0, n: 0 }
  const empty = estimates[0] ?? { bad: 0, n: 0 }
  const unscored = estimates.findIndex((estimate) => estimate.n === 0)
  const errors = new ErrorTally()
  for (const arm of coalitions) errors.add(arm)
  if (unscored !== -1 && !truncated) {
    const unscoredErrors = (coalitions[unscored] as Arm).errors()
    const first = unscoredErrors === undefined ? '' : ` (${unscoredErrors.first})`
    throw new CausalReplayError(
      `shapley: every rollout of coalition hold([${stepsOf(unscored, n).join(',')}]) ended in an error${first}, so its P(bad) is unknown; look at the replay errors (replay(agent, factual, hold([...]))).`,
    )
  }
  return {
    values:
      unscored === -1 ? coefficients.map((row) => exactValueInterval(row, estimates, confidence)) : null,
    efficiencySum: newcombe(full.bad, full.n, empty.bad, empty.n, confidence),
    permutations: 0,
    evaluations: coalitions.filter((arm) => arm.rolloutsRun > 0).length,
    rolloutsUsed: runner.rolloutsUsed,
    errors: errors.report(),
    actionMatchRate: actionMatchRate(coalitions),
    truncated,
    methods: {
      value:
        options.allocation === 'fixed'
          ? EXACT_VALUE_METHOD
          : `${EXACT_VALUE_METHOD}, rollouts Neyman-allocated in rounds until every value is within ±${EXACT_TARGET_HALF_WIDTH}`,
      efficiencySum: 'newcombe',
    },
  }
}

/**
 * Runs each coalition's rollouts up to its target (its `requested` count after the round), rollout
 * index by rollout index across the coalitions, so a budget that stops the round leaves them even.
 * Returns whether any rollout was requested.
 */
async function runRound(
  runner: ReplayArms,
  targets: readonly number[],
  coalitions: readonly Arm[],
): Promise<boolean> {
  const requests: ArmRequest[] = []
  const from = coalitions.map((arm) => arm.requested)
  const last = Math.max(0, ...targets)
  for (let rollout = Math.min(...from); rollout < last; rollout++) {
    coalitions.forEach((arm, mask) => {
      if ((from[mask] as number) <= rollout && rollout < (targets[mask] as number))
        requests.push({ arm, from: rollout, to: rollout + 1 })
    })
  }
  if (requests.length === 0) return false
  await runner.run(requests)
  return true
}

/** The steps in a coalition bit mask, ascending. */
export function stepsOf(mask: number, steps: number): number[] {
  const held: number[] = []
  for (let step = 0; step < steps; step++) if (mask & (1 << step)) held.push(step)
  return held
}
