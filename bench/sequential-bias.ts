/**
 * Sequential-bias benchmark. Prints measured biases with intervals; asserts nothing.
 *
 *   npx tsx bench/sequential-bias.ts [runs per model, default 400]
 *
 * A sequential arm stops as soon as its evidence is strong, and strong evidence comes early when the
 * first pairs happen to exaggerate the effect: the point estimate at the stop leans away from zero
 * (the classic bias of group-sequential estimates). The intervals are confidence sequences and keep
 * their coverage at any stopping time; the point does not come with that guarantee. This measures the
 * bias of `contrastive`'s effect points against the known truth, over seeded runs:
 * - the pivotal SCM (p = 0.3): effects (−0.70, −0.70, 0);
 * - the AND SCM (q = 0.3): effects (−0.91, −0.70, 0), Σ|τ| = 1.61;
 * with the defaults (CRN, sequential, at most K = 32 per arm) and with `sequential: false` at the
 * same K (every arm runs all 32 rollouts: its point is an unbiased difference of two means).
 * Each mean comes with a 95% CLT interval over the seeds (runs are independent: one seed each).
 * Both designs replay the same seed, so their first rollouts are the same draws: the per-run
 * difference sequential − fixed isolates what early stopping does, with a much tighter interval.
 *
 * The same for a sequential gate ("≤ 5%" at 95%, at most 400 rollouts): over seeded gate runs on
 * coins of known rates, the mean rate at the stop and how often each interval covers the truth —
 * the confidence sequence the gate prints (two-sided 90%, each end a one-sided 95% bound) beside a
 * 95% Wilson interval read at the same stop, which the gate printed before.
 */
import { contrastive } from '../src/entries/attribution.js'
import type { Trajectory } from '../src/index.js'
import { record } from '../src/entries/replay.js'
import { andAgent, pivotalAgent, returnedBad } from '../examples/synthetic/scms.js'
import type { AgentOrScenario } from '../src/agent/define-agent.js'
import { defineAgent } from '../src/index.js'
import { Budget } from '../src/rollout/budget.js'
import { wilson } from '../src/stats/wilson.js'
import { runSequentialGate } from '../src/verdict/sequential-gate.js'

const RUNS = Number(process.argv[2] ?? 400)
const ROLLOUTS = 32
const Z = 1.959963984540054

interface Model {
  readonly name: string
  readonly agent: AgentOrScenario
  readonly truth: readonly number[]
}

const MODELS: readonly Model[] = [
  { name: 'pivotal (p = 0.3)', agent: pivotalAgent(0.3), truth: [-0.7, -0.7, 0] },
  { name: 'AND (q = 0.3)', agent: andAgent(0.3), truth: [-0.91, -0.7, 0] },
]

async function firstBadRun(agent: AgentOrScenario, seed: number): Promise<Trajectory> {
  for (let rollout = 0; rollout < 10_000; rollout++) {
    const trajectory = await record(agent, { seed, rollout })
    if (returnedBad(trajectory)) return trajectory
  }
  throw new Error(`no bad run under seed ${seed}`)
}

/** Mean with its 95% CLT interval, as "−0.717 [−0.722, −0.712]". */
function meanInterval(values: readonly number[]): { mean: number; text: string } {
  const n = values.length
  const mean = values.reduce((sum, value) => sum + value, 0) / n
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1)
  const half = Z * Math.sqrt(variance / n)
  const signed = (value: number) => (value >= 0 ? '+' : '') + value.toFixed(3)
  return { mean, text: `${signed(mean)} [${signed(mean - half)}, ${signed(mean + half)}]` }
}

for (const model of MODELS) {
  const steps = model.truth.length
  // points[design][step][run]; the last "step" is Σ|τ|.
  const points = { sequential: [] as number[][], fixed: [] as number[][] }
  for (const design of ['sequential', 'fixed'] as const) {
    for (let step = 0; step <= steps; step++) points[design].push([])
  }
  const stops: number[] = []
  for (let seed = 0; seed < RUNS; seed++) {
    const factual = await firstBadRun(model.agent, seed)
    for (const design of ['sequential', 'fixed'] as const) {
      const result = await contrastive(model.agent, factual, {
        isBad: returnedBad,
        seed,
        rollouts: ROLLOUTS,
        sequential: design === 'sequential',
      })
      let total = 0
      for (const step of result.steps) {
        points[design][step.index]?.push(step.effect.point)
        total += Math.abs(step.effect.point)
        if (design === 'sequential' && step.index === 1) stops.push(step.rolloutsUsed)
      }
      points[design][steps]?.push(total)
    }
  }
  const truthTotal = model.truth.reduce((sum, value) => sum + Math.abs(value), 0)
  console.log(`\n${model.name}: ${RUNS} seeded runs, K ≤ ${ROLLOUTS}, CRN; mean [95% CLT CI] over runs`)
  console.log(
    `  ${'effect'.padEnd(10)}${'truth'.padStart(8)}   ${'sequential (early-stopped)'.padEnd(30)}${'bias'.padStart(8)}   ${'fixed K = 32'.padEnd(30)}${'bias'.padStart(8)}   sequential − fixed (paired)`,
  )
  for (let step = 0; step <= steps; step++) {
    const truth = step === steps ? truthTotal : (model.truth[step] as number)
    const sequential = meanInterval(points.sequential[step] as number[])
    const fixed = meanInterval(points.fixed[step] as number[])
    const label = step === steps ? 'Σ|τ|' : `τ${step}`
    const fixedPoints = points.fixed[step] as number[]
    const paired = meanInterval(
      (points.sequential[step] as number[]).map((value, run) => value - (fixedPoints[run] as number)),
    )
    console.log(
      `  ${label.padEnd(10)}${truth.toFixed(3).padStart(8)}   ${sequential.text.padEnd(30)}${(sequential.mean - truth).toFixed(3).padStart(8)}   ${fixed.text.padEnd(30)}${(fixed.mean - truth).toFixed(3).padStart(8)}   ${paired.text}`,
    )
  }
  const meanStop = stops.reduce((sum, value) => sum + value, 0) / stops.length
  console.log(`  step 1 stopped after ${meanStop.toFixed(1)} rollouts on average (fixed: ${ROLLOUTS})`)
}

/** A coin agent: its one step is "bad" with probability p. */
function coin(p: number) {
  return defineAgent({
    name: `coin(${p})`,
    input: {},
    async run(_input, ctx) {
      return ctx.step('decide', (rng) => (rng() < p ? 'bad' : 'good'))
    },
  })
}

console.log(`\nsequential gate "≤ 5%" at 95% (maxRollouts 400): ${RUNS} seeded runs per true rate`)
console.log(
  `  ${'true rate'.padEnd(10)}${'mean point at the stop'.padEnd(34)}${'mean rollouts'.padStart(14)}   ${'covers: printed 90% CS'.padEnd(24)}95% Wilson at the stop`,
)
for (const truth of [0.01, 0.03, 0.1, 0.2]) {
  const points: number[] = []
  const used: number[] = []
  let sequence = 0
  let fixed = 0
  for (let seed = 0; seed < RUNS; seed++) {
    const { verdict } = await runSequentialGate(
      coin(truth).on({}),
      { agent: 'coin', predicate: (t) => t.output === 'bad', label: 'bad', seedSource: 'option' },
      {
        confidence: 0.95,
        seed,
        execution: { concurrency: 1, timeoutMs: 10_000, maxSteps: 100, budget: new Budget() },
        attribute: false,
        allowErrors: false,
        label: undefined,
        passK: [],
        claim: 'rarely',
        direction: 'atMost',
        bound: 0.05,
        maxRollouts: 400,
        minRollouts: 0,
        onInconclusive: 'fail',
        per: 'dataset',
      },
    )
    const { observed } = verdict
    points.push(observed.point)
    used.push(observed.n)
    if (observed.low <= truth && truth <= observed.high) sequence++
    const interval = wilson(observed.successes, observed.n, 0.95)
    if (interval.low <= truth && truth <= interval.high) fixed++
  }
  const share = (count: number) => `${((100 * count) / RUNS).toFixed(1)}%`
  const meanUsed = used.reduce((sum, value) => sum + value, 0) / RUNS
  console.log(
    `  ${`${(truth * 100).toFixed(0)}%`.padEnd(10)}${meanInterval(points).text.padEnd(34)}${meanUsed.toFixed(1).padStart(14)}   ${share(sequence).padEnd(24)}${share(fixed)}`,
  )
}
