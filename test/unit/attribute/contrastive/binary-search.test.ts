import { describe, expect, it } from 'vitest'
import { contrastive } from '../../../../src/attribute/contrastive/contrastive.js'
import {
  PROBE_CAP_TESTS,
  PROBE_E_PROCESS_SHARE,
  combinedPValue,
  signTestPValue,
  type ProbeCapTest,
} from '../../../../src/attribute/arms/probe-tests.js'
import { wilson } from '../../../../src/stats/index.js'
import { formatContrastive } from '../../../../src/text/attribution.js'
import type { Trajectory } from '../../../../src/index.js'
import {
  failingNoisyRun,
  isNoisyBad,
  noisyLocusModel,
  tallyLoci,
  type LocusTally,
} from '../../../../bench/binary-search.js'
import { errorRateCheck } from '../../../binomial-check.js'
import { once } from '../../../once.js'

// Binary search on generated models with a live noisy tool (replay fidelity 0.8): the arms' pairs
// are discordant both ways, so single probes are often undecided at the cap — the case where a
// search that reads "undecided" as "no rescue" loses the true step. Every rate below is a Monte
// Carlo estimate over seeded models (deterministic: the same numbers on every run); thresholds are
// set against the binomial standard error √(q(1 − q)/runs) of the observed rate q, and each
// accuracy claim asks for both the point and the lower end of its 95% Wilson interval. The false
// discovery rates, which Holm bounds by α = 5%, are sized by the binomial design instead (beside
// each check).

/** 95% Wilson interval of a count out of `runs`. */
function rate(count: number, runs: number): { point: number; low: number; high: number } {
  return wilson(count, runs, 0.95)
}

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

// The four planted families, each tallied once: its own test checks the accuracy, and one test
// checks the false discoveries over all 1,000 runs.
const planted = {
  short: once(() => tallyWithin(300, {}, 0)),
  shortWeak: once(() => tallyWithin(300, { maxBadProbability: 0.5 }, 0)),
  long: once(() => tallyWithin(200, { minLength: 13, maxLength: 40 }, 1000)),
  longWeak: once(() => tallyWithin(200, { minLength: 13, maxLength: 40, maxBadProbability: 0.5 }, 1000)),
}

describe('binary search with an undecided probe', () => {
  // Before an undecided probe could be extended (one exact test at 32 pairs, split 0.75 / 0.25 with
  // the e-process), the same seeds gave: 295 / 300 and 274 / 300 on the 15-step models (P(bad) ≤ 0.4
  // and ≤ 0.5), 188 / 200 and 173 / 200 on 13–40 steps, at 173 and 181 rollouts on 15 steps.

  it('finds the locus in ≥ 97% of 300 15-step models (P(bad) ≤ 0.4), within fixed linear search’s rollouts', async () => {
    // Observed: 300 of 300 (Wilson lower end 98.7%), no false discovery, 184 rollouts on average
    // and at most 440, against 512 for fixed linear search.
    const tally = await planted.short()
    const accuracy = rate(tally.correct, tally.runs)
    expect(accuracy.point).toBeGreaterThanOrEqual(0.97)
    expect(accuracy.low).toBeGreaterThan(0.95)
    expect(tally.rollouts / tally.runs).toBeLessThan(fixedLinearRollouts(15))
    expect(tally.maxRollouts).toBeLessThanOrEqual(15 * 32)
  })

  it('finds the locus in ≥ 95% of 300 15-step models with weaker rescues (P(bad) ≤ 0.5), by extending undecided probes', async () => {
    // Observed: 293 of 300 (97.7%, SE ≈ 0.9 points; Wilson lower end 95.3%), no false discovery,
    // 197 rollouts on average and at most 444; a probe was extended in 38 runs. Without the
    // extension: 91.3%, under both thresholds.
    const tally = await planted.shortWeak()
    const accuracy = rate(tally.correct, tally.runs)
    expect(accuracy.point).toBeGreaterThanOrEqual(0.95)
    expect(accuracy.low).toBeGreaterThan(0.93)
    expect(tally.rollouts / tally.runs).toBeLessThan(fixedLinearRollouts(15))
    expect(tally.maxRollouts).toBeLessThanOrEqual(15 * 32)
    expect(tally.extended).toBeGreaterThan(tally.runs / 20)
  })

  it('finds the locus in ≥ 96% of 200 models of 13–40 steps (P(bad) ≤ 0.4)', async () => {
    // Observed 199 of 200 (99.5%; Wilson lower end 97.2%) and no false discovery; 94.0% without the
    // extension. Longer runs are harder: Holm over 40 steps asks for p ≤ 0.05/40 on the first rejection.
    const tally = await planted.long()
    const accuracy = rate(tally.correct, tally.runs)
    expect(accuracy.point).toBeGreaterThanOrEqual(0.96)
    expect(accuracy.low).toBeGreaterThan(0.93)
    for (const length of [13, 40]) {
      expect(noisyLocusModel(0, { minLength: length, maxLength: length }).length).toBe(length)
    }
  })

  it('finds the locus in ≥ 93% of 200 models of 13–40 steps with weaker rescues (P(bad) ≤ 0.5)', async () => {
    // Observed 192 of 200 (96.0%, SE ≈ 1.4 points; Wilson lower end 92.3%) and no false discovery;
    // 86.5% without the extension.
    const tally = await planted.longWeak()
    const accuracy = rate(tally.correct, tally.runs)
    expect(accuracy.point).toBeGreaterThanOrEqual(0.93)
    expect(accuracy.low).toBeGreaterThan(0.9)
    expect(tally.extended).toBeGreaterThan(0)
  })

  it('names a locus past the pivot in at most 5% of the 1,000 planted runs', async () => {
    // Pooled over the four families (300 + 300 + 200 + 200 runs): at most 67 false discoveries, so
    // a search erring in 10% (2α) of every family's runs is caught with probability 0.9998, and one
    // erring in exactly 5% fails with 0.0074. A defect confined to one family is caught with 0.37
    // (a 15-step one) or 0.16 (13–40 steps) only; sized per family, 400 runs each would add about
    // 20 s to this file. Observed: none in any family.
    const wrongLoci = errorRateCheck(1000, 0.05)
    const tallies = await Promise.all([
      planted.short(),
      planted.shortWeak(),
      planted.long(),
      planted.longWeak(),
    ])
    const runs = tallies.reduce((sum, tally) => sum + tally.runs, 0)
    expect(runs).toBe(wrongLoci.runs)
    const falseDiscoveries = tallies.reduce((sum, tally) => sum + tally.falseDiscoveries, 0)
    expect(falseDiscoveries).toBeLessThanOrEqual(wrongLoci.limit)
  })

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
