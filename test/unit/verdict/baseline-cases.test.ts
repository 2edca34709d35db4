// Each case of a dataset baseline against its stored counts: a case's p-value agrees with the
// existing comparison's finding at every level, Holm keeps the chance of naming any unchanged case
// at most α, and added / removed cases are listed, not compared.
import seedrandom from 'seedrandom'
import { describe, expect, it } from 'vitest'
import { compareCasesWithBaseline, type CaseCounts } from '../../../src/verdict/baseline-cases.js'
import { compareWithBaseline } from '../../../src/verdict/baseline-comparison.js'
import { errorRateCheck } from '../../binomial-check.js'

const rule = { tolerance: 0, better: 'lower' as const, confidence: 0.95 }

describe('compareCasesWithBaseline', () => {
  it("names a case regressed exactly when Holm's adjusted p-value is at most α, and lists added and removed cases", () => {
    const stored: CaseCounts[] = [
      { id: 'a', runs: 40, failures: 2 },
      { id: 'b', runs: 40, failures: 2 },
      { id: 'gone', runs: 40, failures: 0 },
    ]
    const current = [
      { id: 'a', runs: 40, failures: 30 },
      { id: 'b', runs: 40, failures: 3 },
      { id: 'new', runs: 40, failures: 40 },
    ]
    const result = compareCasesWithBaseline(current, stored, rule)
    expect(result).toMatchObject({ compared: 2, regressed: ['a'], added: ['new'], removed: ['gone'] })
    expect(result.adjusted.get('a')).toBeLessThanOrEqual(0.05)
    expect(result.adjusted.get('b')).toBeGreaterThan(0.05)
  })

  it("a single case's p-value matches the comparison's finding on both sides of it", () => {
    for (const failures of [5, 8, 10, 12, 16, 25]) {
      const [result] = [
        compareCasesWithBaseline(
          [{ id: 'x', runs: 50, failures }],
          [{ id: 'x', runs: 50, failures: 3 }],
          rule,
        ),
      ]
      const p = result.adjusted.get('x') as number
      for (const confidence of [0.8, 0.9, 0.95, 0.99]) {
        if (Math.abs(p - (1 - confidence)) < 1e-5) continue
        const finding = compareWithBaseline(
          { successes: failures, n: 50 },
          { successes: 3, n: 50 },
          { ...rule, confidence },
        ).finding
        expect(finding === 'regressed').toBe(p < 1 - confidence)
      }
    }
  })

  // 400 seeded datasets of 20 unchanged cases (independent reruns of the same rates, tolerance 0):
  // naming any case is a wrong failure, at most α = 5% of the time by Holm.
  const design = errorRateCheck(400, 0.05, { power: 0.8 })
  it(`names an unchanged case in at most α of runs (≤ ${design.limit} of ${design.runs})`, () => {
    const random = seedrandom.alea('baseline-cases')
    const rates = Array.from({ length: 20 }, (_, i) => [0.02, 0.1, 0.3, 0.5][i % 4] as number)
    const draw = (rate: number, runs: number) => {
      let failures = 0
      for (let i = 0; i < runs; i++) if (random() < rate) failures++
      return failures
    }
    let wrong = 0
    for (let run = 0; run < design.runs; run++) {
      const stored = rates.map((rate, i) => ({ id: `c${i}`, runs: 10, failures: draw(rate, 10) }))
      const current = rates.map((rate, i) => ({ id: `c${i}`, runs: 10, failures: draw(rate, 10) }))
      if (compareCasesWithBaseline(current, stored, rule).regressed.length > 0) wrong++
    }
    console.log(`baseline cases, unchanged: named a case in ${wrong} of ${design.runs}`)
    expect(wrong).toBeLessThanOrEqual(design.limit)
  })
})
