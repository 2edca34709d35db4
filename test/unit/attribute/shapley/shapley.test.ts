import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { estimateRollouts, shapley, type ShapleyResult } from '../../../../src/entries/attribution.js'
import { ShapleyResultSchema } from '../../../../src/entries/schemas.js'
import { Budget, defineAgent, type Trajectory } from '../../../../src/index.js'
import { record } from '../../../../src/entries/replay.js'
import { InvalidOptionError } from '../../../../src/entries/errors.js'
import { andAgent, pivotalAgent, returnedBad } from '../../../../examples/synthetic/scms.js'
import { failingRun, isPlantedBad, plantedScm } from '../../../scm/planted.js'
import { formatShapley } from '../../../../src/text/attribution.js'
import { firstBadRun, flakyPivotalAgent } from '../fixtures.js'
import { coverageCheck } from '../../../binomial-check.js'

const and = andAgent(0.3)
// The AND SCM: v(∅) = q², v({a}) = v({b}) = q, v({a, b}) = 1 ⇒ φ = ((1 − q²)/2, (1 − q²)/2, 0), sum 0.91.
const AND_VALUE = (1 - 0.3 ** 2) / 2

function valid(result: ShapleyResult): ShapleyResult {
  expect(ShapleyResultSchema.safeParse(result).success).toBe(true)
  return result
}

function sumOfValues(result: ShapleyResult): number {
  return result.steps.reduce((sum, step) => sum + step.value, 0)
}

describe('shapley on the AND-interaction SCM', () => {
  it.each([
    ['exact, 960 rollouts per coalition (the same 7,680 rollouts)', { method: 'exact', samplesPerEval: 960 }],
    [
      'permutation, 80 × 12, antithetic (the reference workload)',
      { method: 'permutation', permutations: 80, samplesPerEval: 12 },
    ],
  ] as const)(
    '%s: within 0.05 of 0.455 for a and b, |φ(reply)| < 0.03, sum within 0.05 of 0.91, ≤ 7,680 rollouts',
    async (_, options) => {
      for (const seed of [1, 2, 3]) {
        const factual = await firstBadRun(and, seed)
        const result = valid(await shapley(and, factual, { isBad: returnedBad, seed, ...options }))
        const [a, b, reply] = result.steps
        expect(Math.abs((a?.value ?? 0) - AND_VALUE)).toBeLessThan(0.05)
        expect(Math.abs((b?.value ?? 0) - AND_VALUE)).toBeLessThan(0.05)
        expect(Math.abs(reply?.value ?? 1)).toBeLessThan(0.03)
        expect(Math.abs(result.efficiencySum.point - 0.91)).toBeLessThan(0.05)
        expect(result.rolloutsUsed).toBeLessThanOrEqual(7680)
        expect(result.truncated).toBe(false)
        // Efficiency: the values add up to the efficiency sum.
        expect(sumOfValues(result)).toBeCloseTo(result.efficiencySum.point, 10)
        expect(result.steps.length).toBeGreaterThan(0)
        for (const step of result.steps) {
          expect(step.low).toBeLessThanOrEqual(step.value)
          expect(step.value).toBeLessThanOrEqual(step.high)
          expect(step.high).toBeGreaterThan(step.low)
        }
      }
    },
  )

  it('exact enumeration (the default at 3 steps) evaluates all 8 coalitions, allocating rollouts until ±0.05', async () => {
    const factual = await firstBadRun(and, 1)
    const result = valid(await shapley(and, factual, { isBad: returnedBad, seed: 1 }))
    // Re-pinned when the allocation became adaptive: 1,712 rollouts (214 for every coalition) before;
    // now a pilot of 32 each, then Neyman-allocated rounds, never more than 214 for one coalition.
    expect(result).toMatchObject({
      method: 'exact',
      evaluations: 8,
      samplesPerEval: 214,
      rolloutsUsed: 1114,
      permutations: 0,
      truncated: false,
    })
    expect(result.rolloutsUsed).toBeLessThanOrEqual(estimateRollouts(factual).shapley.rollouts)
    expect(result.rolloutsUsed).toBeGreaterThanOrEqual(estimateRollouts(factual).shapley.pilotRollouts)
    expect(result.methods?.value).toMatch(
      /^MOVER .*Neyman-allocated in rounds until every value is within ±0.05$/,
    )
    expect(result.efficiencySum.method).toBe('newcombe')
    expect(result.actionMatchRate).toBe(1)
    // The stopping rule: every value within ±0.05 of its point, on both sides.
    expect(result.steps.length).toBeGreaterThan(0)
    for (const step of result.steps) {
      expect(step.value - step.low).toBeLessThanOrEqual(0.05)
      expect(step.high - step.value).toBeLessThanOrEqual(0.05)
    }
  })

  it.each([
    ['exact (MOVER-Wilson), 30 rollouts per coalition', { method: 'exact', samplesPerEval: 30 }],
    [
      'permutation (t over antithetic pairs), 16 × 2',
      { method: 'permutation', permutations: 16, samplesPerEval: 2 },
    ],
  ] as const)(
    '%s: intervals at confidence 0.95 cover the true values as designed in 1,100 seeds',
    async (_, options) => {
      // The README's model end to end: each of the three values and the efficiency sum must cover in
      // at least 1,024 of 1,100 seeded runs, which catches an interval covering 92% with
      // probability 0.901 and fails intervals covering exactly 95% with 0.0092 (Bonferroni over the
      // four). Observed: exact 1,053 / 1,049 / 1,071 and 1,050 for the sum; permutation 1,098 /
      // 1,100 / 1,100 and 1,100.
      const design = coverageCheck(1100, 0.95, { checks: 4 })
      const factual = await firstBadRun(and, 1)
      const covered = [0, 0, 0]
      let sumCovered = 0
      for (let seed = 0; seed < design.runs; seed++) {
        const result = await shapley(and, factual, { isBad: returnedBad, seed: 500 + seed, ...options })
        for (const [index, truth] of [AND_VALUE, AND_VALUE, 0].entries()) {
          const step = result.steps[index]
          if (step !== undefined && step.low <= truth && truth <= step.high)
            covered[index] = (covered[index] ?? 0) + 1
        }
        if (result.efficiencySum.low <= 0.91 && 0.91 <= result.efficiencySum.high) sumCovered++
      }
      for (const count of covered) expect(count).toBeGreaterThanOrEqual(design.limit)
      expect(sumCovered).toBeGreaterThanOrEqual(design.limit)
    },
  )

  it('permutation sampling walks n + 1 fresh prefixes per permutation, with nothing cached', async () => {
    const factual = await firstBadRun(and, 1)
    const result = valid(
      await shapley(and, factual, {
        isBad: returnedBad,
        seed: 1,
        method: 'permutation',
        permutations: 80,
        samplesPerEval: 12,
      }),
    )
    expect(result).toMatchObject({
      method: 'permutation',
      permutations: 80,
      antithetic: true,
      evaluations: 320,
    })
    expect(result.rolloutsUsed).toBe(80 * 4 * 12)
    expect(result.efficiencySum.method).toBe('student-t')
    expect(result.methods?.efficiencySum).toBe(result.methods?.value)
    // `reply` never changes an outcome: its marginals are all 0, and the interval keeps width.
    expect(result.steps[2]?.value).toBe(0)
    expect(result.steps[2]?.high).toBeGreaterThan(0)
  })
})

describe('shapley on other ground truths', () => {
  it('gives the pivotal SCM (0, 1 − p, 0)', async () => {
    const pivotal = pivotalAgent(0.3)
    const factual = await firstBadRun(pivotal, 2)
    const result = valid(await shapley(pivotal, factual, { isBad: returnedBad, seed: 2 }))
    expect(result.steps.map((step) => step.value)).toEqual([
      expect.closeTo(0, 1),
      expect.closeTo(0.7, 1),
      expect.closeTo(0, 1),
    ])
    for (const [index, truth] of [0, 0.7, 0].entries()) {
      expect(result.steps[index]?.low).toBeLessThanOrEqual(truth)
      expect(result.steps[index]?.high).toBeGreaterThanOrEqual(truth)
    }
  })

  it('credits the planted pivot with (1 − p)·F on a long run (permutation) and the rest with ~0', async () => {
    const scm = plantedScm(5, { minLength: 14, maxLength: 14, tailProbability: 1 })
    const factual = await failingRun(scm)
    const result = valid(
      await shapley(scm.agent, factual, { isBad: isPlantedBad, seed: 5, samplesPerEval: 4 }),
    )
    expect(result.method).toBe('permutation')
    const pivot = result.steps[scm.pivot]
    expect(pivot?.low).toBeLessThanOrEqual(scm.shapley[scm.pivot] as number)
    expect(pivot?.high).toBeGreaterThanOrEqual(scm.shapley[scm.pivot] as number)
    const others = result.steps.filter((step) => step.index !== scm.pivot)
    expect(Math.max(...others.map((step) => Math.abs(step.value)))).toBeLessThan(0.05)
    expect(result.efficiencySum.low).toBeLessThanOrEqual(scm.efficiencySum)
    expect(result.efficiencySum.high).toBeGreaterThanOrEqual(scm.efficiencySum)
  })

  it('counts rollouts that end in an error but never scores them', async () => {
    const factual = await firstBadRun(flakyPivotalAgent, 2)
    const result = valid(
      await shapley(flakyPivotalAgent, factual, { isBad: returnedBad, seed: 2, samplesPerEval: 100 }),
    )
    expect(result.rolloutsUsed).toBe(800)
    expect(result.steps[1]?.value).toBeCloseTo(0.7, 1)
    // Coalitions that do not hold `reply` redraw it, and it crashes a quarter of the time.
    expect(result.errors?.of).toBe(800)
    expect(result.errors?.count).toBeGreaterThan(50)
    expect(result.errors?.count).toBeLessThan(150)
    expect(result.errors?.first).toBe('Error: the reply tool crashed')
    expect(formatShapley(result)).toContain(
      `${result.errors?.count} of 800 replays errored (Error: the reply tool crashed) over the coalitions: never scored, so each coalition's P(bad) is estimated on its replays that ran`,
    )
  })
})

describe('determinism', () => {
  it.each([
    ['exact', { samplesPerEval: 20 }],
    ['exact, adaptive allocation', {}],
    ['permutation', { method: 'permutation', permutations: 16, samplesPerEval: 2 }],
  ] as const)(
    '%s: byte-identical JSON at concurrency 1 and 8, even with an async judge',
    async (_, options) => {
      const factual = await firstBadRun(and, 3)
      const judge = async (trajectory: Trajectory) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2))
        return returnedBad(trajectory)
      }
      const one = JSON.stringify(
        await shapley(and, factual, { isBad: judge, seed: 9, concurrency: 1, ...options }),
      )
      const eight = JSON.stringify(
        await shapley(and, factual, { isBad: judge, seed: 9, concurrency: 8, ...options }),
      )
      expect(eight).toBe(one)
    },
  )
})

describe('budget', () => {
  it('exact: a spent budget leaves every coalition with about the same rollouts and wider intervals', async () => {
    const factual = await firstBadRun(and, 1)
    const budget = new Budget({ maxRollouts: 100 })
    const result = valid(await shapley(and, factual, { isBad: returnedBad, seed: 1, budget }))
    const full = await shapley(and, factual, { isBad: returnedBad, seed: 1 })
    expect(result).toMatchObject({ truncated: true, rolloutsUsed: 100, evaluations: 8 })
    expect(budget.remainingRollouts).toBe(0)
    expect(result.steps).toHaveLength(3)
    const width = (r: ShapleyResult) => (r.steps[0]?.high ?? 0) - (r.steps[0]?.low ?? 0)
    expect(width(result)).toBeGreaterThan(width(full))
  })

  it('exact: with less than one rollout per coalition left it spends nothing and reports no values', async () => {
    const factual = await firstBadRun(and, 1)
    const budget = new Budget({ maxRollouts: 7 })
    const result = valid(await shapley(and, factual, { isBad: returnedBad, seed: 1, budget }))
    expect(result).toMatchObject({ truncated: true, steps: [], rolloutsUsed: 0, minimumRollouts: 8 })
    expect(budget.spentRollouts).toBe(0)
  })

  it('exact: with exactly one rollout per coalition left it runs, and reports values', async () => {
    const factual = await firstBadRun(and, 1)
    const result = valid(
      await shapley(and, factual, { isBad: returnedBad, seed: 1, budget: { maxRollouts: 8 } }),
    )
    expect(result).toMatchObject({ truncated: true, rolloutsUsed: 8, evaluations: 8 })
    expect(result.steps).toHaveLength(3)
  })

  it('permutation: keeps the complete permutation units and drops the partial one', async () => {
    const factual = await firstBadRun(and, 1)
    const options = {
      isBad: returnedBad,
      seed: 1,
      method: 'permutation',
      permutations: 40,
      samplesPerEval: 3,
    } as const
    // One antithetic unit is 2 permutations × 4 prefixes × 3 rollouts = 24 rollouts.
    const result = valid(await shapley(and, factual, { ...options, budget: { maxRollouts: 24 * 5 + 10 } }))
    expect(result).toMatchObject({ truncated: true, permutations: 10, rolloutsUsed: 130 })
    expect(result.steps).toHaveLength(3)
    // Two units (48 rollouts) are the least that estimates a spread; one rollout fewer starts nothing.
    const short = valid(await shapley(and, factual, { ...options, budget: { maxRollouts: 47 } }))
    expect(short).toMatchObject({ truncated: true, steps: [], rolloutsUsed: 0, minimumRollouts: 48 })
  })
})

describe('option errors', () => {
  it('name the option and say what it accepts', async () => {
    const factual = await firstBadRun(and, 1)
    const isBad = returnedBad
    await expect(shapley(and, factual, { isBad, method: 'permutation', permutations: 7 })).rejects.toThrow(
      'shapley: `permutations` must be even and at least 4 with `antithetic` (it counts both members of each pair, and two pairs estimate a spread), got 7.',
    )
    await expect(shapley(and, factual, { isBad, method: 'magic' as never })).rejects.toThrow(
      "shapley: `method` must be 'auto', 'exact' or 'permutation', got a string \"magic\".",
    )
    await expect(shapley(and, factual, { isBad, samplesPerEval: 0 })).rejects.toThrow(
      'shapley: `samplesPerEval` must be a positive integer, got 0.',
    )
    await expect(
      shapley(and, factual, { isBad, method: 'permutation', antithetic: false, permutations: 1 }),
    ).rejects.toThrow('shapley: `permutations` must be at least 2, to estimate a spread, got 1.')
    await expect(shapley(and, factual, { isBad, permutation: 8 } as never)).rejects.toThrow(
      /^shapley: unknown option `permutation`\. It accepts: isBad, .*, method, permutations, samplesPerEval, antithetic\.$/,
    )
    await expect(shapley(and, factual, { isBad, antithetic: null } as never)).rejects.toThrow(
      'shapley: `antithetic` must be true or false, got null.',
    )
    const long = plantedScm(1, { minLength: 12, maxLength: 12 })
    const error = await shapley(long.agent, await failingRun(long), {
      isBad: isPlantedBad,
      method: 'exact',
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidOptionError)
    expect(error).toMatchObject({
      caller: 'shapley',
      option: 'method',
      received: "'exact' on a run of 12 steps (2^12 = 4096 coalitions)",
      hint: "Use method: 'permutation'.",
      message:
        "shapley: `method` must be 'auto' or 'permutation' above 10 steps ('exact' enumerates 2^n coalitions), got 'exact' on a run of 12 steps (2^12 = 4096 coalitions). Use method: 'permutation'.",
    })
  })

  it('returns an exact zero efficiency sum for a run without steps, at no cost', async () => {
    const factual = { ...(await record(and, { seed: 1 })), steps: [] }
    expect(valid(await shapley(and, factual, { isBad: returnedBad }))).toMatchObject({
      steps: [],
      rolloutsUsed: 0,
      efficiencySum: { point: 0, low: 0, high: 0 },
    })
  })
})

describe('invariants', () => {
  it('hold for any planted SCM, seed and method: efficiency, ordered intervals, the price paid', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          scm: fc.nat(10_000),
          seed: fc.nat(10_000),
          method: fc.constantFrom('exact' as const, 'permutation' as const),
          samplesPerEval: fc.integer({ min: 1, max: 3 }),
          pairs: fc.integer({ min: 2, max: 6 }),
        }),
        async ({ scm: scmSeed, seed, method, samplesPerEval, pairs }) => {
          const scm = plantedScm(scmSeed, { maxLength: 6 })
          const factual = await failingRun(scm)
          const options = { method, samplesPerEval, permutations: 2 * pairs }
          const result = valid(await shapley(scm.agent, factual, { isBad: isPlantedBad, seed, ...options }))
          expect(result.steps).toHaveLength(scm.length)
          expect(sumOfValues(result)).toBeCloseTo(result.efficiencySum.point, 10)
          for (const step of result.steps) {
            expect(step.low).toBeLessThanOrEqual(step.value)
            expect(step.value).toBeLessThanOrEqual(step.high)
          }
          expect(result.rolloutsUsed).toBe(estimateRollouts(factual, { shapley: options }).shapley.rollouts)
        },
      ),
      { seed: 22, numRuns: 30 },
    )
  })
})

describe('permutation: coalitions built as the pool needs them', () => {
  // Results computed before the prefix arms were built lazily: the same seeds must still give them.
  // The interval ends of steps with spread were re-pinned when the unit interval moved from z = 1.96
  // to Student's t (units − 1 df), and again when ¼ pseudo-unit went to each end of [−1, 1] and the
  // efficiency sum moved from Tango over rollout pairs to the same interval over the units: the same
  // points, much wider intervals at these 3–5 units, where the pseudo-units weigh most.
  const pinned = (result: ShapleyResult) => ({
    steps: result.steps.map((step) => [step.value, step.low, step.high]),
    efficiencySum: [result.efficiencySum.point, result.efficiencySum.low, result.efficiencySum.high],
    permutations: result.permutations,
    evaluations: result.evaluations,
    rolloutsUsed: result.rolloutsUsed,
    truncated: result.truncated,
  })

  it('gives the results it gave when every prefix was built up front (budget-truncated, and with a unit dropped for errors)', async () => {
    const factual = await firstBadRun(and, 3)
    const truncated = await shapley(and, factual, {
      isBad: returnedBad,
      seed: 9,
      method: 'permutation',
      permutations: 16,
      samplesPerEval: 2,
      budget: { maxRollouts: 83 },
    })
    expect(pinned(truncated)).toEqual({
      steps: [
        [0.45, -0.07968752973137005, 0.8978693479131883],
        [0.55, -0.0030523410130722795, 1],
        [0, -0.394626723566798, 0.394626723566798],
      ],
      efficiencySum: [1, 0.36383573363179955, 1],
      permutations: 10,
      evaluations: 42,
      rolloutsUsed: 83,
      truncated: true,
    })
    const flakyFactual = await firstBadRun(flakyPivotalAgent, 2)
    const flaky = await shapley(flakyPivotalAgent, flakyFactual, {
      isBad: returnedBad,
      seed: 2,
      method: 'permutation',
      permutations: 8,
      samplesPerEval: 2,
    })
    // One of the four units had a prefix whose rollouts all ended in errors: 6 permutations remain.
    expect(pinned(flaky)).toEqual({
      steps: [
        [0, -1, 1],
        [0.75, -0.6093099999943391, 1],
        [0.08333333333333333, -1, 1],
      ],
      // Σ φ̂ᵢ: each unit's v̂(N) − v̂(∅) is the sum of its marginals (Tango over the pooled rollout
      // pairs read 0.8 here, the rollouts of the error-ridden prefix weighing differently).
      efficiencySum: [0.8333333333333334, -0.618275548312245, 1],
      permutations: 6,
      evaluations: 32,
      rolloutsUsed: 64,
      truncated: false,
    })
  })

  it('does not start a 2,000-step run whose budget cannot pay for two permutation units', async () => {
    const length = 2000
    const agent = defineAgent({
      name: 'long-cheap',
      input: {},
      async run(_input, ctx) {
        let decision = 'good'
        for (let step = 0; step < length; step++) {
          const action = await ctx.step('draw', (rng) => (rng() < 0.3 ? 'bad' : 'good'))
          if (step === 3) decision = action
        }
        return decision
      },
    })
    let factual: Trajectory | undefined
    for (let rollout = 0; factual === undefined; rollout++) {
      const run = await record(agent, { seed: 1, rollout, maxSteps: length })
      if (returnedBad(run)) factual = run
    }
    const result = valid(
      await shapley(agent, factual, {
        isBad: returnedBad,
        seed: 1,
        maxSteps: length,
        budget: { maxRollouts: 50 },
      }),
    )
    expect(result.method).toBe('permutation')
    // Two antithetic units of 2,001 prefixes are 8,004 rollouts: the 50 would buy no value at all.
    expect(result).toMatchObject({ truncated: true, steps: [], rolloutsUsed: 0, minimumRollouts: 8004 })
  })
})
