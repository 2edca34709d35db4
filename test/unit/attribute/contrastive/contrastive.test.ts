import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { contrastive, type ContrastiveResult } from '../../../../src/entries/attribution.js'
import { ContrastiveResultSchema } from '../../../../src/entries/schemas.js'
import { Budget, defineAgent, type Trajectory } from '../../../../src/index.js'
import { record } from '../../../../src/entries/replay.js'
import { InvalidOptionError } from '../../../../src/entries/errors.js'
import { accountOf } from '../../../../src/rollout/budget.js'
import { formatContrastive } from '../../../../src/text/attribution.js'
import { clopperPearson } from '../../../../src/stats/clopper-pearson.js'
import { andAgent, pivotalAgent, returnedBad } from '../../../../examples/synthetic/scms.js'
import { failingRun, isPlantedBad, plantedScm } from '../../../scm/planted.js'
import { carefulAndFailed, firstBadRun, flakyPivotalAgent, worseningAgent } from '../fixtures.js'
import { coverageCheck } from '../../../binomial-check.js'

const pivotal = pivotalAgent(0.3)

function valid(result: ContrastiveResult): ContrastiveResult {
  expect(ContrastiveResultSchema.safeParse(result).success).toBe(true)
  return result
}

describe('contrastive on the pivotal SCM (effects (p − 1, p − 1, 0), locus 1)', () => {
  it('finds locus 1 in at least 99% of 400 seeds with at most 32 rollouts per step, and step 2 never rescues', async () => {
    // At least 391 of 400 must name step 1: catches 96% accuracy with probability 0.960, and fails
    // 99% with 0.0078. Observed: 400 of 400 (and 1,000 of the first 1,000 seeds).
    const accuracy = coverageCheck(400, 0.99)
    let correct = 0
    const effects: number[][] = [[], [], []]
    for (let seed = 0; seed < accuracy.runs; seed++) {
      const factual = await firstBadRun(pivotal, seed)
      const result = valid(await contrastive(pivotal, factual, { isBad: returnedBad, rollouts: 32, seed }))
      if (result.locus === 1) correct++
      expect(result.steps.map((step) => step.index)).toEqual([0, 1, 2])
      // Never, not at most α: `reply` changes no outcome (its mean effect is exactly 0, below), so
      // with common random numbers its two arms score the same rollouts and any rescue is a defect,
      // and a correct search never fails this. A step called a rescue in 10% (2α) of runs shows in
      // 400 with probability 1 − 0.9⁴⁰⁰ ≈ 1; one in 1% of runs, with 1 − 0.99⁴⁰⁰ = 0.982.
      expect(result.steps[2]?.direction).not.toBe('rescues')
      for (const step of result.steps) {
        expect(step.rolloutsUsed).toBeLessThanOrEqual(32)
        effects[step.index]?.push(step.effect.point)
      }
      expect(result.baseline.n).toBeLessThanOrEqual(32)
      expect(result.actionMatchRate).toBe(1)
    }
    expect(correct).toBeGreaterThanOrEqual(accuracy.limit)
    expect(effects.map((values) => values.length)).toEqual([400, 400, 400])
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
    expect(mean(effects[0] as number[])).toBeCloseTo(-0.7, 1)
    expect(mean(effects[1] as number[])).toBeCloseTo(-0.7, 1)
    expect(mean(effects[2] as number[])).toBe(0)
  })

  it('reports the replay fidelity, paired intervals and the marginal rescue of each step', async () => {
    const factual = await firstBadRun(pivotal, 3)
    const result = valid(await contrastive(pivotal, factual, { isBad: returnedBad, seed: 3 }))
    expect(result).toMatchObject({
      kind: 'contrastive',
      agent: pivotal.name,
      search: 'linear',
      crn: true,
      sequential: true,
    })
    expect(result.factual).toEqual({ seed: 3, rollout: factual.rollout })
    expect(result.baseline.point).toBe(1)
    expect(result.methods).toMatchObject({
      proportion: 'clopper-pearson',
      effect: 'anytime-valid confidence sequence, intersected over the looks',
    })
    expect(result.methods.sequential).toMatch(/e-process/)
    expect(result.steps).toHaveLength(3)
    const [lookup, decide, reply] = result.steps
    // Under CRN, resample(0) and resample(1) redraw `decide` from the same streams: identical arms.
    expect(lookup?.pBad.successes).toBe(decide?.pBad.successes)
    // Redrawing `decide` alone rescues; redrawing `lookup` on top of it adds nothing; `reply` nothing.
    expect(decide?.rescues?.low).toBeGreaterThan(0)
    expect(lookup?.rescues?.point).toBe(0)
    expect(reply?.rescues?.point).toBe(0)
    expect(reply?.effect).toMatchObject({ point: 0 })
    expect(reply?.effect.low).toBeLessThan(0)
    expect(result.rolloutsUsed).toBe(
      result.steps.reduce((sum, step) => sum + step.rolloutsUsed, 0) + result.baseline.n,
    )
  })

  it('stops a step that never changes the outcome after a handful of concordant pairs', async () => {
    const factual = await firstBadRun(pivotal, 5)
    const result = await contrastive(pivotal, factual, { isBad: returnedBad, seed: 5, rollouts: 200 })
    // 14 concordant pairs rule out a rescue of 0.25; looks come every 4 rollouts.
    expect(result.steps[2]?.rolloutsUsed).toBe(16)
    expect(result.rolloutsUsed).toBeLessThan(100)
  })
})

describe('contrastive on the AND-interaction SCM', () => {
  it('over-counts: the effects add up to far more than any outcome can change (Σ|τ| > 1.2)', async () => {
    const and = andAgent(0.3)
    for (const seed of [1, 2, 3]) {
      const factual = await firstBadRun(and, seed)
      const result = valid(await contrastive(and, factual, { isBad: returnedBad, seed }))
      const total = result.steps.reduce((sum, step) => sum + Math.abs(step.effect.point), 0)
      // Truth: |q² − 1| + |q − 1| + 0 = 1.61 at q = 0.3.
      expect(total).toBeGreaterThan(1.2)
      expect(result.locus).toBe(1)
    }
  })
})

describe('modes', () => {
  it('with sequential: false spends exactly `rollouts` per arm and uses corrected Tango (CRN) or Newcombe (independent)', async () => {
    const factual = await firstBadRun(pivotal, 8)
    const paired = valid(
      await contrastive(pivotal, factual, { isBad: returnedBad, seed: 8, sequential: false, rollouts: 20 }),
    )
    expect(paired.methods).toEqual({
      proportion: 'clopper-pearson',
      effect: 'tango-corrected',
      sequential: null,
    })
    expect(paired.steps.map((step) => step.rolloutsUsed)).toEqual([20, 20, 20])
    // The replay fidelity and P(bad) per arm: Clopper–Pearson at the attribution's level.
    for (const rate of [paired.baseline, ...paired.steps.map((step) => step.pBad)])
      expect(rate).toEqual(clopperPearson(rate.successes, rate.n, paired.confidence))
    expect(paired.rolloutsUsed).toBe(80)
    expect(paired.steps.every((step) => step.effect.method === 'tango-corrected')).toBe(true)
    expect(paired.locus).toBe(1)

    const independent = valid(
      await contrastive(pivotal, factual, {
        isBad: returnedBad,
        seed: 8,
        sequential: false,
        crn: false,
        rollouts: 20,
      }),
    )
    expect(independent.crn).toBe(false)
    expect(
      independent.steps.every(
        (step) => step.effect.method === 'newcombe' && step.rescues?.method === 'newcombe',
      ),
    ).toBe(true)
    // Independent arms draw `decide` from different streams, so steps 0 and 1 no longer agree exactly.
    expect(independent.steps[0]?.pBad.successes).toEqual(expect.any(Number))
    expect(independent.steps[0]?.pBad.successes).not.toBe(paired.steps[0]?.pBad.successes)
  })

  it('reports a step whose redraw makes failure more likely as `worsens`, never as the locus', async () => {
    const factual = await firstBadRun(worseningAgent, 1, carefulAndFailed)
    const result = valid(await contrastive(worseningAgent, factual, { isBad: returnedBad, seed: 4 }))
    expect(result.steps[0]?.direction).toBe('worsens')
    expect(result.steps[0]?.effect.low).toBeGreaterThan(0)
    expect(result.steps[0]?.pValue).toBe(1)
    expect(result.locus).toBeNull()
    expect(result.baseline.point).toBeLessThan(0.6)
  })

  it('counts rollouts that end in an error but never scores them', async () => {
    const factual = await firstBadRun(flakyPivotalAgent, 2)
    const result = valid(
      await contrastive(flakyPivotalAgent, factual, {
        isBad: returnedBad,
        seed: 2,
        sequential: false,
        rollouts: 40,
      }),
    )
    expect(result.steps).toHaveLength(3)
    for (const step of result.steps) {
      expect(step.rolloutsUsed).toBe(40)
      // Every arm redraws `reply`, which crashes a quarter of the time.
      expect(step.pBad.n).toBeLessThan(40)
      expect(step.pBad.n).toBeGreaterThan(15)
      // Each arm counts its errored replays, with the first error.
      expect(step.errors).toEqual({ count: 40 - step.pBad.n, of: 40, first: 'Error: the reply tool crashed' })
    }
    expect(result.baseline.n).toBe(40)
    expect(result.baselineErrors).toBeUndefined()
    expect(result.locus).toBe(1)
    // A step that lost pairs to errors and decided nothing is undecided, not "no effect"; a rescue
    // on the pairs that ran stays a rescue (resampling step 0 redraws step 1 too).
    expect(result.steps.map((step) => step.direction)).toEqual(['rescues', 'rescues', 'undecided'])
    const text = formatContrastive(result, factual).join('\n')
    const reply = result.steps[2]?.errors
    expect(text).toContain(
      `  step 2 "reply": ${reply?.count} of 40 replays errored (Error: the reply tool crashed)`,
    )
    expect(text).toContain('(undecided: replays errored)')
  })

  it('says no step could be tested, instead of abstaining, when every replay of every step errored', async () => {
    // Recorded while its service was up; every live call after that throws, so every arm that
    // draws a step afresh errors, and only the baseline (every step held) runs.
    let down = false
    const live = <T>(value: T): T => {
      if (down) throw new TypeError('the plan service is down')
      return value
    }
    const brittle = defineAgent({
      name: 'brittle',
      input: {},
      async run(_input, ctx) {
        await ctx.step('plan', (rng) => live(rng() < 0.5 ? 'a' : 'b'))
        return ctx.step('draft', (rng) => live(rng() < 0.5 ? 'bad' : 'good'))
      },
    })
    const factual = await firstBadRun(brittle, 4)
    down = true
    const result = valid(await contrastive(brittle, factual, { isBad: returnedBad, seed: 4 }))
    expect(result.locus).toBeNull()
    expect(result.baselineErrors).toBeUndefined()
    expect(result.steps).toHaveLength(2)
    for (const step of result.steps) {
      expect(step.direction).toBe('undecided')
      expect(step.errors).toEqual({
        count: step.rolloutsUsed,
        of: step.rolloutsUsed,
        first: 'TypeError: the plan service is down',
      })
    }
    const text = formatContrastive(result, factual)
    expect(text).toContain(
      "undecided: replays errored in every evaluated step's comparison, so no step could be tested (nor found not to matter); fix the error above, then attribute again",
    )
    expect(text.join('\n')).not.toContain("no step's resampling significantly reduces P(bad)")
  })

  it('accepts an async judge and gives the same result as the equivalent sync predicate', async () => {
    const factual = await firstBadRun(pivotal, 9)
    const sync = await contrastive(pivotal, factual, { isBad: returnedBad, seed: 9 })
    const judge = async (trajectory: Trajectory) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2))
      return returnedBad(trajectory)
    }
    expect(await contrastive(pivotal, factual, { isBad: judge, seed: 9 })).toEqual(sync)
  })
})

describe('progress and cancellation', () => {
  it('reports progress after each rollout against the most the attribution can spend', async () => {
    const factual = await firstBadRun(pivotal, 2)
    const progress: Array<{ completed: number; total: number; errors: number }> = []
    const result = await contrastive(pivotal, factual, {
      isBad: returnedBad,
      seed: 2,
      onProgress: (update) => progress.push(update),
    })
    expect(progress).toHaveLength(result.rolloutsUsed)
    expect(progress.at(-1)).toEqual({ completed: result.rolloutsUsed, total: 4 * 32, errors: 0 })
  })

  it('throws a RolloutAbortedError when the signal aborts', async () => {
    const factual = await firstBadRun(pivotal, 2)
    const controller = new AbortController()
    controller.abort()
    await expect(
      contrastive(pivotal, factual, { isBad: returnedBad, signal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'RolloutAbortedError',
    })
  })
})

describe('binary search on long trajectories', () => {
  it('finds the planted locus with O(log n) step evaluations and evaluates the step after it', async () => {
    let checked = 0
    for (let seed = 0; checked < 6; seed++) {
      const scm = plantedScm(seed, { minLength: 16, maxLength: 20 })
      const factual = await failingRun(scm)
      const result = valid(await contrastive(scm.agent, factual, { isBad: isPlantedBad, seed }))
      expect(result.search).toBe('binary')
      expect(result.locus).toBe(scm.locus)
      const evaluated = result.steps.filter((step) => step.evaluated)
      expect(evaluated.length).toBeLessThanOrEqual(Math.ceil(Math.log2(scm.length + 1)))
      if (scm.locus < scm.length - 1) {
        expect(result.steps[scm.locus + 1]).toMatchObject({ evaluated: true, direction: 'none' })
      }
      expect(result.steps[scm.locus]).toMatchObject({ evaluated: true, rescues: expect.anything() })
      for (const step of result.steps.filter((step) => !step.evaluated)) {
        expect(step).toMatchObject({ pValue: 1, direction: 'none', rescues: null, rolloutsUsed: 0 })
        expect(step.pBad.n).toBe(0)
      }
      checked++
    }
  })

  it('agrees with linear search on where the locus is', async () => {
    const scm = plantedScm(4, { minLength: 14, maxLength: 14 })
    const factual = await failingRun(scm)
    const binary = await contrastive(scm.agent, factual, { isBad: isPlantedBad, seed: 1, search: 'binary' })
    const linear = await contrastive(scm.agent, factual, { isBad: isPlantedBad, seed: 1, search: 'linear' })
    expect(binary.locus).toBe(scm.locus)
    expect(linear.locus).toBe(scm.locus)
    expect(binary.rolloutsUsed).toBeLessThan(linear.rolloutsUsed / 2)
  })
})

describe('determinism', () => {
  it('gives byte-identical JSON at concurrency 1 and 8, with a stochastic tail and async scoring', async () => {
    const jitter = async (trajectory: Trajectory) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
      return isPlantedBad(trajectory)
    }
    for (const [seed, search] of [
      [2, 'linear'],
      [3, 'binary'],
    ] as const) {
      const scm = plantedScm(seed, { tailProbability: 1, minLength: 10, maxLength: 16 })
      const factual = await failingRun(scm)
      const options = { isBad: jitter, seed: 42, search } as const
      const one = JSON.stringify(await contrastive(scm.agent, factual, { ...options, concurrency: 1 }))
      const eight = JSON.stringify(await contrastive(scm.agent, factual, { ...options, concurrency: 8 }))
      expect(eight).toBe(one)
    }
  })

  it('derives a default seed from the factual run, and another seed draws other streams', async () => {
    const factual = await firstBadRun(pivotal, 6)
    const first = await contrastive(pivotal, factual, { isBad: returnedBad })
    expect(await contrastive(pivotal, factual, { isBad: returnedBad })).toEqual(first)
    const other = await contrastive(pivotal, factual, { isBad: returnedBad, seed: (first.seed ?? 0) + 1 })
    expect(other.steps[1]?.pBad.n).toBeGreaterThan(0)
    expect(other.steps[1]?.pBad).not.toEqual(first.steps[1]?.pBad)
  })
})

describe('budget', () => {
  it('stops cleanly when the budget is spent: truncated, partial steps, and no locus it cannot establish', async () => {
    const factual = await firstBadRun(pivotal, 7)
    const budget = new Budget({ maxRollouts: 10 })
    const result = valid(await contrastive(pivotal, factual, { isBad: returnedBad, seed: 7, budget }))
    expect(result.truncated).toBe(true)
    expect(result.rolloutsUsed).toBe(10)
    expect(budget.spentRollouts).toBe(10)
    // Baseline 4, then the arms from the last step back: reply 4, decide 2, lookup none.
    expect(result.baseline.n).toBe(4)
    expect(result.steps.map((step) => step.rolloutsUsed)).toEqual([0, 2, 4])
    expect(result.steps[0]?.evaluated).toBe(false)
    expect(result.locus).toBeNull()
  })

  it('shares a budget with other calls and still reports an established locus', async () => {
    const factual = await firstBadRun(pivotal, 7)
    const full = await contrastive(pivotal, factual, { isBad: returnedBad, seed: 7 })
    const budget = new Budget({ maxRollouts: full.rolloutsUsed + 5 })
    accountOf(budget).tryChargeRollouts(5) // a gate spent these
    const shared = await contrastive(pivotal, factual, { isBad: returnedBad, seed: 7, budget })
    expect(shared).toEqual(full)
    expect(budget.remainingRollouts).toBe(0)
  })

  it('abstains on planted SCMs rather than guessing when the budget is too small', async () => {
    for (let seed = 0; seed < 40; seed++) {
      const scm = plantedScm(seed)
      const factual = await failingRun(scm)
      for (const options of [{ rollouts: 6 }, { budget: { maxRollouts: 40 } }]) {
        const result = await contrastive(scm.agent, factual, { isBad: isPlantedBad, seed, ...options })
        expect([null, scm.locus]).toContain(result.locus)
      }
    }
  })
})

describe('option errors name the option', () => {
  it('rejects unusable options and factual runs', async () => {
    const factual = await firstBadRun(pivotal, 1)
    const isBad = returnedBad
    await expect(contrastive(pivotal, factual, {} as never)).rejects.toThrow(
      'contrastive: `isBad` must be a function (trajectory) => boolean, the outcome to explain, got undefined.',
    )
    await expect(contrastive(pivotal, factual, { isBad, rollouts: 0 })).rejects.toThrow(
      'contrastive: `rollouts` must be a positive integer, got 0.',
    )
    await expect(contrastive(pivotal, factual, { isBad, search: 'fast' as never })).rejects.toThrow(
      "contrastive: `search` must be 'linear', 'binary' or 'auto', got a string \"fast\".",
    )
    await expect(contrastive(pivotal, factual, { isBad, confidence: 95 })).rejects.toThrow(
      'contrastive: `confidence` must be a confidence in (0.5, 1), e.g. 0.95, got 95.',
    )
    // At or below 0.5 a confidence is meaningless, here as in the matchers.
    await expect(contrastive(pivotal, factual, { isBad, confidence: 0.5 })).rejects.toThrow(
      /`confidence` must be a confidence in \(0\.5, 1\)/,
    )
    await expect(contrastive(pivotal, factual, { isBad, minEffect: 0 })).rejects.toThrow(
      'contrastive: `minEffect` must be a change of P(bad) in (0, 1], e.g. 0.25, got 0.',
    )
    await expect(contrastive(pivotal, factual, { isBad, crn: 'yes' as never })).rejects.toThrow(
      'contrastive: `crn` must be true or false, got a string "yes".',
    )
    await expect(contrastive(pivotal, factual, { isBad, rollout: 8 } as never)).rejects.toThrow(
      /^contrastive: unknown option `rollout`\. It accepts: isBad, confidence, seed, budget, concurrency, tools, timeoutMs, maxSteps, signal, onProgress, rollouts, crn, sequential, search, minEffect, batchSize, runAhead\.$/,
    )
    await expect(contrastive(pivotal, factual, { isBad, budget: null } as never)).rejects.toThrow(
      'contrastive: `budget` must be a Budget or limits { maxRollouts?, maxCostUsd? }, got null.',
    )
    await expect(contrastive(pivotal, factual, { isBad, budget: { maxRollouts: -1 } })).rejects.toThrow(
      'contrastive: `budget.maxRollouts` must be a non-negative integer, got -1.',
    )
    await expect(contrastive(andAgent(0.3), factual, { isBad })).rejects.toThrow(
      'contrastive: `factual` must be a run of agent "and(q=0.3)", got a run recorded from agent "pivotal(p=0.3)". Pass the agent that recorded it.',
    )
    await expect(contrastive(pivotal, null as never, { isBad })).rejects.toThrow(
      'contrastive: `factual` must be a trajectory (from record() or readTrajectory()), got null.',
    )
    await expect(contrastive(pivotal, factual, { isBad, concurrency: 0 })).rejects.toBeInstanceOf(
      InvalidOptionError,
    )
    const broken = {
      ...factual,
      error: { kind: 'threw' as const, name: 'Error', message: 'boom' },
      output: undefined,
    }
    await expect(contrastive(pivotal, broken as Trajectory, { isBad })).rejects.toThrow(
      'contrastive: `factual` must be a run that finished, got a run that ended in an error (threw: boom).',
    )
    await expect(contrastive(pivotal, factual, { isBad: (() => 1) as never })).rejects.toThrow(
      /^contrastive: `isBad` must be a function \(trajectory\) => boolean \(or a promise of one\), got one that returned 1 on rollout \d+\.$/,
    )
    await expect(contrastive(pivotal, factual, { isBad: (() => 1n) as never })).rejects.toThrow(
      /^contrastive: `isBad` must be a function \(trajectory\) => boolean \(or a promise of one\), got one that returned 1n on rollout \d+\.$/,
    )
    const judgeDown = async () => {
      throw new Error('the judge is down')
    }
    await expect(contrastive(pivotal, factual, { isBad: judgeDown })).rejects.toThrow('the judge is down')
  })

  it('takes an agent without a default input: the factual run carries its input', async () => {
    const noInput = defineAgent<{ p: number }, string>({
      name: 'no-default-input',
      async run(input, ctx) {
        return ctx.step('decide', (rng) => (rng() < input.p ? 'bad' : 'good'))
      },
    })
    const factual = await firstBadRun(noInput.on({ p: 0.3 }), 1)
    const result = await contrastive(noInput, factual, { isBad: returnedBad, seed: 1 })
    expect(result.locus).toBe(0)
  })

  it('attributes a run without steps to nothing, at no cost', async () => {
    const factual = await record(pivotal, { seed: 1 })
    const empty = { ...factual, steps: [] }
    const result = valid(await contrastive(pivotal, empty, { isBad: returnedBad }))
    expect(result).toMatchObject({ steps: [], locus: null, rolloutsUsed: 0 })
  })
})

describe('invariants', () => {
  it('hold for any planted SCM, seed, comparison, search and cap', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          scm: fc.nat(10_000),
          seed: fc.nat(10_000),
          crn: fc.boolean(),
          sequential: fc.boolean(),
          search: fc.constantFrom('linear' as const, 'binary' as const),
          rollouts: fc.integer({ min: 3, max: 40 }),
        }),
        async ({ scm: scmSeed, seed, crn, sequential, search, rollouts }) => {
          const scm = plantedScm(scmSeed, { maxLength: 12 })
          const options = { isBad: isPlantedBad, seed, crn, sequential, search, rollouts }
          const result = valid(await contrastive(scm.agent, await failingRun(scm), options))
          expect(result.steps.map((step) => step.index)).toEqual(scm.pBadResample.map((_, index) => index))
          // Planted agents never error, so every rollout is scored.
          expect(result.rolloutsUsed).toBe(
            result.baseline.n + result.steps.reduce((sum, step) => sum + step.rolloutsUsed, 0),
          )
          expect(result.baseline.n).toBeLessThanOrEqual(rollouts)
          expect(result.steps.length).toBeGreaterThan(0)
          for (const step of result.steps) {
            expect(step.rolloutsUsed).toBeLessThanOrEqual(rollouts)
            if (!sequential && step.evaluated) expect(step.rolloutsUsed).toBe(rollouts)
            expect(step.effect.low).toBeLessThanOrEqual(step.effect.point)
            expect(step.effect.point).toBeLessThanOrEqual(step.effect.high)
            expect(step.effect.low).toBeGreaterThanOrEqual(-1)
            expect(step.effect.high).toBeLessThanOrEqual(1)
            expect(step.direction === 'rescues').toBe(step.evaluated && step.pValue <= 1 - result.confidence)
          }
          if (result.locus !== null) {
            expect(result.steps[result.locus]?.direction).toBe('rescues')
            expect(result.steps.slice(result.locus + 1).some((step) => step.direction === 'rescues')).toBe(
              false,
            )
          }
          // Under CRN a step after the pivot never changes an outcome, so it can never be rejected.
          if (crn) expect(result.locus === null || result.locus <= scm.pivot).toBe(true)
        },
      ),
      { seed: 21, numRuns: 30 },
    )
  })
})
