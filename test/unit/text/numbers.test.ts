import { describe, expect, it } from 'vitest'
import {
  confidenceLevel,
  effect,
  effectUpperEnd,
  percent,
  probability,
  rescueLowerEnd,
  signedPercent,
} from '../../../src/text/numbers.js'
import { rescueLowerPercent, signedInterval } from '../../../src/html/numbers.js'
import { BELOW_ZERO } from '../../../src/attribute/arms/arm-comparison.js'

describe('number formatting', () => {
  it('percent: one decimal from 1%, two significant digits below, so small bounds keep information', () => {
    expect(percent(0.23)).toBe('23.0%')
    expect(percent(0.158)).toBe('15.8%')
    expect(percent(1)).toBe('100.0%')
    expect(percent(0)).toBe('0.0%')
    expect(percent(1 - 0.05 ** (1 / 100))).toBe('3.0%')
    expect(percent(0.003)).toBe('0.30%')
    expect(percent(0.000299)).toBe('0.030%')
  })

  it('signed percent, effects and probabilities', () => {
    expect(signedPercent(0.21)).toBe('+21.0%')
    expect(signedPercent(-0.035)).toBe('-3.5%')
    expect(signedPercent(-0.00001)).toBe('-0.0010%')
    expect(signedPercent(0)).toBe('+0.0%')
    expect(effect(-0.74)).toBe('-0.74')
    expect(effect(0)).toBe(' 0.00')
    expect(effect(-0.001)).toBe(' 0.00')
    expect(probability(0.256)).toBe('0.26')
  })

  it('confidence levels without trailing zeros', () => {
    expect(confidenceLevel(0.95)).toBe('95%')
    expect(confidenceLevel(0.975)).toBe('97.5%')
    expect(confidenceLevel(0.9)).toBe('90%')
  })
})

describe('the ends of an interval capped just below 0', () => {
  it('keep their sign, so a rescue never reads as reaching 0', () => {
    expect(effectUpperEnd(BELOW_ZERO)).toBe('-0.00')
    expect(effectUpperEnd(-0.12)).toBe('-0.12')
    expect(effectUpperEnd(0.001)).toBe(' 0.00')
    expect(rescueLowerEnd(-BELOW_ZERO)).toBe('>0%')
    expect(rescueLowerEnd(0.004)).toBe('>0%')
    expect(rescueLowerEnd(0.23)).toBe('23%')
    expect(signedInterval({ point: -0.4, low: -0.8, high: BELOW_ZERO })).toBe('-0.40 [-0.80, -0.00]')
    expect(rescueLowerPercent(-BELOW_ZERO)).toBe('>0%')
    expect(rescueLowerPercent(0.05)).toBe('5.0%')
  })
})
