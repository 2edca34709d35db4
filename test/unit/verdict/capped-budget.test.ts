import { describe, expect, it } from 'vitest'
import { Budget } from '../../../src/rollout/budget.js'
import { CappedBudget } from '../../../src/verdict/capped-budget.js'

describe('CappedBudget', () => {
  it('charges the parent, and refuses past its own cap without charging the parent', () => {
    const parent = new Budget({ maxRollouts: 100 })
    parent.tryChargeRollouts(10)
    const capped = new CappedBudget(parent, 5)
    expect(capped.remainingRollouts).toBe(5)
    expect(capped.tryChargeRollouts(4)).toBe(true)
    expect(parent.spentRollouts).toBe(14)
    expect(capped.tryChargeRollouts(2)).toBe(false)
    expect(parent.spentRollouts).toBe(14)
    expect(capped.tryChargeRollouts(1)).toBe(true)
    expect([capped.spentRollouts, capped.remainingRollouts, parent.spentRollouts]).toEqual([5, 0, 15])
  })

  it("stops at the parent's limit first, charging itself nothing for a refused charge", () => {
    const parent = new Budget({ maxRollouts: 3 })
    const capped = new CappedBudget(parent, 10)
    expect(capped.remainingRollouts).toBe(3)
    expect(capped.tryChargeRollouts(4)).toBe(false)
    expect(capped.spentRollouts).toBe(0)
    expect(capped.tryChargeRollouts(3)).toBe(true)
    expect(capped.remainingRollouts).toBe(0)
  })

  it("charges cost to both and is exhausted by the parent's cost limit", () => {
    const parent = new Budget({ maxCostUsd: 0.1 })
    const capped = new CappedBudget(parent, 10)
    capped.chargeCost(0.06)
    expect(capped.costExhausted).toBe(false)
    capped.chargeCost(0.04)
    expect([parent.spentCostUsd, capped.spentCostUsd]).toEqual([0.1, 0.1])
    expect(capped.costExhausted).toBe(true)
  })

  it('passes for a Budget wherever one is accepted', () => {
    expect(new CappedBudget(new Budget(), 0)).toBeInstanceOf(Budget)
    expect(new CappedBudget(new Budget(), 0).tryChargeRollouts()).toBe(false)
  })
})
