import { describe, expect, it } from 'vitest'
import { contrastive, signTestPValue } from '../../../src/attribute/contrastive.js'
import { wilson } from '../../../src/stats/index.js'
import type { Trajectory } from '../../../src/index.js'
import {
  failingNoisyRun,
  isNoisyBad,
  noisyLocusModel,
  tallyLoci,
  type LocusTally,
} from '../../../bench/binary-search.js'

// Binary search on generated models with a live noisy tool (replay fidelity 0.8): the arms' pairs
// are discordant both ways, so single probes are often undecided at the cap — the case where a
// search that reads "undecided" as "no rescue" loses the true step. Every rate below is a Monte
// Carlo estimate over seeded models (deterministic: the same numbers on every run); thresholds are
// set against the binomial standard error √(q(1 − q)/runs) of the observed rate q, and each
// accuracy claim asks for both the point and the lower end of its 95% Wilson interval.

/** 95% Wilson interval of a count out of `runs`. */
function rate(count: number, runs: number): { point: number; low: number; high: number } {
  return wilson(count, runs, 0.95)
}

/** Mean rollouts of fixed linear search (K = 32 for the baseline and every step) on `steps` steps. */
const fixedLinearRollouts = (steps: number) => 32 * (steps + 1)

describe('binary search with an undecided probe', () => {
  it('finds the locus in ≥ 93% of 300 15-step models at fidelity 0.8, with ≤ 5% false discoveries and fewer rollouts than fixed linear search', async () => {
    // Observed on these 300 models: 295 correct (98.3%, standard error √(0.983·0.017/300) ≈ 0.8
    // points), no false discovery, 173 rollouts on average against 512 for fixed linear search.
    // Before undecided probes were told apart from decided ones: 90.7% over 1,000 such models.
    const tally: LocusTally = await tallyLoci(300, {})
    const accuracy = rate(tally.correct, tally.runs)
    expect(accuracy.point).toBeGreaterThanOrEqual(0.93)
    expect(accuracy.low).toBeGreaterThan(0.9)
    expect(rate(tally.falseDiscoveries, tally.runs).point).toBeLessThanOrEqual(0.05)
    expect(tally.rollouts / tally.runs).toBeLessThan(fixedLinearRollouts(15))
  })

  it('finds the locus in ≥ 90% of 200 models of 13–40 steps, with ≤ 5% false discoveries', async () => {
    // Observed 188 of 200 (94.0%, SE ≈ 1.7 points; Wilson lower end 89.8%) and no false discovery.
    // Longer runs are harder: Holm over 40 steps asks for p ≤ 0.05/40 on the first rejection.
    const tally = await tallyLoci(200, { minLength: 13, maxLength: 40 }, {}, 1000)
    const accuracy = rate(tally.correct, tally.runs)
    expect(accuracy.point).toBeGreaterThanOrEqual(0.9)
    expect(accuracy.low).toBeGreaterThan(0.85)
    expect(rate(tally.falseDiscoveries, tally.runs).point).toBeLessThanOrEqual(0.05)
    for (const length of [13, 40]) {
      expect(noisyLocusModel(0, { minLength: length, maxLength: length }).length).toBe(length)
    }
  })

  it('names no locus on the null model (no step rescues) in ≥ 95% of 200 runs of 13–40 steps', async () => {
    // Holm over every step bounds the chance of any false rescue by 5%; observed 2 in 200 (Wilson
    // upper end 3.6%). The upper end must stay below 5%, so a real excess would show.
    const tally = await tallyLoci(200, { minLength: 13, maxLength: 40, planted: false }, {}, 2000)
    expect(tally.abstained + tally.falseDiscoveries).toBe(tally.runs)
    expect(rate(tally.falseDiscoveries, tally.runs).high).toBeLessThan(0.05)
  })

  it('goes right from an undecided probe whose pairs lean toward a rescue, and comes back to confirm the bracket', async () => {
    // Model 62: pivot 5. The first probe (7) is decided "no rescue"; the next (3) rescues truly but
    // ends undecided at the cap. Read as "no rescue" it sent the search left to 1 and 0, both also
    // undecided, and no locus was found; read as leaning rescue it goes right to 5 (a rescue) and 6.
    const model = noisyLocusModel(62)
    expect(model.pivot).toBe(5)
    const result = await contrastive(model.agent, await failingNoisyRun(model, 62), {
      isBad: isNoisyBad,
      seed: 62,
    })
    expect(result.search).toBe('binary')
    expect(result.methods.sequential).toMatch(/exact sign test \(each step's level split 0\.75 sign test/)
    expect(result.locus).toBe(5)
    const undecided = result.steps[3]
    expect(undecided).toMatchObject({ evaluated: true, direction: 'none', rolloutsUsed: 32 })
    expect(undecided?.effect.point).toBeLessThan(0)
    // The step after the locus is evaluated (the bracket), and steps the search skipped show as such.
    expect(result.steps[6]).toMatchObject({ evaluated: true, direction: 'none' })
    expect(result.steps.filter((step) => step.evaluated).map((step) => step.index)).toEqual([3, 5, 6, 7])
    for (const step of result.steps.filter((step) => !step.evaluated)) {
      expect(step).toMatchObject({ pValue: 1, rolloutsUsed: 0, direction: 'none' })
    }
  })

  it('gives byte-identical JSON at concurrency 1 and 8 on noisy models, with async scoring', async () => {
    const jitter = async (trajectory: Trajectory) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2))
      return isNoisyBad(trajectory)
    }
    for (const seed of [62, 7]) {
      const model = noisyLocusModel(seed, { minLength: 20, maxLength: 20 })
      const factual = await failingNoisyRun(model, seed)
      const one = await contrastive(model.agent, factual, { isBad: jitter, seed, concurrency: 1 })
      const eight = await contrastive(model.agent, factual, { isBad: jitter, seed, concurrency: 8 })
      expect(JSON.stringify(eight)).toBe(JSON.stringify(one))
    }
  })
})

describe('signTestPValue (exact one-sided McNemar test)', () => {
  it('matches hand-computed binomial tails', () => {
    // P(X ≥ 10), X ~ Bin(10, 1/2) = 2⁻¹⁰; P(X ≥ 3), X ~ Bin(4, 1/2) = 5/16; P(X ≥ 13), Bin(16, 1/2)
    // = (560 + 120 + 16 + 1) / 65536.
    expect(signTestPValue({ better: 10, worse: 0 })).toBeCloseTo(1 / 1024, 12)
    expect(signTestPValue({ better: 3, worse: 1 })).toBeCloseTo(5 / 16, 12)
    expect(signTestPValue({ better: 13, worse: 3 })).toBeCloseTo(697 / 65536, 12)
    expect(signTestPValue({ better: 0, worse: 5 })).toBe(1)
    expect(signTestPValue({ better: 0, worse: 0 })).toBe(1)
  })
})
