import fc from 'fast-check'
import seedrandom from 'seedrandom'
import { describe, expect, it } from 'vitest'
import { deriveSeed, providerSeed, stepStream, streamKey } from '../../../src/random/streams.js'

const draws = (rng: () => number, n: number) => Array.from({ length: n }, () => rng())

describe('stepStream', () => {
  it("is seedrandom's alea seeded with the key seed/rollout/step", () => {
    fc.assert(
      fc.property(fc.integer(), fc.nat(), fc.nat(), (seed, rollout, step) => {
        expect(streamKey(seed, rollout, step)).toBe(`${seed}/${rollout}/${step}`)
        expect(draws(stepStream(seed, rollout, step), 20)).toEqual(
          draws(seedrandom.alea(`${seed}/${rollout}/${step}`), 20),
        )
      }),
      { numRuns: 200, seed: 1 },
    )
  })

  it('gives a stream seeded before (or whose cache slot another key took since) the same draws', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => [1 + (i % 7), i % 613, i % 5] as const)
    const first = keys.map(([seed, rollout, step]) => draws(stepStream(seed, rollout, step), 3))
    const again = keys.map(([seed, rollout, step]) => draws(stepStream(seed, rollout, step), 3))
    expect(again).toEqual(first)
    for (const [index, [seed, rollout, step]] of keys.entries()) {
      if (index % 97 === 0)
        expect(first[index]).toEqual(draws(seedrandom.alea(`${seed}/${rollout}/${step}`), 3))
    }
  })

  it('writes the key of any number as String does: large, negative, -0 and fractional ones too', () => {
    const number = fc.oneof(fc.maxSafeNat(), fc.integer(), fc.constant(-0), fc.constant(2 ** 53), fc.double())
    fc.assert(
      fc.property(number, number, number, (seed, rollout, step) => {
        expect(draws(stepStream(seed, rollout, step), 5)).toEqual(
          draws(seedrandom.alea(`${seed}/${rollout}/${step}`), 5),
        )
      }),
      { numRuns: 300, seed: 3 },
    )
  })

  it('gives the same draws whatever key was seeded before it (a repeated seed, digits at 2^31)', () => {
    const seeds = [0, -0, 7, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, -5, 1.5]
    const indices = [0, 9, 10, 99, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 7]
    const key = fc.tuple(fc.constantFrom(...seeds), fc.constantFrom(...indices), fc.constantFrom(...indices))
    fc.assert(
      fc.property(fc.array(key, { minLength: 2, maxLength: 12 }), (keys) => {
        for (const [seed, rollout, step] of keys) {
          expect(draws(stepStream(seed, rollout, step), 3)).toEqual(
            draws(seedrandom.alea(`${seed}/${rollout}/${step}`), 3),
          )
        }
      }),
      { numRuns: 200, seed: 5 },
    )
  })

  it('is a pure function of (seed, rollout, step): two streams of one key agree draw for draw', () => {
    fc.assert(
      fc.property(fc.integer(), fc.nat(1000), fc.nat(1000), (seed, rollout, step) => {
        expect(draws(stepStream(seed, rollout, step), 10)).toEqual(draws(stepStream(seed, rollout, step), 10))
      }),
      { numRuns: 100, seed: 2 },
    )
  })

  it('gives different streams to neighbouring keys (no collisions such as 1/23/4 vs 12/3/4)', () => {
    const firsts = new Set<number>()
    for (let seed = 0; seed < 12; seed++)
      for (let rollout = 0; rollout < 12; rollout++)
        for (let step = 0; step < 12; step++) firsts.add(stepStream(seed, rollout, step)())
    expect(firsts.size).toBe(12 ** 3)
    expect(stepStream(1, 23, 4)()).not.toBe(stepStream(12, 3, 4)())
  })

  it('draws uniformly in [0, 1) (a chi-square check at the 0.1% level over 20 bins)', () => {
    const bins = new Array<number>(20).fill(0)
    const n = 20_000
    for (let i = 0; i < n; i++) {
      const u = stepStream(7, i, 0)()
      expect(u >= 0 && u < 1).toBe(true)
      bins[Math.floor(u * 20)]!++
    }
    const expected = n / 20
    const chiSquare = bins.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0)
    // 99.9th percentile of chi-square with 19 degrees of freedom.
    expect(chiSquare).toBeLessThan(43.82)
  })
})

describe('providerSeed and deriveSeed', () => {
  it('providerSeed is a 31-bit integer, fixed per step key', () => {
    fc.assert(
      fc.property(fc.integer(), fc.nat(), fc.nat(), (seed, rollout, step) => {
        const value = providerSeed(seed, rollout, step)
        expect(Number.isInteger(value) && value >= 0 && value < 2 ** 31).toBe(true)
        expect(providerSeed(seed, rollout, step)).toBe(value)
      }),
      { numRuns: 200, seed: 3 },
    )
    expect(new Set(Array.from({ length: 1000 }, (_, step) => providerSeed(1, 0, step))).size).toBe(1000)
  })

  it('deriveSeed depends on the seed and the label', () => {
    expect(deriveSeed(1, 'replay/0')).toBe(deriveSeed(1, 'replay/0'))
    expect(deriveSeed(1, 'replay/0')).not.toBe(deriveSeed(2, 'replay/0'))
    expect(deriveSeed(1, 'replay/0')).not.toBe(deriveSeed(1, 'replay/1'))
    expect(deriveSeed(1, 'x')).toBeLessThan(2 ** 31)
  })
})
