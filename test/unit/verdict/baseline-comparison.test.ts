import { describe, expect, it } from 'vitest'
import { compareWithBaseline, type BaselineRule } from '../../../src/verdict/baseline-comparison.js'

/**
 * The baseline gate's error rates, exactly: the stored and the new measurement are independent
 * binomial counts of 100 rollouts (an agent with randomness of its own, so nothing is reproduced),
 * and every pair of counts is weighed by its probability.
 */
const ROLLOUTS = 100
const LOG_FACTORIAL = [0]
for (let i = 1; i <= ROLLOUTS; i++) LOG_FACTORIAL.push((LOG_FACTORIAL[i - 1] as number) + Math.log(i))

function binomial(k: number, n: number, p: number): number {
  if (p === 0) return k === 0 ? 1 : 0
  if (p === 1) return k === n ? 1 : 0
  const log =
    (LOG_FACTORIAL[n] as number) -
    (LOG_FACTORIAL[k] as number) -
    (LOG_FACTORIAL[n - k] as number) +
    k * Math.log(p) +
    (n - k) * Math.log1p(-p)
  return Math.exp(log)
}

/** P(the gate passes) when the stored rate is `stored` and the new one `current`. */
function passRate(stored: number, current: number, rule: BaselineRule): number {
  let pass = 0
  for (let s = 0; s <= ROLLOUTS; s++) {
    const ps = binomial(s, ROLLOUTS, stored)
    if (ps < 1e-13) continue
    for (let c = 0; c <= ROLLOUTS; c++) {
      const pc = binomial(c, ROLLOUTS, current)
      if (pc < 1e-13) continue
      const { finding } = compareWithBaseline(
        { successes: c, n: ROLLOUTS },
        { successes: s, n: ROLLOUTS },
        rule,
      )
      if (finding === 'within') pass += ps * pc
    }
  }
  return pass
}

const rule = (tolerance: number, better: 'lower' | 'higher' = 'lower'): BaselineRule => ({
  tolerance,
  better,
  confidence: 0.95,
})

describe('compareWithBaseline', () => {
  it('a 17-point regression (23% → 40%) at 100 rollouts fails with tolerance 0.05', () => {
    // The counts of the audit's run: the two-sided 95% interval (+4.1% to +29.1%) straddled the
    // tolerance, and the old rule passed it. The one-sided 95% lower bound lies beyond it.
    const { difference, finding } = compareWithBaseline(
      { successes: 40, n: 100 },
      { successes: 23, n: 100 },
      rule(0.05),
    )
    expect(finding).toBe('regressed')
    expect(difference.low).toBeGreaterThan(0.05)
    expect(difference.point).toBeCloseTo(0.17, 12)
    expect(difference.confidence).toBeCloseTo(0.9, 12)
    expect(difference.high).toBeGreaterThan(0.05)
    // Over every pair of counts: the gate fails it at least 99% of the time.
    expect(1 - passRate(0.23, 0.4, rule(0.05))).toBeGreaterThan(0.99)
  })

  it('passes a regression of the tolerance or more at most 5% of the time (exact, n = 100)', () => {
    let worst = 0
    for (const tolerance of [0.02, 0.05, 0.1, 0.15]) {
      for (const stored of [0, 0.02, 0.05, 0.1, 0.23, 0.32, 0.5, 0.7]) {
        const wrongPass = passRate(stored, stored + tolerance, rule(tolerance))
        expect(wrongPass, `stored ${stored}, tolerance ${tolerance}`).toBeLessThanOrEqual(0.05)
        worst = Math.max(worst, wrongPass)
        // Beyond the tolerance it passes less often still.
        expect(passRate(stored, stored + tolerance + 0.05, rule(tolerance))).toBeLessThanOrEqual(wrongPass)
      }
    }
    // Not needlessly conservative: the worst case on this grid is 4.5%. (Without the continuity
    // correction, Newcombe's method 10, it was 5.28% at stored 10%, tolerance 0.02.)
    expect(worst).toBeGreaterThan(0.04)
  })

  it('better: "higher" mirrors the rule', () => {
    for (const stored of [0.5, 0.77, 0.95]) {
      const lower = passRate(1 - stored, 1 - stored + 0.1, rule(0.1))
      const higher = passRate(stored, stored - 0.1, rule(0.1, 'higher'))
      expect(higher).toBeCloseTo(lower, 12)
    }
    expect(
      compareWithBaseline({ successes: 70, n: 100 }, { successes: 77, n: 100 }, rule(0.05, 'higher')).finding,
    ).toBe('undecided')
  })

  it('names a regression beyond the tolerance only when its better bound lies beyond it', () => {
    const regressed = compareWithBaseline({ successes: 60, n: 100 }, { successes: 23, n: 100 }, rule(0.05))
    expect(regressed.finding).toBe('regressed')
    expect(regressed.difference.low).toBeGreaterThan(0.05)
    const within = compareWithBaseline({ successes: 20, n: 100 }, { successes: 23, n: 100 }, rule(0.15))
    expect(within.finding).toBe('within')
    expect(within.difference.high).toBeLessThan(0.15)
  })

  it('an unchanged agent with randomness of its own passes only with room for the noise', () => {
    // At 23%, 100 rollouts each: the tolerance decides how often an unchanged rate passes.
    // At tolerance 0 only a chance "significant improvement" passes it (3.9%).
    expect(passRate(0.23, 0.23, rule(0))).toBeCloseTo(0.039, 3)
    expect(passRate(0.23, 0.23, rule(0.15))).toBeGreaterThan(0.6)
    expect(passRate(0.23, 0.23, rule(0.2))).toBeGreaterThan(0.9)
  })
})
