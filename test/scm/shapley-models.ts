import { defineAgent, type Agent } from '../../src/index.js'
import { shapleyCoefficients } from '../../src/attribute/shapley/shapley-allocation.js'

/**
 * Binary-step models with exact Shapley values, for checking the coverage of Shapley intervals on
 * skewed, interacting and small values (and for the bench). Each step is "bad" (1) or "good" (0);
 * step j redraws bad with probability `badProbability(j, earlier)` given the actions before it, and
 * the run's outcome is `isBad(actions)`. `factual` is the failing run being explained.
 *
 * Every coalition value v(S) = P(bad | hold(S)) is computed exactly by enumerating the 2ⁿ action
 * vectors, so the Shapley values are exact to rounding: no Monte Carlo ground truth.
 */
export interface StepModel {
  readonly name: string
  readonly steps: number
  readonly factual: readonly number[]
  badProbability(step: number, earlier: readonly number[]): number
  isBad(actions: readonly number[]): boolean
}

/** Steps that redraw bad independently, step j with probability q (or q[j]). */
function independent(
  name: string,
  q: number | readonly number[],
  factual: readonly number[],
  isBad: (actions: readonly number[]) => boolean,
): StepModel {
  const badProbability = (step: number) => (typeof q === 'number' ? q : (q[step] as number))
  return { name, steps: factual.length, factual, badProbability, isBad }
}

const count = (actions: readonly number[]) => actions.reduce((sum, action) => sum + action, 0)

/** The models the coverage test and the Shapley bench run on (none of them is the README's pivotal or AND SCM). */
export const SHAPLEY_MODELS: readonly StepModel[] = [
  // Bad iff all three steps are bad: the values are equal and large, the unit values mostly 0 and 1.
  independent('AND-3 (q = 0.5)', 0.5, [1, 1, 1], (actions) => count(actions) === 3),
  // Bad iff any step is bad; only step 0 failed, the three good steps get small negative values.
  independent('OR-4 (q = 0.2)', 0.2, [1, 0, 0, 0], (actions) => count(actions) > 0),
  // Bad iff at least three of five are bad; steps 3 and 4 were good and get negative values.
  independent('majority-5 (q = 0.4)', 0.4, [1, 1, 1, 0, 0], (actions) => count(actions) >= 3),
  // A chain: a bad step makes the next bad with probability 0.7 (0.1 after a good one); the run is
  // bad iff the last step is. Early steps get small values, late ones large.
  {
    name: 'chain-6 (0.3, then 0.7 / 0.1)',
    steps: 6,
    factual: [1, 1, 1, 1, 1, 1],
    badProbability: (step, earlier) => (step === 0 ? 0.3 : earlier[step - 1] === 1 ? 0.7 : 0.1),
    isBad: (actions) => actions[5] === 1,
  },
  // Bad iff (a and b) or c; c was good and, redrawn, is bad 10% of the time: φ_c ≈ −0.05.
  independent(
    '(a ∧ b) ∨ c, c rare (q = 0.5, 0.5, 0.1)',
    [0.5, 0.5, 0.1],
    [1, 1, 0],
    (actions) => (actions[0] === 1 && actions[1] === 1) || actions[2] === 1,
  ),
]

/** The action step `step` takes in a rollout whose uniform draw for it is `draw`, given the earlier actions. */
export function actionOf(
  model: StepModel,
  step: number,
  held: boolean,
  draw: number,
  earlier: readonly number[],
): number {
  if (held) return model.factual[step] as number
  return draw < model.badProbability(step, earlier) ? 1 : 0
}

/** v(S) = P(bad | hold(S)) for every coalition, by bit mask, exactly. */
export function coalitionValues(model: StepModel): number[] {
  const values: number[] = []
  for (let mask = 0; mask < 2 ** model.steps; mask++) {
    let value = 0
    const walk = (actions: number[], probability: number): void => {
      const step = actions.length
      if (step === model.steps) {
        if (model.isBad(actions)) value += probability
        return
      }
      if (mask & (1 << step)) return walk([...actions, model.factual[step] as number], probability)
      const bad = model.badProbability(step, actions)
      if (bad > 0) walk([...actions, 1], probability * bad)
      if (bad < 1) walk([...actions, 0], probability * (1 - bad))
    }
    walk([], 1)
    values.push(value)
  }
  return values
}

/** The exact Shapley values, φᵢ = Σ_S c_iS·v(S). */
export function exactShapleyValues(model: StepModel): number[] {
  const values = coalitionValues(model)
  return shapleyCoefficients(model.steps).map((row) =>
    row.reduce((sum, coefficient, mask) => sum + coefficient * (values[mask] as number), 0),
  )
}

/** The model as an agent the engine can run: step j draws once from its stream. */
export function stepModelAgent(model: StepModel): Agent<Record<string, never>, 'bad' | 'good'> {
  return defineAgent({
    name: model.name,
    input: {},
    async run(_input, ctx) {
      const actions: number[] = []
      for (let step = 0; step < model.steps; step++) {
        const earlier = [...actions]
        const action = await ctx.step(`s${step}`, (rng) =>
          rng() < model.badProbability(step, earlier) ? 'bad' : 'good',
        )
        actions.push(action === 'bad' ? 1 : 0)
      }
      return model.isBad(actions) ? 'bad' : 'good'
    },
  })
}

/** One simulated permutation run's sampling units, as `permutationShapley` gathers them. */
export interface SimulatedUnits {
  /** unitValues[i][u]: step i's marginal, averaged over the members of unit u. */
  readonly unitValues: number[][]
  /** endValues[u]: v(N) − v(∅) in unit u, averaged over its members. */
  readonly endValues: number[]
  /** The (full, empty) outcome pairs of every member, as a paired 2 × 2 table (n12: only the full one bad). */
  readonly endPairs: PairTable
  /** stepPairs[i]: every (with step i, without it) outcome pair of consecutive prefixes, as a 2 × 2 table. */
  readonly stepPairs: PairTable[]
}

/** Paired outcomes of two coalitions in the same rollouts: n12 counts the first bad, the second not. */
export interface PairTable {
  n11: number
  n12: number
  n21: number
  n22: number
}

function addPair(table: PairTable, first: number, second: number): void {
  if (first === 1) table[second === 1 ? 'n11' : 'n12']++
  else table[second === 1 ? 'n21' : 'n22']++
}

/**
 * The sampling units of a permutation Shapley run at `samplesPerEval` = 1, drawn the way the engine
 * draws them, without the engine: a uniformly random order and its reverse (antithetic), each
 * member with its own rollout, whose step j draws one uniform shared by every prefix of the walk
 * (common random numbers, as one seed per permutation gives: a step's stream depends on the seed,
 * rollout and step, not on what is held). A unit value is the mean of the members' marginals.
 * Thousands of runs take a second, against minutes through the engine; the coverage test checks
 * that the two agree.
 */
export function simulatePermutationUnits(
  model: StepModel,
  units: number,
  random: () => number,
): SimulatedUnits {
  const n = model.steps
  const unitValues: number[][] = Array.from({ length: n }, () => [])
  const endValues: number[] = []
  const endPairs: PairTable = { n11: 0, n12: 0, n21: 0, n22: 0 }
  const stepPairs: PairTable[] = Array.from({ length: n }, () => ({ n11: 0, n12: 0, n21: 0, n22: 0 }))
  const outcome = (held: ReadonlySet<number>, draws: readonly number[]) => {
    const actions: number[] = []
    for (let step = 0; step < n; step++)
      actions.push(actionOf(model, step, held.has(step), draws[step] as number, actions))
    return model.isBad(actions) ? 1 : 0
  }
  for (let unit = 0; unit < units; unit++) {
    const order = Array.from({ length: n }, (_, step) => step)
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[order[i], order[j]] = [order[j] as number, order[i] as number]
    }
    const sums = new Array<number>(n).fill(0)
    let endSum = 0
    for (const permutation of [order, [...order].reverse()]) {
      const draws = Array.from({ length: n }, () => random())
      const held = new Set<number>()
      const empty = outcome(held, draws)
      let previous = empty
      for (const step of permutation) {
        held.add(step)
        const current = outcome(held, draws)
        sums[step] = (sums[step] as number) + current - previous
        addPair(stepPairs[step] as PairTable, current, previous)
        previous = current
      }
      endSum += previous - empty
      addPair(endPairs, previous, empty)
    }
    sums.forEach((sum, step) => unitValues[step]?.push(sum / 2))
    endValues.push(endSum / 2)
  }
  return { unitValues, endValues, endPairs, stepPairs }
}
