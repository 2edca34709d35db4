import { describe, expect, it } from 'vitest'
import { contrastive, estimateRollouts, shapley } from '../../../src/entries/attribution.js'
import {
  exactSamplesPerEval,
  shapleyWeight,
  sumOfSquaredCoefficients,
} from '../../../src/attribute/shapley/shapley-weights.js'
import { andAgent, pivotalAgent, returnedBad } from '../../../examples/synthetic/scms.js'
import { failingRun, isPlantedBad, plantedScm } from '../../scm/planted.js'
import { firstBadRun } from './fixtures.js'

describe('Shapley weights', () => {
  it('are k!(n − 1 − k)!/n! and sum to 1 over the coalitions without the player', () => {
    expect(shapleyWeight(3, 0)).toBeCloseTo(1 / 3, 15)
    expect(shapleyWeight(3, 1)).toBeCloseTo(1 / 6, 15)
    expect(shapleyWeight(3, 2)).toBeCloseTo(1 / 3, 15)
    expect(shapleyWeight(10, 4)).toBeCloseTo((24 * 120) / 3_628_800, 15)
    for (const n of [1, 2, 5, 10, 20]) {
      let total = 0
      let binomial = 1
      for (let k = 0; k < n; k++) {
        total += binomial * shapleyWeight(n, k)
        binomial = (binomial * (n - 1 - k)) / (k + 1)
      }
      expect(total).toBeCloseTo(1, 12)
    }
  })

  it('price the default exact run for a worst-case half-width of ±0.05', () => {
    expect(sumOfSquaredCoefficients(3)).toBeCloseTo(5 / 9, 12)
    expect(exactSamplesPerEval(3, 0.95)).toBe(214)
    expect(exactSamplesPerEval(10, 0.95)).toBe(18)
    expect(exactSamplesPerEval(1, 0.95)).toBe(769)
    expect(exactSamplesPerEval(3, 0.99)).toBeGreaterThan(214)
  })
})

describe('estimateRollouts', () => {
  it('prices contrastive (linear and binary) and Shapley (exact and permutation) before running', () => {
    expect(estimateRollouts(3)).toEqual({
      steps: 3,
      contrastive: {
        search: 'linear',
        rolloutsPerStep: 32,
        stepEvaluations: 3,
        plannedRollouts: 128,
        maxRollouts: 128,
      },
      shapley: {
        method: 'exact',
        permutations: 0,
        samplesPerEval: 214,
        antithetic: false,
        evaluations: 8,
        allocation: 'adaptive',
        rollouts: 1712,
        pilotRollouts: 256,
        minimumRollouts: 8,
      },
    })
    expect(estimateRollouts(20, { contrastive: { rollouts: 80 } }).contrastive).toEqual({
      search: 'binary',
      rolloutsPerStep: 80,
      stepEvaluations: 5,
      plannedRollouts: 480,
      maxRollouts: 1680,
    })
    expect(
      estimateRollouts(3, { shapley: { method: 'permutation', permutations: 80, samplesPerEval: 12 } })
        .shapley,
    ).toEqual({
      method: 'permutation',
      permutations: 80,
      samplesPerEval: 12,
      antithetic: true,
      evaluations: 320,
      allocation: 'fixed',
      rollouts: 3840,
      pilotRollouts: 3840,
      minimumRollouts: 192,
    })
    expect(estimateRollouts(12).shapley.method).toBe('permutation')
  })

  it('matches what the attributions then spend', async () => {
    const and = andAgent(0.3)
    const factual = await firstBadRun(and, 1)
    const price = estimateRollouts(factual, {
      contrastive: { rollouts: 24 },
      shapley: { method: 'permutation', permutations: 12, samplesPerEval: 3 },
    })
    const fixed = await contrastive(and, factual, {
      isBad: returnedBad,
      seed: 1,
      rollouts: 24,
      sequential: false,
    })
    expect(fixed.rolloutsUsed).toBe(price.contrastive.plannedRollouts)
    const sequential = await contrastive(and, factual, { isBad: returnedBad, seed: 1, rollouts: 24 })
    expect(sequential.rolloutsUsed).toBeLessThanOrEqual(price.contrastive.maxRollouts)
    const values = await shapley(and, factual, {
      isBad: returnedBad,
      seed: 1,
      method: 'permutation',
      permutations: 12,
      samplesPerEval: 3,
    })
    expect(values.rolloutsUsed).toBe(price.shapley.rollouts)
    expect(values.evaluations).toBe(price.shapley.evaluations)
    const exact = await shapley(and, factual, { isBad: returnedBad, seed: 1, samplesPerEval: 5 })
    const fixedPrice = estimateRollouts(factual, { shapley: { samplesPerEval: 5 } }).shapley
    expect(fixedPrice).toMatchObject({ allocation: 'fixed', rollouts: 40, pilotRollouts: 40 })
    expect(exact.rolloutsUsed).toBe(fixedPrice.rollouts)
    // The default exact run allocates adaptively: between its pilot round and the worst case.
    const adaptivePrice = estimateRollouts(factual).shapley
    const adaptive = await shapley(and, factual, { isBad: returnedBad, seed: 1 })
    expect(adaptive.rolloutsUsed).toBeGreaterThanOrEqual(adaptivePrice.pilotRollouts)
    expect(adaptive.rolloutsUsed).toBeLessThanOrEqual(adaptivePrice.rollouts)
    expect(adaptive.rolloutsUsed).toBeLessThan(adaptivePrice.rollouts / 1.5)
  })

  it('bounds a binary search by its plan on planted SCMs', async () => {
    for (let seed = 0; seed < 10; seed++) {
      const scm = plantedScm(seed, { minLength: 13, maxLength: 20 })
      const factual = await failingRun(scm)
      const result = await contrastive(scm.agent, factual, { isBad: isPlantedBad, seed, sequential: false })
      expect(result.rolloutsUsed).toBeLessThanOrEqual(estimateRollouts(factual).contrastive.plannedRollouts)
    }
  })

  it('refuses what the attribution would refuse', () => {
    expect(() => estimateRollouts(-1)).toThrow(
      'estimateRollouts: `factualOrStepCount` must be a trajectory or a step count (a non-negative integer), got -1.',
    )
    expect(estimateRollouts(0)).toMatchObject({
      contrastive: { maxRollouts: 0 },
      shapley: { rollouts: 0, pilotRollouts: 0 },
    })
    expect(() => estimateRollouts(11, { shapley: { method: 'exact' } })).toThrow(
      /^estimateRollouts: `shapley.method` must be 'auto' or 'permutation' above 10 steps/,
    )
    expect(() => estimateRollouts(3, { shapley: { method: 'permutation', permutations: 7 } })).toThrow(
      /^estimateRollouts: `shapley.permutations` must be even and at least 4 with `antithetic`/,
    )
    expect(() => estimateRollouts(3, { contrastive: { rollouts: -1 } })).toThrow(
      'estimateRollouts: `contrastive.rollouts` must be a positive integer, got -1.',
    )
    expect(() => estimateRollouts(3, { shapley: { confidence: 2 } })).toThrow(
      'estimateRollouts: `shapley.confidence` must be a confidence in (0.5, 1), e.g. 0.95, got 2.',
    )
    expect(() => estimateRollouts(3, { shapley: { permutations: 6, samples: 2 } } as never)).toThrow(
      'estimateRollouts: unknown option `shapley.samples`. It accepts: method, permutations, samplesPerEval, antithetic, confidence.',
    )
    expect(() => estimateRollouts(3, { contrastive: null } as never)).toThrow(
      'estimateRollouts: `contrastive` must be an object, got null.',
    )
    expect(() => estimateRollouts(3, { constrastive: {} } as never)).toThrow(
      'estimateRollouts: unknown option `constrastive`. It accepts: contrastive, shapley.',
    )
    expect(() => estimateRollouts(pivotalAgent as never)).toThrow(
      'estimateRollouts: `factualOrStepCount` must be a trajectory or a step count (a non-negative integer), got a function (pivotalAgent).',
    )
  })
})
