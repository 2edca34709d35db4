import { describe, expect, it } from 'vitest'
import {
  exactValueInterval,
  nextAllocation,
  shapleyCoefficients,
  worstHalfWidth,
} from '../../../../src/attribute/shapley/shapley-allocation.js'
import { shapleyWeight } from '../../../../src/attribute/shapley/shapley-weights.js'

const settings = { players: 3, confidence: 0.95, maxPerCoalition: 214 }
const coefficients = shapleyCoefficients(3)

describe('shapleyCoefficients', () => {
  it('are +w(|S| − 1) with the player and −w(|S|) without, and sum to 0 for every player', () => {
    expect(coefficients[0]?.[0b000]).toBeCloseTo(-shapleyWeight(3, 0), 15)
    expect(coefficients[0]?.[0b001]).toBeCloseTo(shapleyWeight(3, 0), 15)
    expect(coefficients[0]?.[0b110]).toBeCloseTo(-shapleyWeight(3, 2), 15)
    expect(coefficients[2]?.[0b111]).toBeCloseTo(shapleyWeight(3, 2), 15)
    for (const row of coefficients) expect(row.reduce((sum, c) => sum + c, 0)).toBeCloseTo(0, 14)
  })
})

describe('nextAllocation', () => {
  it('gives every coalition the same at P(bad) = 1/2 everywhere (Neyman is uniform there), within 4× per round', () => {
    const pilot = Array.from({ length: 8 }, () => ({ bad: 16, n: 32 }))
    const next = nextAllocation(pilot, settings, coefficients)
    expect(next).not.toBeNull()
    expect(new Set(next)).toEqual(new Set([128]))
  })

  it('never starves a coalition whose pilot rollouts all agreed, and gives it fewer than a noisy one', () => {
    // The pivotal model: coalitions holding `decide` (bit 1) are bad every time.
    const pilot = Array.from({ length: 8 }, (_, mask) => (mask & 2 ? { bad: 32, n: 32 } : { bad: 10, n: 32 }))
    const next = nextAllocation(pilot, settings, coefficients) as number[]
    for (let mask = 0; mask < 8; mask++) expect(next[mask]).toBeGreaterThan(32)
    expect(next[0b010]).toBeLessThan(next[0b000] as number)
  })

  it('stops once every value is within ±0.05, or once every coalition is at its cap', () => {
    const plenty = Array.from({ length: 8 }, () => ({ bad: 300, n: 1000 }))
    expect(worstHalfWidth(plenty, coefficients, 0.95)).toBeLessThanOrEqual(0.05)
    expect(nextAllocation(plenty, settings, coefficients)).toBeNull()
    const capped = Array.from({ length: 8 }, () => ({ bad: 75, n: 150 }))
    expect(worstHalfWidth(capped, coefficients, 0.95)).toBeGreaterThan(0.05)
    expect(nextAllocation(capped, { ...settings, maxPerCoalition: 150 }, coefficients)).toBeNull()
  })

  it('never asks for more than the cap or for fewer than a coalition has', () => {
    const uneven = Array.from({ length: 8 }, (_, mask) => ({ bad: mask * 5, n: 40 + mask * 20 }))
    const next = nextAllocation(uneven, { ...settings, maxPerCoalition: 100 }, coefficients) as number[]
    next.forEach((target, mask) => {
      expect(target).toBeLessThanOrEqual(Math.max(100, uneven[mask]?.n ?? 0))
      expect(target).toBeGreaterThanOrEqual(uneven[mask]?.n ?? 0)
    })
  })
})

describe('exactValueInterval', () => {
  it('is Newcombe-style MOVER: the point is Σ c·p̂, and the ends contain it', () => {
    const counts = Array.from({ length: 8 }, (_, mask) => ({ bad: mask, n: 10 }))
    expect(coefficients).toHaveLength(3)
    for (const row of coefficients) {
      const value = exactValueInterval(row, counts, 0.95)
      expect(value.point).toBeCloseTo(
        row.reduce((sum, c, mask) => sum + c * (mask / 10), 0),
        14,
      )
      expect(value.low).toBeLessThan(value.point)
      expect(value.high).toBeGreaterThan(value.point)
    }
  })
})
