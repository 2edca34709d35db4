import { CausalReplayError, RolloutAbortedError } from '../../errors.js'
import { deriveSeed, stepStream } from '../../random/streams.js'
import { hold } from '../../replay/interventions.js'
import { planFor } from '../../replay/plan.js'
import { boundedMeanT, type Interval } from '../../stats/index.js'
import type { Trajectory } from '../../trajectory/schema.js'
import { Arm, ErrorTally, ReplayArms } from '../arms/replay-arms.js'
import type { ShapleyEstimate } from './shapley-estimate.js'
import type { ResolvedShapleyOptions } from './shapley-options.js'

/**
 * Permutation-sampling Shapley values (Castro, Gómez & Tejada 2009) for runs too long to enumerate.
 *
 * Each sampled order of the steps is walked prefix by prefix: v(∅), v({π₁}), v({π₁, π₂}), …, v(N),
 * each replayed afresh with `samplesPerEval` rollouts, and step πⱼ's marginal contribution is
 * v(prefix j) − v(prefix j − 1). **Nothing is cached across permutations**: every permutation pays
 * for its own evaluations, so the permutations are independent and their marginals are i.i.d.
 * draws whose mean is unbiased for φ — the variance the t interval estimates is the whole
 * variance. (Caching v(S) across permutations would reuse one noisy estimate in many marginals and
 * make the spread across permutations understate the error.)
 *
 * Within one permutation every prefix replays with the same seed, so the two coalitions of a
 * marginal are paired rollout by rollout (common random numbers): the marginal's noise is only
 * where holding step πⱼ changed the outcome. Antithetic sampling pairs each permutation with its
 * reverse, which puts a step early in one and late in the other; the pair is one sampling unit,
 * and the interval is Student's t interval over the units' values, adjusted for their bounded, skewed
 * distribution (see `permutationValueInterval`).
 *
 * The efficiency sum v(N) − v(∅) is estimated the same way from each unit's v̂(N) − v̂(∅) (the two
 * end evaluations of a walk share streams), so its point is Σ φ̂ᵢ up to rounding and its interval
 * has the same method as the values'. A budget that stops the run keeps the complete units and
 * drops the rest (their rollouts are counted in `rolloutsUsed`).
 *
 * Memory: a prefix's hold set has up to n steps, so a walk's n + 1 prefixes hold O(n²) indices. They
 * are built as the rollout pool has room for them and dropped once their marginal is tallied, so a
 * run holds O(n) per prefix in flight plus one number per step and complete unit, and a budget
 * that stops the run also stops the building.
 */
export async function permutationShapley(
  factual: Trajectory,
  options: ResolvedShapleyOptions,
): Promise<ShapleyEstimate> {
  const n = factual.steps.length
  const { samplesPerEval, confidence, seed, tools, antithetic } = options
  const membersPerUnit = antithetic ? 2 : 1
  const unitCount = options.permutations / membersPerUnit
  const runner = new ReplayArms({ ...options, caller: 'shapley', total: options.rollouts })
  const tally = new UnitTally(n)
  let unit: PermutationUnit | undefined

  // Unit by unit, member by member, prefix by prefix: the order the budget is charged in, so a
  // budget that runs out leaves whole units done and at most one partial.
  const prefixes = function* (): Generator<PrefixArm> {
    const ordersSeed = deriveSeed(seed, 'shapley/permutations')
    for (let index = 0; index < unitCount; index++) {
      const order = randomOrder(n, stepStream(ordersSeed, index, 0))
      const orders = antithetic ? [order, [...order].reverse()] : [order]
      for (const [member, permutation] of orders.entries()) {
        // One seed per permutation, shared by its prefixes: paired marginals within, independence across.
        const permutationSeed = deriveSeed(seed, `shapley/permutation/${index * membersPerUnit + member}`)
        for (let size = 0; size <= n; size++) {
          const arm = new Arm(planFor(factual, hold(permutation.slice(0, size)), tools), permutationSeed)
          yield { unit: index, permutation, size, arm }
        }
      }
    }
  }

  let evaluations = 0
  const errors = new ErrorTally()
  let held = 0
  let matched = 0
  const settings = { samplesPerEval, window: window(options), signal: options.signal }
  await runInOrder(runner, prefixes(), settings, (prefix) => {
    if (prefix.arm.rolloutsRun > 0) evaluations++
    errors.add(prefix.arm)
    held += prefix.arm.heldSteps
    matched += prefix.arm.matchedSteps
    if (unit?.index !== prefix.unit) {
      if (unit !== undefined) tally.close(unit)
      unit = new PermutationUnit(prefix.unit, n, membersPerUnit)
    }
    unit.add(prefix, samplesPerEval)
  })
  if (unit !== undefined) tally.close(unit)

  const truncated = runner.budgetStopped
  const complete = tally.completeUnits
  const errorReport = errors.report()
  if (complete < 2 && !truncated) {
    const counted =
      errorReport === undefined
        ? 'rollouts ended in errors'
        : `${errorReport.count} of ${errorReport.of} replays errored, the first with ${errorReport.first}`
    throw new CausalReplayError(
      `shapley: only ${complete} of ${unitCount} permutation units had every coalition scored (${counted}); look at the replay errors.`,
    )
  }
  const values =
    complete < 2 ? null : tally.unitValues.map((sample) => permutationValueInterval(sample, confidence))
  return {
    values,
    efficiencySum:
      complete < 2
        ? { point: 0, low: -1, high: 1, confidence, method: 'student-t' }
        : permutationValueInterval(tally.endValues, confidence),
    permutations: complete * membersPerUnit,
    evaluations,
    rolloutsUsed: runner.rolloutsUsed,
    errors: errorReport,
    actionMatchRate: held === 0 ? 1 : matched / held,
    truncated,
    methods: {
      value: permutationValueMethod(complete, antithetic),
      efficiencySum: complete < 2 ? 'not estimated (budget)' : permutationValueMethod(complete, antithetic),
    },
  }
}

/** One coalition evaluation of a permutation walk: the prefix of `size` steps held. */
interface PrefixArm {
  readonly unit: number
  readonly permutation: readonly number[]
  readonly size: number
  readonly arm: Arm
}

/**
 * What one unit (a permutation, or an antithetic pair) contributes, gathered prefix by prefix.
 * Only the previous prefix and the empty one are kept: a marginal needs the prefix before it, and
 * the efficiency sum is the full prefix's rate minus the empty one's.
 */
class PermutationUnit {
  /** Step i's marginals summed over the members, in member order (the order the sums are added in). */
  readonly sums: number[]
  /** v(N) − v(∅) summed over the members. */
  endSum = 0
  private fullyScored = true
  private prefixesAdded = 0
  private empty: Arm | undefined
  private previous: Arm | undefined

  constructor(
    readonly index: number,
    private readonly steps: number,
    readonly members: number,
  ) {
    this.sums = new Array<number>(steps).fill(0)
  }

  /**
   * Every prefix of every member arrived with all its rollouts run and at least one scored. A unit
   * the budget cut short (prefixes never built, or built and refused) or whose prefix only ended
   * in errors is dropped whole.
   */
  get complete(): boolean {
    return this.fullyScored && this.prefixesAdded === this.members * (this.steps + 1)
  }

  add({ permutation, size, arm }: PrefixArm, samplesPerEval: number): void {
    this.prefixesAdded++
    // An incomplete unit's marginals are still summed (as NaN, possibly), then dropped with it.
    if (arm.rolloutsRun !== samplesPerEval || arm.scored().n === 0) this.fullyScored = false
    if (size === 0) {
      this.empty = arm
    } else {
      const step = permutation[size - 1] as number
      const without = this.previous as Arm
      this.sums[step] = (this.sums[step] ?? 0) + rate(arm) - rate(without)
    }
    if (size === permutation.length) this.endSum += rate(arm) - rate(this.empty as Arm)
    this.previous = arm
  }
}

/** The complete units' contributions, merged in unit order: O(steps) plus one number per step and unit. */
class UnitTally {
  completeUnits = 0
  /** unitValues[i][u]: step i's marginal, averaged over the members of complete unit u. */
  readonly unitValues: number[][]
  /** endValues[u]: v(N) − v(∅), averaged over the members of complete unit u. */
  readonly endValues: number[] = []

  constructor(steps: number) {
    this.unitValues = Array.from({ length: steps }, () => [])
  }

  close(unit: PermutationUnit): void {
    if (!unit.complete) return
    this.completeUnits++
    unit.sums.forEach((sum, step) => this.unitValues[step]?.push(sum / unit.members))
    this.endValues.push(unit.endSum / unit.members)
  }
}

/**
 * Prefix arms in flight at once: enough that the pool stays busy while the oldest finishes
 * (at least two arms, about twice `concurrency` rollouts), and no more, since each holds a plan of
 * O(steps).
 */
function window(options: ResolvedShapleyOptions): number {
  return Math.max(2, Math.ceil((2 * options.concurrency) / options.samplesPerEval))
}

/**
 * Runs each prefix arm's rollouts 0 … samplesPerEval − 1, pulling arms from `prefixes` only while
 * fewer than `window` are in flight, and hands finished arms to `done` in the order they were
 * pulled. The pool starts tasks in submission order and arms are submitted in pull order, so the
 * budget is charged in exactly the order of one up-front submission, at any concurrency and window.
 * Once the budget is spent, the signal aborts, or a rollout's scoring throws, no further arm is
 * built; those in flight are drained before returning or throwing. A scoring error is thrown in
 * preference to a cancellation, as one `ReplayArms.run` over every request would.
 */
async function runInOrder(
  runner: ReplayArms,
  prefixes: Iterator<PrefixArm>,
  settings: { samplesPerEval: number; window: number; signal: AbortSignal | undefined },
  done: (prefix: PrefixArm) => void,
): Promise<void> {
  const inFlight: Array<{ prefix: PrefixArm; settled: Promise<{ error: unknown } | undefined> }> = []
  let failure: { error: unknown } | undefined
  const refill = () => {
    while (inFlight.length < settings.window) {
      if (failure !== undefined || runner.budgetStopped || settings.signal?.aborted === true) return
      const next = prefixes.next()
      if (next.done === true) return
      const prefix = next.value
      const settled = runner.run([{ arm: prefix.arm, from: 0, to: settings.samplesPerEval }]).then(
        () => undefined,
        (error: unknown) => ({ error }),
      )
      inFlight.push({ prefix, settled })
    }
  }
  refill()
  for (let head = inFlight.shift(); head !== undefined; head = inFlight.shift()) {
    const outcome = await head.settled
    // A cancellation is raised again below, once everything in flight has drained, so that its
    // message counts every rollout.
    if (outcome !== undefined && !(outcome.error instanceof RolloutAbortedError)) failure ??= outcome
    done(head.prefix)
    refill()
  }
  if (failure !== undefined) throw failure.error
  // Throws the cancellation with every rollout counted, if the signal aborted.
  await runner.run([])
}

/**
 * How the value intervals of a permutation run are computed, as printed in `methods.value`: Student's t
 * with units − 1 degrees of freedom over the sampling units, with a quarter pseudo-unit at each end of
 * the marginals' range [−1, 1].
 */
export function permutationValueMethod(units: number, antithetic: boolean): string {
  const unit = antithetic ? 'antithetic pairs of permutations' : 'permutations'
  return `t over ${units} ${unit} (${units - 1} df), with ¼ pseudo-unit at −1 and at +1 (Agresti–Coull-style, for skewed marginals)`
}

/**
 * One step's value interval from its unit values (one number per complete unit: the step's marginal,
 * averaged over the unit's members, so in [−1, 1]): `boundedMeanT`, Student's t over the units with
 * a quarter pseudo-unit at −1 and at +1. The units are i.i.d. and bounded, but a few dozen of them
 * with a discrete, skewed distribution (marginals mostly 0, with rare ±1) leave plain t short of its
 * level on one side: 89–92% on small values such as −0.06 on an OR model, 91–94% on a majority
 * model, at the default 32 units. The pseudo-units keep the variance from collapsing where the rare
 * marginals were undersampled; the point stays the plain mean, which is unbiased (see the coverage
 * test and `npx tsx bench/shapley.ts`). A step that never changed an outcome keeps a width of about
 * ±0.045 at 32 units.
 */
export function permutationValueInterval(unitValues: readonly number[], confidence: number): Interval {
  return boundedMeanT(unitValues, { range: [-1, 1], confidence })
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
