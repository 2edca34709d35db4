import { describe, expect, it } from 'vitest'
import { boundedMeanT, studentTMean } from '../../../src/stats/index.js'

describe('boundedMeanT', () => {
  it('matches a hand computation: t over the values plus ¼ pseudo-value at each end of the range', () => {
    // [0, 0, 1, 1] in [−1, 1]: weight 4.5, centre 2/4.5, Σ squares about the centre (pseudo-values
    // included) 1.611111, s² = 1.611111/3.5, SE = √(s²/4.5) = 0.319834, t(0.975, 3) = 3.182446.
    const interval = boundedMeanT([0, 0, 1, 1])
    expect(interval.point).toBe(0.5)
    expect(interval.low).toBeCloseTo(2 / 4.5 - 3.182446 * 0.319834, 5)
    expect(interval.high).toBe(1) // 1.462 clamped to the range
    expect(interval.method).toBe('student-t')
  })

  it('is Student t when the pseudo-weight is 0', () => {
    const values = [0.1, 0.4, -0.3, 0.2, 0.25]
    const plain = studentTMean(values, 0.9)
    const bounded = boundedMeanT(values, { pseudoWeight: 0, confidence: 0.9 })
    expect(bounded.low).toBeCloseTo(plain.low, 12)
    expect(bounded.high).toBeCloseTo(plain.high, 12)
  })

  it('keeps width where every value agrees, contains the point, and stays inside the range', () => {
    const zeros = boundedMeanT(new Array<number>(32).fill(0))
    expect(zeros.low).toBeCloseTo(-zeros.high, 12)
    expect(zeros.high).toBeGreaterThan(0.04)
    expect(zeros.high).toBeLessThan(0.05)
    const ones = boundedMeanT([1, 1, 1, 1, 1, 1, 1, 1], { range: [0, 1] })
    expect(ones.point).toBe(1)
    expect(ones.high).toBe(1)
    expect(ones.low).toBeLessThan(1)
  })

  it('names the bad input', () => {
    expect(() => boundedMeanT([0.5])).toThrow(/at least two/)
    expect(() => boundedMeanT([0, 2])).toThrow(/values\[1\] is 2, outside the range \[-1, 1\]/)
    expect(() => boundedMeanT([0, 1], { range: [1, 0] })).toThrow(/range/)
    expect(() => boundedMeanT([0, 1], { pseudoWeight: -1 })).toThrow(/pseudoWeight/)
    expect(() => boundedMeanT([0, 1], { confidence: 1.5 })).toThrow(/confidence/)
  })
})
