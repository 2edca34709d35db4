import { describe, expect, it } from 'vitest'
import { check, defineAgent, scoresAtLeast, scoresAtMost, type Trajectory } from '../../../src/index.js'
import { bettingLogWealthPath } from '../../../src/stats/betting-mean-test.js'
import { clopperPearson } from '../../../src/stats/clopper-pearson.js'
import type { ResolvedScoreGate } from '../../../src/verdict/options.js'
import { ArtifactSchema, VerdictSchema } from '../../../src/verdict/schema.js'
import { runScoreGate, scoreDecision, type ScoreSubject } from '../../../src/verdict/score-gate.js'
import { errorRateCheck } from '../../binomial-check.js'
import { common, withOverrides, type GateOverrides } from './gate-helpers.js'

/** An agent whose one step draws a score from `draw`; its output is the score. */
function scoreAgent(draw: (rng: () => number) => number, name = 'scored') {
  return defineAgent({
    name,
    input: {},
    async run(_input, ctx) {
      return ctx.step('answer', (rng) => draw(rng))
    },
  }).on({})
}

const output = (trajectory: Trajectory): number => trajectory.output as number

function subject(scorer: ScoreSubject['scorer'] = output): ScoreSubject {
  return { agent: 'scored', scorer, label: 'helpfulness', seedSource: 'option' }
}

function scoreGate(
  overrides: GateOverrides<ResolvedScoreGate<'scoreAtLeast' | 'scoreAtMost'>> = {},
): ResolvedScoreGate<'scoreAtLeast' | 'scoreAtMost'> {
  return withOverrides(
    {
      ...common(),
      claim: 'scoreAtLeast',
      direction: 'atLeast',
      threshold: 0.8,
      range: [0, 1],
      maxRollouts: 400,
      minRollouts: 0,
      onInconclusive: 'fail',
    },
    overrides,
  )
}

// Left-skewed scores near 1 (mean 6/7 ≈ 0.857) and right-skewed ones (mean 1/5).
const leftSkewed = (rng: () => number) => 1 - rng() ** 6
const rightSkewed = (rng: () => number) => rng() ** 4

describe('runScoreGate', () => {
  it('passes a clearly good agent at its first decision, with the sequence above the threshold', async () => {
    const { verdict, failing } = await runScoreGate(
      scoreAgent((rng) => 0.9 + 0.1 * rng()),
      subject(),
      scoreGate(),
    )
    expect(verdict).toMatchObject({ gate: 'score', claim: 'scoreAtLeast', kind: 'pass', stop: 'decided' })
    expect(verdict.score.mean!.low).toBeGreaterThanOrEqual(0.8)
    expect(verdict.score.mean!.method).toBe('confidence-sequence')
    expect(verdict.score.mean!.confidence).toBeCloseTo(0.9, 12)
    expect(verdict.rolloutsUsed).toBeLessThan(40)
    expect(verdict.score.attributed).toBeNull()
    expect(verdict.replay).toBeNull()
    expect(failing).toBeNull()
    expect(() => VerdictSchema.parse(verdict)).not.toThrow()
  })

  it('fails a clearly bad agent and attributes its lowest-scoring rollout, whose score is below the threshold', async () => {
    const scores: number[] = []
    const run = await runScoreGate(
      scoreAgent(rightSkewed),
      subject((trajectory) => {
        scores.push(output(trajectory))
        return output(trajectory)
      }),
      scoreGate(),
    )
    const { verdict, failing, isBad } = run
    const gateScores = [...scores]
    expect(verdict.kind).toBe('fail')
    expect(verdict.score.mean!.high).toBeLessThan(0.8)
    const lowest = Math.min(...scores)
    expect(verdict.score.attributed).toEqual({ rollout: scores.indexOf(lowest), score: lowest })
    expect(verdict.replay).toEqual({ seed: 7, rollout: scores.indexOf(lowest) })
    expect(failing!.rollout).toBe(scores.indexOf(lowest))
    expect(await isBad(failing!)).toBe(true)
    expect(verdict.score.lowest).toBe(lowest)
    expect(verdict.score.highest).toBe(Math.max(...gateScores))
    // The share that scored ≥ 0.8, by Clopper–Pearson.
    const good = gateScores.filter((score) => score >= 0.8).length
    expect(verdict.observed).toEqual(clopperPearson(good, gateScores.length, 0.95))
  })

  it('stops at the first look where the wealth path reaches 1/α, scoring in rollout order', async () => {
    const scores: number[] = []
    const { verdict } = await runScoreGate(
      scoreAgent(leftSkewed),
      subject((trajectory) => {
        scores.push(output(trajectory))
        return output(trajectory)
      }),
      scoreGate({ threshold: 0.7, concurrency: 3 }),
    )
    const path = bettingLogWealthPath(scores, 0.7, 0.05)
    const first = path.findIndex((wealth) => wealth.above >= Math.log(20) || wealth.below >= Math.log(20))
    expect(verdict.kind).toBe('pass')
    expect(verdict.rolloutsUsed).toBe(first + 1)
    expect(scoreDecision(scores, 0.7, 0.05)).toBe('above')
    expect(scoreDecision(scores.slice(0, first), 0.7, 0.05)).toBe('undecided')
  })

  it('gives the same verdict at any concurrency', async () => {
    const verdicts = await Promise.all(
      [1, 3, 8, 32].map(
        async (concurrency) =>
          (await runScoreGate(scoreAgent(leftSkewed), subject(), scoreGate({ concurrency }))).verdict,
      ),
    )
    const scored = ({ rolloutsRun: _ran, ...verdict }: (typeof verdicts)[number]) => verdict
    for (const verdict of verdicts) expect(scored(verdict)).toEqual(scored(verdicts[0]!))
  })

  it('is inconclusive at the threshold when maxRollouts runs out, with a sequence that straddles it', async () => {
    const { verdict } = await runScoreGate(
      scoreAgent(leftSkewed),
      subject(),
      scoreGate({ threshold: 6 / 7, maxRollouts: 60 }),
    )
    expect(verdict).toMatchObject({ kind: 'inconclusive', stop: 'max-rollouts', rolloutsUsed: 60 })
    expect(verdict.score.mean!.low).toBeLessThanOrEqual(6 / 7)
    expect(verdict.score.mean!.high).toBeGreaterThanOrEqual(6 / 7)
  })

  it('toScoreAtMost: fails a high mean and attributes the highest-scoring rollout', async () => {
    const scores: number[] = []
    const { verdict } = await runScoreGate(
      scoreAgent(leftSkewed),
      subject((trajectory) => {
        scores.push(output(trajectory))
        return output(trajectory)
      }),
      scoreGate({ claim: 'scoreAtMost', direction: 'atMost', threshold: 0.5 }),
    )
    expect(verdict).toMatchObject({ claim: 'scoreAtMost', kind: 'fail' })
    expect(verdict.score.mean!.low).toBeGreaterThan(0.5)
    const highest = Math.max(...scores)
    expect(verdict.score.attributed).toEqual({ rollout: scores.indexOf(highest), score: highest })
  })

  it('rescales a declared range for the test and reports in the user’s units', async () => {
    // Grades 1–5: the same draws as [0, 1] scores mapped onto the scale decide identically.
    const unit = await runScoreGate(scoreAgent(leftSkewed), subject(), scoreGate())
    const graded = await runScoreGate(
      scoreAgent((rng) => 1 + 4 * leftSkewed(rng)),
      subject(),
      scoreGate({ threshold: 1 + 4 * 0.8, range: [1, 5] }),
    )
    expect(graded.verdict.kind).toBe(unit.verdict.kind)
    expect(graded.verdict.rolloutsUsed).toBe(unit.verdict.rolloutsUsed)
    expect(graded.verdict.score.mean!.point).toBeCloseTo(1 + 4 * unit.verdict.score.mean!.point, 9)
    expect(graded.verdict.score.mean!.low).toBeCloseTo(1 + 4 * unit.verdict.score.mean!.low, 9)
    expect(graded.verdict.score.range).toEqual([1, 5])
  })

  it('a score outside the range, or NaN, is an error naming the scorer and the rollout', async () => {
    await expect(
      runScoreGate(
        scoreAgent(() => 4),
        subject(),
        scoreGate(),
      ),
    ).rejects.toThrow(
      /the scorer "helpfulness".*scorer.*scores in \[0, 1\].*returned 4 on rollout 0.*range: \[min, max\]/s,
    )
    await expect(
      runScoreGate(
        scoreAgent(() => 0.5),
        subject(() => Number.NaN),
        scoreGate(),
      ),
    ).rejects.toThrow(/the scorer "helpfulness".*returned NaN on rollout 0/s)
    await expect(
      runScoreGate(
        scoreAgent(() => 0.5),
        subject(() => {
          throw new Error('judge is down')
        }),
        scoreGate(),
      ),
    ).rejects.toThrow('The scorer "helpfulness" threw on rollout 0: judge is down')
  })

  it('an error outcome fails the gate unless allowErrors, which leaves errors out of the mean', async () => {
    const flaky = defineAgent({
      name: 'flaky',
      input: {},
      async run(_input, ctx) {
        const value = await ctx.step('answer', (rng) => rng())
        if (value < 0.1) throw new Error('tool crashed')
        return 0.95
      },
    }).on({})
    const strict = await runScoreGate(flaky, subject(), scoreGate())
    expect(strict.verdict).toMatchObject({ kind: 'fail', stop: 'error' })
    expect(strict.failing!.error).toBeDefined()
    const lenient = await runScoreGate(flaky, subject(), scoreGate({ allowErrors: true }))
    expect(lenient.verdict.kind).toBe('pass')
    expect(lenient.verdict.errors.count).toBeGreaterThan(0)
    expect(lenient.verdict.observed.n).toBe(lenient.verdict.rolloutsUsed - lenient.verdict.errors.count)
  })
})

/**
 * Score models at a mean equal to the threshold, under either claim and scale, so the gate's own
 * mapping of a claim to a side and of a range to [0, 1] is in the loop. (The betting test itself is
 * checked on more shapes, flat, binary and right-skewed among them, in the stats tests.)
 */
const BOUNDARY_MODELS: ReadonlyArray<{
  name: string
  draw: (rng: () => number) => number
  gate: GateOverrides<ResolvedScoreGate<'scoreAtLeast' | 'scoreAtMost'>>
}> = [
  { name: 'left-skewed 1 − U^6, toScoreAtLeast 6/7', draw: leftSkewed, gate: { threshold: 6 / 7 } },
  {
    name: 'lumpy grades {1, 3, 5} w.p. {0.1, 0.2, 0.7}, toScoreAtMost 4.2 on a 1–5 scale',
    draw: (rng) => {
      const u = rng()
      return u < 0.1 ? 1 : u < 0.3 ? 3 : 5
    },
    gate: { claim: 'scoreAtMost', direction: 'atMost', threshold: 4.2, range: [1, 5] },
  },
]

describe('the score gate’s error rates, by seeded runs of runScoreGate (α = 5%, a look after each rollout)', () => {
  // At a true mean equal to the threshold the claim is false-ish either way: a pass is a wrong pass,
  // a fail a wrong fail, and each must happen in at most α of runs. 450 runs of up to 50 rollouts
  // per model (the printed sequence costs O(n²) per run, so 400 looks would take minutes); each
  // side may err in at most 35 runs (7.8%): a gate that errs on one side in 10% of runs is caught
  // with probability 0.936, and one that errs in exactly 5% fails with probability 0.0085 (both
  // sides, Bonferroni). Measured on the wealth path alone (4,000 runs): 0–2.5% per side at 50
  // looks, 2.2–3.3% at 400.
  const wrongDecisions = errorRateCheck(450, 0.05, { checks: 2 })

  it.each(BOUNDARY_MODELS)(
    '$name: wrong passes and wrong fails each within the design',
    async ({ draw, gate }) => {
      let passes = 0
      let fails = 0
      for (let seed = 0; seed < wrongDecisions.runs; seed++) {
        const { verdict } = await runScoreGate(
          scoreAgent(draw),
          subject(),
          scoreGate({ ...gate, seed, maxRollouts: 50 }),
        )
        if (verdict.kind === 'pass') passes++
        if (verdict.kind === 'fail') fails++
      }
      expect(passes).toBeLessThanOrEqual(wrongDecisions.limit)
      expect(fails).toBeLessThanOrEqual(wrongDecisions.limit)
    },
  )

  it('has power on a clear case: a left-skewed mean of 0.857 against 0.75 passes in ≥ 95 of 100 runs', async () => {
    // A floor on power, not an error rate: the wealth path alone passes 5,000 of 5,000 runs, so a
    // correct gate fails this with probability ~0; a gate that passes only 90% fails it with 0.94.
    let passes = 0
    let rollouts = 0
    for (let seed = 0; seed < 100; seed++) {
      const { verdict } = await runScoreGate(
        scoreAgent(leftSkewed),
        subject(),
        scoreGate({ threshold: 0.75, seed }),
      )
      if (verdict.kind === 'pass') passes++
      rollouts += verdict.rolloutsUsed
    }
    expect(passes).toBeGreaterThanOrEqual(95)
    // And it stops early: far fewer than 400 rollouts on average (58 on the wealth path alone).
    expect(rollouts / 100).toBeLessThan(150)
  })
})

/** plan (careful w.p. 0.3, else sloppy) → answer: a careful plan scores 0.8–1, a sloppy one 0–0.5. */
const twoStepAgent = defineAgent({
  name: 'support',
  input: { ticket: 'late order' },
  async run(_input, ctx) {
    const plan = await ctx.step('plan', (rng) => (rng() < 0.3 ? 'careful' : 'sloppy'))
    return ctx.step('answer', (rng) => (plan === 'careful' ? 0.8 + 0.2 * rng() : 0.5 * rng()), {
      context: { plan },
    })
  },
})
const helpfulness = (trajectory: Trajectory): number => trajectory.output as number

describe('check with a score claim', () => {
  it('fails, attributes the lowest-scoring rollout and names the plan step as the locus (message snapshot)', async () => {
    const result = await check(twoStepAgent, scoresAtLeast(helpfulness, 0.7, { seed: 3 }))
    expect(result.passed).toBe(false)
    expect(result.attribution?.locus).toBe(0)
    expect(result.message).toMatchSnapshot()
    // The artifact round-trips through its schema.
    expect(ArtifactSchema.parse(JSON.parse(JSON.stringify(result.artifact)))).toEqual(result.artifact)
  })

  it('passes an at-most claim on a 1–5 scale and prints the user’s units (message snapshot)', async () => {
    const result = await check(
      twoStepAgent,
      scoresAtMost((trajectory) => 1 + 4 * helpfulness(trajectory), 3.5, {
        range: [1, 5],
        seed: 3,
        label: 'grade',
      }),
    )
    expect(result.passed).toBe(true)
    expect(result.message).toMatchSnapshot()
  })

  it('refuses a threshold outside the range and a scorer that is not a function', () => {
    expect(() => scoresAtLeast(helpfulness, 4)).toThrow(
      /threshold.*strictly inside the scorer's range \[0, 1\].*range: \[min, max\]/s,
    )
    expect(() => scoresAtLeast(helpfulness, 0.8, { range: [1, 1] })).toThrow(/range/)
    // @ts-expect-error a number is not a scorer
    expect(() => scoresAtLeast(0.8, 0.8)).toThrow(/scorer.*a function \(trajectory\) => number/s)
  })
})
