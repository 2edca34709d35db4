import { describe, expect, test } from 'vitest'
import { comparePairedWithBaseline, compareWithBaseline } from '../../../src/verdict/baseline-comparison.js'

/**
 * Exact size of the stored-baseline gate when the new run reuses the stored seed. Rollout r of both
 * runs draws the same numbers, so the pair (stored bad, new bad) of each rollout follows a joint law
 * the change decides: from countermonotone (the change reads the shared draw the other way) through
 * independent to comonotone. With the marginals fixed, that law has one free parameter, P(both bad),
 * between max(0, p_stored + p_new − 1) and min(p_stored, p_new). Every pass at p_new = p_stored +
 * tolerance is a wrong pass; the size is summed over every table of N pairs by its trinomial
 * probability, no simulation.
 */
const CONFIDENCE = 0.95
const ALPHA = 1 - CONFIDENCE

function logFactorials(n: number): number[] {
  const table = [0]
  for (let i = 1; i <= n; i++) table.push((table[i - 1] as number) + Math.log(i))
  return table
}

/** The tables (new-only bad, stored-only bad) of N pairs the rule passes, lower being better. */
function passingTables(
  n: number,
  passes: (newOnly: number, storedOnly: number) => boolean,
): Array<readonly [number, number]> {
  const tables: Array<readonly [number, number]> = []
  for (let newOnly = 0; newOnly <= n; newOnly++)
    for (let storedOnly = 0; storedOnly <= n - newOnly; storedOnly++)
      if (passes(newOnly, storedOnly)) tables.push([newOnly, storedOnly])
  return tables
}

/** The paired gate's answer on one table, through the gate's own comparison of outcome strings. */
function pairedPasses(n: number, tolerance: number, better: 'lower' | 'higher') {
  // With lower better, bad = the predicate held ('1'); with higher better, bad = it did not.
  const [bad, good] = better === 'lower' ? ['1', '0'] : ['0', '1']
  return (newOnly: number, storedOnly: number) => {
    const same = n - newOnly - storedOnly
    const current = bad.repeat(newOnly) + good.repeat(storedOnly) + good.repeat(same)
    const stored = good.repeat(newOnly) + bad.repeat(storedOnly) + good.repeat(same)
    return (
      comparePairedWithBaseline(current, stored, { tolerance, better, confidence: CONFIDENCE }).finding ===
      'within'
    )
  }
}

/** P(pass) of a pass region when pairs are (worse, better, alike) with these probabilities. */
function size(
  n: number,
  tables: ReadonlyArray<readonly [number, number]>,
  worse: number,
  better: number,
): number {
  const logFactorial = logFactorials(n)
  const alike = 1 - worse - better
  const term = (k: number, p: number) => (k === 0 ? 0 : p <= 0 ? -Infinity : k * Math.log(p))
  let total = 0
  for (const [w, b] of tables) {
    const s = n - w - b
    total += Math.exp(
      (logFactorial[n] as number) -
        (logFactorial[w] as number) -
        (logFactorial[b] as number) -
        (logFactorial[s] as number) +
        term(w, worse) +
        term(b, better) +
        term(s, alike),
    )
  }
  return total
}

/** The couplings of bad(stored) ~ p and bad(new) ~ p + tolerance: `steps + 1` points from counter- to comonotone. */
function couplings(stored: number, current: number, steps: number) {
  const least = Math.max(0, stored + current - 1)
  const most = Math.min(stored, current)
  return Array.from({ length: steps + 1 }, (_, i) => {
    const bothBad = least + ((most - least) * i) / steps
    return { worse: current - bothBad, better: stored - bothBad }
  })
}

describe('the stored-baseline gate under any coupling of its two runs', () => {
  // The audit's case: base 50%, tolerance 5%, the change bad iff u > 0.45 where the stored run was
  // bad iff u < 0.50. Two independent-sample intervals would pass it 9.99% of the time.
  test('a regression of exactly the tolerance passes at most α: countermonotone, independent, comonotone', () => {
    const n = 100
    const tolerance = 0.05
    const paired = passingTables(n, pairedPasses(n, tolerance, 'lower'))
    const laws = {
      countermonotone: { worse: 0.5, better: 0.45 },
      independent: { worse: 0.55 * 0.5, better: 0.45 * 0.5 },
      comonotone: { worse: 0.05, better: 0 },
    }
    for (const [name, law] of Object.entries(laws)) {
      expect(size(n, paired, law.worse, law.better), name).toBeLessThanOrEqual(ALPHA)
    }
    // The independent-sample comparison on the same pairs, countermonotone: new bad = worse + both
    // bad (here both bad has probability 0.05), stored bad = better + both bad. Its exact size is
    // over α, which is why a run on the stored seed is compared pair by pair.
    const logFactorial = logFactorials(n)
    const term = (k: number, p: number) => (k === 0 ? 0 : k * Math.log(p))
    let independentSize = 0
    for (let w = 0; w <= n; w++) {
      for (let b = 0; b <= n - w; b++) {
        const both = n - w - b
        const p = Math.exp(
          (logFactorial[n] as number) -
            (logFactorial[w] as number) -
            (logFactorial[b] as number) -
            (logFactorial[both] as number) +
            term(w, 0.5) +
            term(b, 0.45) +
            term(both, 0.05),
        )
        if (p < 1e-14) continue
        const finding = compareWithBaseline(
          { successes: w + both, n },
          { successes: b + both, n },
          { tolerance, better: 'lower', confidence: CONFIDENCE },
        ).finding
        if (finding === 'within') independentSize += p
      }
    }
    expect(independentSize).toBeCloseTo(0.0999, 3)
  })

  test('exact size at most α over stored rates, tolerances, sample sizes and couplings', () => {
    let worst = 0
    let cases = 0
    for (const n of [20, 100]) {
      for (const tolerance of [0, 0.05, 0.1, 0.2]) {
        const tables = passingTables(n, pairedPasses(n, tolerance, 'lower'))
        for (const stored of [0.02, 0.1, 0.23, 0.4, 0.5, 0.7]) {
          for (const law of couplings(stored, stored + tolerance, 10)) {
            worst = Math.max(worst, size(n, tables, law.worse, law.better))
            cases++
          }
        }
      }
    }
    expect(cases).toBe(2 * 4 * 6 * 11)
    expect(worst).toBeLessThanOrEqual(ALPHA)
    // Not vacuous: the worst case spends most of α.
    expect(worst).toBeGreaterThan(0.03)
  })

  test('a success predicate (higher is better) is the mirror image', () => {
    const n = 100
    const tolerance = 0.05
    const lower = passingTables(n, pairedPasses(n, tolerance, 'lower'))
    const higher = passingTables(n, pairedPasses(n, tolerance, 'higher'))
    expect(higher).toEqual(lower)
  })

  test('an agent changed in a few runs is told apart from the stored one in few discordant pairs', () => {
    // 100 rollouts, 3 became bad and none good: the paired bound is within a 10-point tolerance.
    const stored = '0'.repeat(90) + '1'.repeat(10)
    const current = '1'.repeat(3) + '0'.repeat(87) + '1'.repeat(10)
    const paired = comparePairedWithBaseline(current, stored, {
      tolerance: 0.1,
      better: 'lower',
      confidence: CONFIDENCE,
    })
    expect(paired.pairs).toEqual({ worse: 3, better: 0, same: 97 })
    expect(paired.finding).toBe('within')
    // Two independent rates of 13% and 10% cannot show it.
    const independent = compareWithBaseline(
      { successes: 13, n: 100 },
      { successes: 10, n: 100 },
      { tolerance: 0.1, better: 'lower', confidence: CONFIDENCE },
    )
    expect(independent.finding).toBe('undecided')
    // A pair with an error on either side is left out.
    const withErrors = comparePairedWithBaseline('-1' + current.slice(2), stored, {
      tolerance: 0.1,
      better: 'lower',
      confidence: CONFIDENCE,
    })
    expect(withErrors.pairs.worse + withErrors.pairs.better + withErrors.pairs.same).toBe(99)
  })
})
