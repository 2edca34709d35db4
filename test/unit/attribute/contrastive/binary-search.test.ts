import { describe, expect, it } from 'vitest'
import { contrastive } from '../../../../src/attribute/contrastive/contrastive.js'
import {
  PROBE_CAP_TESTS,
  PROBE_E_PROCESS_SHARE,
  combinedPValue,
  signTestPValue,
  type ProbeCapTest,
} from '../../../../src/attribute/arms/probe-tests.js'
import { formatContrastive } from '../../../../src/text/attribution.js'
import type { Trajectory } from '../../../../src/index.js'
import {
  failingNoisyRun,
  isNoisyBad,
  noisyLocusModel,
  tallyLoci,
  type LocusTally,
} from '../../../../bench/binary-search.js'
import { coverageCheck, errorRateCheck, type BinomialCheck } from '../../../binomial-check.js'
import { once } from '../../../once.js'

// Binary search on generated models with a live noisy tool (replay fidelity 0.8): the arms' pairs
// are discordant both ways, so single probes are often undecided at the cap — the case where a
// search that reads "undecided" as "no rescue" loses the true step. Every rate below is a Monte
// Carlo count over seeded models (deterministic: the same numbers on every run), checked by the
// binomial design beside it: each family's accuracy at a level its runs can hold to 3 points (the
// search 3 points less accurate is caught with probability ≥ 0.9), and each family's false
// discoveries, which Holm bounds by α = 5%, at 2α.

/** Mean rollouts of fixed linear search (K = 32 for the baseline and every step) on `steps` steps. */
const fixedLinearRollouts = (steps: number) => 32 * (steps + 1)

/** Runs `config` and checks what every tally must show: the ceilings held, and the extension ran. */
async function tallyWithin(
  runs: number,
  config: Parameters<typeof tallyLoci>[1],
  firstSeed: number,
): Promise<LocusTally> {
  const tally = await tallyLoci(runs, config, {}, firstSeed)
  // At most n × 32 for a run that extended a probe, (n + 1) × 32 (fixed linear search) otherwise.
  expect(tally.overCeiling).toBe(0)
  return tally
}

/**
 * A planted family: its models, and the accuracy its runs are checked at. A level of 99% is held to
 * 3 points by 400 runs, 97% by 600 (0.95 would need 900); each level sits under the family's
 * accuracy over 1,000 seeds (99.5%, 97.6%, 99.5%, 98.1%), so a correct search clears it by a margin.
 */
interface PlantedFamily {
  readonly name: string
  readonly accuracy: BinomialCheck
  readonly tally: () => Promise<LocusTally>
}

function family(
  name: string,
  config: Parameters<typeof tallyLoci>[1],
  firstSeed: number,
  runs: number,
  level: number,
): PlantedFamily {
  return {
    name,
    accuracy: coverageCheck(runs, level),
    tally: once(() => tallyWithin(runs, config, firstSeed)),
  }
}

// Each family is tallied once, and checked twice: its accuracy in its own test, its false
// discoveries in one test per family.
const planted = {
  short: family('15-step models (P(bad) ≤ 0.4)', {}, 0, 400, 0.99),
  shortWeak: family(
    '15-step models with weaker rescues (P(bad) ≤ 0.5)',
    { maxBadProbability: 0.5 },
    0,
    600,
    0.97,
  ),
  long: family('models of 13–40 steps (P(bad) ≤ 0.4)', { minLength: 13, maxLength: 40 }, 1000, 400, 0.99),
  longWeak: family(
    'models of 13–40 steps with weaker rescues (P(bad) ≤ 0.5)',
    { minLength: 13, maxLength: 40, maxBadProbability: 0.5 },
    1000,
    600,
    0.97,
  ),
}

describe('binary search with an undecided probe', () => {
  // Before an undecided probe could be extended (one exact test at 32 pairs, split 0.75 / 0.25 with
  // the e-process), the first seeds of each family gave 295 and 274 of 300 on the 15-step models
  // (P(bad) ≤ 0.4 and ≤ 0.5) and 188 and 173 of 200 on 13–40 steps, at 173 and 181 rollouts on 15
  // steps. The accuracy checks below catch that search with probability > 0.999 in three families;
  // in the first, where it lost only 1.7 points, with 0.15.

  it('finds the locus in ≥ 99% of 400 15-step models (P(bad) ≤ 0.4), within fixed linear search’s rollouts', async () => {
    // At least 391 of 400: catches 96% accuracy with probability 0.960, fails 99% with 0.0078.
    // Observed: 399 of 400, 185 rollouts on average and at most 440, against 512 for fixed linear
    // search; a probe was extended in 30 runs.
    const { accuracy, tally: tallied } = planted.short
    const tally = await tallied()
    expect(tally.runs).toBe(accuracy.runs)
    expect(tally.correct).toBeGreaterThanOrEqual(accuracy.limit)
    expect(tally.rollouts / tally.runs).toBeLessThan(fixedLinearRollouts(15))
    expect(tally.maxRollouts).toBeLessThanOrEqual(15 * 32)
  })

  it('finds the locus in ≥ 97% of 600 15-step models with weaker rescues (P(bad) ≤ 0.5), by extending undecided probes', async () => {
    // At least 572 of 600: catches 94% accuracy with probability 0.905, fails 97% with 0.0093.
    // Observed: 585 of 600, 197 rollouts on average and at most 480; a probe was extended in 72 runs.
    const { accuracy, tally: tallied } = planted.shortWeak
    const tally = await tallied()
    expect(tally.runs).toBe(accuracy.runs)
    expect(tally.correct).toBeGreaterThanOrEqual(accuracy.limit)
    expect(tally.rollouts / tally.runs).toBeLessThan(fixedLinearRollouts(15))
    expect(tally.maxRollouts).toBeLessThanOrEqual(15 * 32)
    expect(tally.extended).toBeGreaterThan(tally.runs / 20)
  })

  it('finds the locus in ≥ 99% of 400 models of 13–40 steps (P(bad) ≤ 0.4)', async () => {
    // At least 391 of 400 (as above). Observed: 398 of 400. Longer runs are harder: Holm over 40
    // steps asks for p ≤ 0.05/40 on the first rejection.
    const { accuracy, tally: tallied } = planted.long
    const tally = await tallied()
    expect(tally.runs).toBe(accuracy.runs)
    expect(tally.correct).toBeGreaterThanOrEqual(accuracy.limit)
    for (const length of [13, 40]) {
      expect(noisyLocusModel(0, { minLength: length, maxLength: length }).length).toBe(length)
    }
  })

  it('finds the locus in ≥ 97% of 600 models of 13–40 steps with weaker rescues (P(bad) ≤ 0.5)', async () => {
    // At least 572 of 600 (as above). Observed: 584 of 600; a probe was extended in 114 runs.
    const { accuracy, tally: tallied } = planted.longWeak
    const tally = await tallied()
    expect(tally.runs).toBe(accuracy.runs)
    expect(tally.correct).toBeGreaterThanOrEqual(accuracy.limit)
    expect(tally.extended).toBeGreaterThan(0)
  })

  // One design per family, so a defect confined to one family is caught as surely as one in all:
  // at most 31 of 400 runs (43 of 600) may name a locus past the pivot, which catches a search
  // erring in 10% (2α) of the family's runs with probability 0.925 (0.990), and fails one erring in
  // exactly 5% with 0.0067 (0.0081). Observed: 1, 2, 1 and 2.
  it.each(Object.values(planted))(
    'names a locus past the pivot in at most 5% of the planted runs: $name',
    async ({ accuracy, tally: tallied }) => {
      const wrongLoci = errorRateCheck(accuracy.runs, 0.05)
      const tally = await tallied()
      expect(tally.runs).toBe(wrongLoci.runs)
      expect(tally.falseDiscoveries).toBeLessThanOrEqual(wrongLoci.limit)
    },
  )

  it('names no locus on the null model (no step rescues) in ≥ 95% of 400 runs of 13–40 steps', async () => {
    // Holm over every step bounds the chance of any false rescue by 5%, extended probes included.
    // At most 31 of 400 may name a locus: a rate of 10% (2α) is caught with probability 0.925, and a
    // rate of exactly 5% fails with 0.0067. Observed: 1 of 400. Null steps that lean clearly by
    // chance get extended here too (21 runs).
    const falseLoci = errorRateCheck(400, 0.05)
    const tally = await tallyWithin(falseLoci.runs, { minLength: 13, maxLength: 40, planted: false }, 2000)
    expect(tally.abstained + tally.falseDiscoveries).toBe(tally.runs)
    expect(tally.falseDiscoveries).toBeLessThanOrEqual(falseLoci.limit)
    expect(tally.extended).toBeGreaterThan(0)
  })

  it('extends the latest undecided probe that leans clearly toward a rescue, and names it when the extension decides it', async () => {
    // Model 54 (P(bad) ≤ 0.5): pivot 3, a rescue of about −0.4. Steps 0–3 all rescue, but each ends
    // undecided at its 32 pairs; with one test at the cap the search abstained. Step 3 is the latest
    // of them whose sign test at 32 pairs is at most 0.1 (step 4 leans the other way), so it is
    // extended to 64 pairs, whose exact sign test passes Holm.
    const model = noisyLocusModel(54, { maxBadProbability: 0.5 })
    expect(model.pivot).toBe(3)
    const result = await contrastive(model.agent, await failingNoisyRun(model, 54), {
      isBad: isNoisyBad,
      seed: 54,
    })
    expect(result.search).toBe('binary')
    expect(result.methods.sequential).toMatch(
      /exact sign test of its 32 pairs, and an undecided step after the latest rescue whose sign test there is at most 0\.1 may be extended to 64 pairs .*split 0\.6 \/ 0\.3 sign tests, 0\.1 e-process/,
    )
    expect(result.locus).toBe(3)
    expect(result.steps[3]).toMatchObject({ direction: 'rescues', rolloutsUsed: 64 })
    for (const index of [0, 1, 2]) {
      const undecided = result.steps[index]
      expect(undecided).toMatchObject({ evaluated: true, direction: 'none', rolloutsUsed: 32 })
      expect(undecided?.effect.point).toBeLessThan(0)
    }
    // The step after the locus is evaluated (the bracket), and steps the search skipped show as such.
    expect(result.steps[4]).toMatchObject({ evaluated: true, direction: 'none', rolloutsUsed: 32 })
    expect(result.steps.filter((step) => step.evaluated).map((step) => step.index)).toEqual([
      0, 1, 2, 3, 4, 5, 7, 9, 10, 11,
    ])
    for (const step of result.steps.filter((step) => !step.evaluated)) {
      expect(step).toMatchObject({ pValue: 1, rolloutsUsed: 0, direction: 'none' })
    }
    expect(result.rolloutsUsed).toBeLessThanOrEqual(15 * 32)
    // The printed cap says that one probe went past it.
    expect(formatContrastive(result, null)[0]).toContain(
      '(≤ 32 rollouts/step (64 on an extended probe), sequential,',
    )
  })

  it('stops cleanly when the budget runs out during an extension: truncated, and no locus', async () => {
    // Model 54 spends 352 rollouts before it extends step 3 and 416 in all.
    const model = noisyLocusModel(54, { maxBadProbability: 0.5 })
    const factual = await failingNoisyRun(model, 54)
    const result = await contrastive(model.agent, factual, {
      isBad: isNoisyBad,
      seed: 54,
      budget: { maxRollouts: 400 },
    })
    expect(result.truncated).toBe(true)
    expect(result.rolloutsUsed).toBe(400)
    expect(result.locus).toBeNull()
    expect(result.steps[3]?.rolloutsUsed).toBeGreaterThan(32)
  })

  it('gives byte-identical JSON at concurrency 1 and 8 on noisy models, with async scoring and extended probes', async () => {
    const jitter = async (trajectory: Trajectory) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2))
      return isNoisyBad(trajectory)
    }
    let extended = 0
    for (const seed of [62, 7]) {
      const model = noisyLocusModel(seed, { minLength: 20, maxLength: 20 })
      const factual = await failingNoisyRun(model, seed)
      const one = await contrastive(model.agent, factual, { isBad: jitter, seed, concurrency: 1 })
      const eight = await contrastive(model.agent, factual, { isBad: jitter, seed, concurrency: 8 })
      expect(JSON.stringify(eight)).toBe(JSON.stringify(one))
      if (one.steps.some((step) => step.rolloutsUsed > 32)) extended++
    }
    // Model 7 extends two probes (steps 4 and 5, which then stop as rescues at 44 pairs).
    expect(extended).toBeGreaterThan(0)
  })
})

describe('combinedPValue of a binary-search probe (weighted Bonferroni of the e-process and the exact tests)', () => {
  it('splits the level 0.1 / 0.6 / 0.3 and counts a size never reached as p = 1', () => {
    expect(PROBE_E_PROCESS_SHARE + PROBE_CAP_TESTS.reduce((sum, test) => sum + test.share, 0)).toBeCloseTo(
      1,
      12,
    )
    expect(PROBE_CAP_TESTS.map((test) => test.size)).toEqual([1, 2])
    const tests = PROBE_CAP_TESTS.map((test) => ({ pairs: test.size * 32, share: test.share }))
    const probeCombinedPValue = (maxLogE: number, pValues: Array<number | undefined>) =>
      combinedPValue(maxLogE, PROBE_E_PROCESS_SHARE, tests, pValues)
    expect(probeCombinedPValue(Math.log(100), [undefined, undefined])).toBeCloseTo(0.1, 12)
    expect(probeCombinedPValue(Math.log(100), [0.012, undefined])).toBeCloseTo(0.02, 12)
    expect(probeCombinedPValue(Math.log(100), [0.012, 0.003])).toBeCloseTo(0.01, 12)
    expect(probeCombinedPValue(0, [0.9, 0.9])).toBe(1)
  })

  it('keeps the exact tests within their share of the level when the extension depends on the first pairs', () => {
    // Under the null every discordant pair is a rescue with probability ≤ 1/2, worst case exactly
    // 1/2. Enumerate both tests' outcomes given d₁ discordant pairs among the first 32 and d₂ among
    // the next 32, extend only when the first pairs lean toward a rescue (as the search does), and
    // add up the chance that either test rejects at level t: it must stay within (0.6 + 0.3)·t.
    const binomial = (n: number) => {
      const row = [1]
      for (let k = 1; k <= n; k++) row.push(((row[k - 1] as number) * (n - k + 1)) / k)
      return row.map((count) => count / 2 ** n)
    }
    const [first, second] = PROBE_CAP_TESTS as [ProbeCapTest, ProbeCapTest]
    for (const t of [0.05 / 40, 0.05 / 15, 0.05]) {
      for (const [d1, d2] of [
        [8, 8],
        [12, 10],
        [20, 20],
        [32, 32],
        [5, 30],
      ] as const) {
        const p1 = binomial(d1)
        const p2 = binomial(d2)
        let rejected = 0
        for (let b1 = 0; b1 <= d1; b1++) {
          for (let b2 = 0; b2 <= d2; b2++) {
            const atCap = signTestPValue({ better: b1, worse: d1 - b1 }) / first.share
            const leans = b1 > d1 - b1
            const extended = leans
              ? signTestPValue({ better: b1 + b2, worse: d1 + d2 - b1 - b2 }) / second.share
              : Infinity
            if (Math.min(atCap, extended) <= t) rejected += (p1[b1] as number) * (p2[b2] as number)
          }
        }
        expect(rejected).toBeLessThanOrEqual((first.share + second.share) * t)
      }
    }
  })
})

describe('signTestPValue (exact one-sided McNemar test)', () => {
  it('matches hand-computed binomial tails', () => {
    // P(X ≥ 10), X ~ Bin(10, 1/2) = 2⁻¹⁰; P(X ≥ 3), X ~ Bin(4, 1/2) = 5/16; P(X ≥ 13), Bin(16, 1/2)
    // = (560 + 120 + 16 + 1) / 65536.
    expect(signTestPValue({ better: 10, worse: 0 })).toBeCloseTo(1 / 1024, 12)
    expect(signTestPValue({ better: 3, worse: 1 })).toBeCloseTo(5 / 16, 12)
    expect(signTestPValue({ better: 13, worse: 3 })).toBeCloseTo(697 / 65536, 12)
    expect(signTestPValue({ better: 0, worse: 5 })).toBe(1)
    expect(signTestPValue({ better: 0, worse: 0 })).toBe(1)
  })
})
