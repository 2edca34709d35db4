import { CausalReplayError } from '../errors.js'
import { deriveSeed, stepStream } from '../random/streams.js'
import { hold } from '../replay/interventions.js'
import { planFor } from '../replay/plan.js'
import { cltMean, tango, type Interval } from '../stats/index.js'
import type { Trajectory } from '../trajectory/schema.js'
import { actionMatchRate, Arm, pairedCounts, ReplayArms } from './replay-arms.js'
import type { ShapleyEstimate } from './shapley-estimate.js'
import type { ResolvedShapleyOptions } from './shapley-options.js'

/**
 * Permutation-sampling Shapley values (Castro, Gómez & Tejada 2009) for runs too long to enumerate.
 *
 * Each sampled order of the steps is walked prefix by prefix: v(∅), v({π₁}), v({π₁, π₂}), …, v(N),
 * each replayed afresh with `samplesPerEval` rollouts, and step πⱼ's marginal contribution is
 * v(prefix j) − v(prefix j − 1). **Nothing is cached across permutations**: every permutation pays
 * for its own evaluations, so the permutations are independent and their marginals are i.i.d.
 * draws whose mean is unbiased for φ — the variance the CLT interval estimates is the whole
 * variance. (Caching v(S) across permutations would reuse one noisy estimate in many marginals and
 * make the spread across permutations understate the error.)
 *
 * Within one permutation every prefix replays with the same seed, so the two coalitions of a
 * marginal are paired rollout by rollout (common random numbers): the marginal's noise is only
 * where holding step πⱼ changed the outcome. Antithetic sampling pairs each permutation with its
 * reverse, which puts a step early in one and late in the other; the pair is one sampling unit,
 * and the interval is the CLT interval over the units' values. Where every unit gives the same value
 * (a step that never changed an outcome), the CLT interval would collapse to a point, so Tango's
 * paired score interval over all the step's rollout pairs is reported instead (it keeps width).
 *
 * The efficiency sum v(N) − v(∅) is Tango's interval over every (permutation, rollout) pair of the
 * two end evaluations, which share streams; its point is exactly Σ φ̂ᵢ. A budget that stops the run
 * keeps the complete units and drops the rest (their rollouts are counted in `rolloutsUsed`).
 */
export async function permutationShapley(
  factual: Trajectory,
  options: ResolvedShapleyOptions,
): Promise<ShapleyEstimate> {
  const n = factual.steps.length
  const { samplesPerEval, confidence, seed, tools, antithetic } = options
  const membersPerUnit = antithetic ? 2 : 1
  const units = Array.from({ length: options.permutations / membersPerUnit }, (_, unit) => {
    const order = randomOrder(n, stepStream(deriveSeed(seed, 'shapley/permutations'), unit, 0))
    const orders = antithetic ? [order, [...order].reverse()] : [order]
    return orders.map((permutation, member) => {
      // One seed per permutation, shared by its prefixes: paired marginals within, independence across.
      const permutationSeed = deriveSeed(seed, `shapley/permutation/${unit * membersPerUnit + member}`)
      const prefixes = Array.from(
        { length: n + 1 },
        (_, size) => new Arm(planFor(factual, hold(permutation.slice(0, size)), tools), permutationSeed),
      )
      return { permutation, prefixes }
    })
  })
  const runner = new ReplayArms({ ...options, caller: 'shapley', total: options.rollouts })
  // Unit by unit, so a budget that runs out leaves whole units done and at most one partial.
  await runner.run(
    units.flatMap((members) =>
      members.flatMap(({ prefixes }) => prefixes.map((arm) => ({ arm, from: 0, to: samplesPerEval }))),
    ),
  )
  const truncated = runner.budgetStopped
  const complete = units.filter((members) =>
    members.every(({ prefixes }) =>
      prefixes.every((arm) => arm.rolloutsRun === samplesPerEval && arm.scored().n > 0),
    ),
  )
  if (complete.length < 2 && !truncated) {
    throw new CausalReplayError(
      `shapley: only ${complete.length} of ${units.length} permutation units had every coalition scored (rollouts ended in errors); look at the replay errors.`,
    )
  }

  // unitValues[i][u]: step i's marginal, averaged over the members of unit u.
  const unitValues: number[][] = Array.from({ length: n }, () => [])
  const pooled = Array.from({ length: n }, () => ({ n11: 0, n12: 0, n21: 0, n22: 0 }))
  const ends = { n11: 0, n12: 0, n21: 0, n22: 0 }
  for (const members of complete) {
    const sums = new Array<number>(n).fill(0)
    for (const { permutation, prefixes } of members) {
      permutation.forEach((step, position) => {
        const withStep = prefixes[position + 1] as Arm
        const without = prefixes[position] as Arm
        sums[step] = (sums[step] ?? 0) + rate(withStep) - rate(without)
        addPairs(pooled[step] as typeof ends, withStep, without)
      })
      addPairs(ends, prefixes[n] as Arm, prefixes[0] as Arm)
    }
    sums.forEach((sum, step) => unitValues[step]?.push(sum / members.length))
  }
  const values =
    complete.length < 2
      ? null
      : unitValues.map((sample, step) => unitInterval(sample, pooled[step] as typeof ends, confidence))
  return {
    values,
    efficiencySum: tango(ends, confidence),
    permutations: complete.length * membersPerUnit,
    evaluations: units
      .flat()
      .reduce((sum, { prefixes }) => sum + prefixes.filter((arm) => arm.rolloutsRun > 0).length, 0),
    rolloutsUsed: runner.rolloutsUsed,
    actionMatchRate: actionMatchRate(units.flat().flatMap(({ prefixes }) => prefixes)),
    truncated,
    methods: {
      value: `clt over ${complete.length} ${antithetic ? 'antithetic pairs of permutations' : 'permutations'} (tango over pooled rollout pairs where every unit agrees)`,
      efficiencySum: 'tango',
    },
  }
}

/** The CLT interval over units, or Tango's over the pooled pairs where the units show no spread. */
function unitInterval(
  sample: readonly number[],
  pairs: { n11: number; n12: number; n21: number; n22: number },
  confidence: number,
): Interval {
  const clt = cltMean(sample, confidence)
  if (clt.high > clt.low) return clt
  const paired = tango(pairs, confidence)
  return {
    ...paired,
    point: clt.point,
    low: Math.min(paired.low, clt.point),
    high: Math.max(paired.high, clt.point),
  }
}

function addPairs(
  table: { n11: number; n12: number; n21: number; n22: number },
  first: Arm,
  second: Arm,
): void {
  const counts = pairedCounts(first, second)
  table.n11 += counts.n11
  table.n12 += counts.worse
  table.n21 += counts.better
  table.n22 += counts.n22
}

function rate(arm: Arm): number {
  const { bad, n } = arm.scored()
  return bad / n
}

/** A uniformly random order of 0 … n − 1 (Fisher–Yates). */
function randomOrder(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, index) => index)
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[order[i], order[j]] = [order[j] as number, order[i] as number]
  }
  return order
}
