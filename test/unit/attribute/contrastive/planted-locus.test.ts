import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { contrastive, shapley } from '../../../../src/entries/attribution.js'
import { replay, hold, resample } from '../../../../src/entries/replay.js'
import { DEFAULT_PLANTED_CONFIG, failingRun, isPlantedBad, plantedScm } from '../../../scm/planted.js'
import { coverageCheck, errorRateCheck } from '../../../binomial-check.js'
import { once } from '../../../once.js'

describe('the planted-SCM generator', () => {
  it('draws lengths 3–20 with one pivot, and its analytic values are consistent', () => {
    fc.assert(
      fc.property(fc.nat(100_000), (seed) => {
        const scm = plantedScm(seed)
        expect(scm.length).toBeGreaterThanOrEqual(DEFAULT_PLANTED_CONFIG.minLength)
        expect(scm.length).toBeLessThanOrEqual(DEFAULT_PLANTED_CONFIG.maxLength)
        expect(scm.pivot).toBeGreaterThanOrEqual(0)
        expect(scm.pivot).toBeLessThan(scm.length)
        expect(scm.locus).toBe(scm.pivot)
        for (const { after } of scm.recoveries) expect(after).toBeGreaterThanOrEqual(scm.pivot)
        // The locus is the latest step with a negative effect; the pivot is the only marginal rescuer.
        expect(scm.effects.findLastIndex((effect) => effect < 0)).toBe(scm.pivot)
        scm.marginalRescue.forEach((rescue, k) =>
          expect(rescue).toBeCloseTo(k === scm.pivot ? scm.efficiencySum : 0, 12),
        )
        // Efficiency: the Shapley values add up to v(N) − v(∅).
        expect(scm.shapley.reduce((a, b) => a + b, 0)).toBeCloseTo(scm.efficiencySum, 12)
        expect(plantedScm(seed)).toMatchObject({
          length: scm.length,
          pivot: scm.pivot,
          recoveries: scm.recoveries,
        })
      }),
      { seed: 3, numRuns: 200 },
    )
  })

  it('has the P(bad | do) it claims: replayed rates agree with the analytic values', async () => {
    for (const seed of [2, 11, 29]) {
      const scm = plantedScm(seed, { tailProbability: 1 })
      const factual = await failingRun(scm)
      const checks = [
        { intervention: hold('all'), truth: scm.fidelity },
        { intervention: resample(scm.pivot), truth: scm.pBadResample[scm.pivot] as number },
        { intervention: resample(scm.length - 1), truth: scm.pBadResample[scm.length - 1] as number },
        { intervention: hold([]), truth: scm.badProbability * scm.fidelity },
      ]
      for (const { intervention, truth } of checks) {
        const rate = (await replay(scm.agent, factual, intervention, { rollouts: 400, seed })).rate(
          isPlantedBad,
          0.999,
        )
        expect(rate.low).toBeLessThanOrEqual(truth)
        expect(rate.high).toBeGreaterThanOrEqual(truth)
      }
    }
  })
})

/** How contrastive attribution fared on a run of planted SCMs with default options. */
interface PlantedTally {
  readonly runs: number
  correct: number
  /** A locus past the pivot: a step that changes nothing called a rescue, which Holm bounds by α. */
  pastPivot: number
  withTail: number
  binary: number
}

// Tallied once, checked twice: accuracy and false discoveries.
const plantedLoci = once(async (): Promise<PlantedTally> => {
  const tally = { runs: 400, correct: 0, pastPivot: 0, withTail: 0, binary: 0 }
  for (let seed = 0; seed < tally.runs; seed++) {
    const scm = plantedScm(seed)
    const result = await contrastive(scm.agent, await failingRun(scm), { isBad: isPlantedBad, seed })
    if (result.locus === scm.locus) tally.correct++
    else if (result.locus !== null && result.locus > scm.locus) tally.pastPivot++
    if (scm.recoveries.length > 0) tally.withTail++
    if (result.search === 'binary') tally.binary++
    expect(result.steps).toHaveLength(scm.length)
    expect(result.steps.every((step) => step.rolloutsUsed <= 32)).toBe(true)
  }
  return tally
})

describe('contrastive attribution on generated SCMs', () => {
  it('finds the planted locus in at least 99% of 400 generated SCMs (default options)', async () => {
    // At least 391 of 400: catches 96% accuracy with probability 0.960, and fails 99% with 0.0078.
    // Every step up to the pivot rescues as much as the pivot, so a locus before it is a miss,
    // counted here. Observed: 400 of 400 (and 1,000 of the first 1,000 seeds).
    const accuracy = coverageCheck(400, 0.99)
    const tally = await plantedLoci()
    expect(tally.runs).toBe(accuracy.runs)
    expect(tally.correct).toBeGreaterThanOrEqual(accuracy.limit)
    // The sample exercises both searches and both kinds of tail (observed: 178 binary, 201 tails).
    expect(tally.withTail).toBeGreaterThan(120)
    expect(tally.binary).toBeGreaterThan(120)
  })

  it('names a locus past the planted one in at most 5% of the 400 SCMs', async () => {
    // At most 31 of 400: catches a search erring in 10% (2α) with probability 0.925, and fails one
    // erring in exactly 5% with 0.0067. Observed: none.
    const wrongLoci = errorRateCheck(400, 0.05)
    const tally = await plantedLoci()
    expect(tally.runs).toBe(wrongLoci.runs)
    expect(tally.pastPivot).toBeLessThanOrEqual(wrongLoci.limit)
  })

  it('abstains (locus null) rather than guessing wrong when the budget is too small', async () => {
    let abstained = 0
    for (let seed = 0; seed < 60; seed++) {
      const scm = plantedScm(seed)
      const factual = await failingRun(scm)
      const tooFew = await contrastive(scm.agent, factual, { isBad: isPlantedBad, seed, rollouts: 5 })
      expect(tooFew.locus).toBeNull()
      const tooPoor = await contrastive(scm.agent, factual, {
        isBad: isPlantedBad,
        seed,
        budget: { maxRollouts: 3 * (scm.length + 1) },
      })
      expect(tooPoor.truncated).toBe(true)
      expect([null, scm.locus]).toContain(tooPoor.locus)
      if (tooPoor.locus === null) abstained++
    }
    expect(abstained).toBeGreaterThan(54)
  })

  it('estimates the analytic effects: the planted pivot’s effect interval covers (p − 1)·F', async () => {
    // At least 839 of 900 seeded runs must cover, which catches an interval covering 92% with
    // probability 0.904 and fails one covering exactly 95% with 0.0078. The pivot's interval pairs
    // its arm with the baseline whatever the other steps, so 3-step models (a linear search runs 4
    // arms, where 3–8 steps ran 6.5 on average) keep the 900 runs affordable. Observed: 848 (94.2%).
    const design = coverageCheck(900, 0.95)
    let covered = 0
    for (let seed = 0; seed < design.runs; seed++) {
      const scm = plantedScm(seed, { minLength: 3, maxLength: 3 })
      const result = await contrastive(scm.agent, await failingRun(scm), {
        isBad: isPlantedBad,
        seed,
        sequential: false,
      })
      const effect = result.steps[scm.pivot]?.effect
      if (
        effect !== undefined &&
        effect.low <= (scm.effects[scm.pivot] as number) &&
        (scm.effects[scm.pivot] as number) <= effect.high
      )
        covered++
    }
    expect(covered).toBeGreaterThanOrEqual(design.limit)
  })
})

describe('Shapley on generated SCMs', () => {
  it('gives the pivot (1 − p)·F and the other steps about 0', async () => {
    for (const seed of [1, 6]) {
      const scm = plantedScm(seed, { maxLength: 6, tailProbability: 1 })
      const result = await shapley(scm.agent, await failingRun(scm), {
        isBad: isPlantedBad,
        seed,
        samplesPerEval: 200,
      })
      expect(result.method).toBe('exact')
      expect(result.steps.length).toBeGreaterThan(0)
      for (const step of result.steps) {
        expect(Math.abs(step.value - (scm.shapley[step.index] as number))).toBeLessThan(0.07)
      }
    }
  })
})
