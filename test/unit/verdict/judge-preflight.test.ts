import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, test } from 'vitest'
import { judge } from '../../../src/adapters/ai-sdk/index.js'
import { check, defineAgent, rarely, usually } from '../../../src/index.js'
import {
  correctedCanPass,
  correctedDecision,
  judgeCorrectionPlan,
  labelsToPass,
} from '../../../src/verdict/judge-correction.js'

/** A judge model that counts its calls and always says no. */
function countingJudgeModel() {
  const calls = { count: 0 }
  const model = new MockLanguageModelV3({
    modelId: 'counting-judge',
    doGenerate: async () => {
      calls.count++
      return {
        content: [{ type: 'text', text: 'NO' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 80, noCache: 80, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      }
    },
  })
  return { model, calls }
}

/** An agent that counts its runs. */
function countingAgent() {
  const runs = { count: 0 }
  const agent = defineAgent({
    name: 'counted',
    input: { order: 'A1' },
    async run(_input, ctx) {
      runs.count++
      return ctx.step('decide', (rng) => rng() < 0.5)
    },
  })
  return { agent, runs }
}

describe('judge pre-flight', () => {
  // A new user's judge, 40 labelled runs: sensitivity 8/13, and no false positive in 27. Zero
  // judge-yes in 400 rollouts bounds its apparent rate near 0.5%, but a true rate of 2% could show
  // as 0.02 × 0.25 (the sensitivity's exact lower bound) = 0.5%: no outcome proves "at most 2%".
  const weak = { sensitivity: { correct: 8, of: 13 }, specificity: { correct: 27, of: 27 } }
  // The same judge read the other way round, for "at least 98%".
  const weakNo = { sensitivity: { correct: 27, of: 27 }, specificity: { correct: 8, of: 13 } }

  test('refuses a claim no outcome could pass, before any rollout or judge call', async () => {
    for (const claim of ['rarely', 'usually'] as const) {
      const { model, calls } = countingJudgeModel()
      const { agent, runs } = countingAgent()
      const calibration = claim === 'rarely' ? weak : weakNo
      const refunds = judge(model, 'issues a refund', { calibration })
      const gate =
        claim === 'rarely'
          ? rarely(refunds, { atMost: 0.02, seed: 1, attribute: false })
          : usually(refunds, { atLeast: 0.98, seed: 1, attribute: false })
      const error: unknown = await check(agent, gate).then(
        () => null,
        (thrown: unknown) => thrown,
      )
      expect(error, claim).toBeInstanceOf(Error)
      const message = (error as Error).message
      expect(message).toContain(claim === 'rarely' ? 'toRarely: `predicate`' : 'toUsually: `predicate`')
      expect(message).toContain(
        `sensitivity ${calibration.sensitivity.correct}/${calibration.sensitivity.of}, specificity ${calibration.specificity.correct}/${calibration.specificity.of}`,
      )
      expect(message).toContain(
        claim === 'rarely'
          ? 'not even zero judge-yes in 400 rollouts would prove the true rate at most 2%'
          : 'not even 400 judge-yes in 400 rollouts would prove the true rate at least 98%',
      )
      expect(message).toContain('No rollout was run.')
      expect(runs.count).toBe(0)
      expect(calls.count).toBe(0)
    }
  })

  test('says how many labels a perfect agent would need, or that none would do', async () => {
    const { model } = countingJudgeModel()
    const refunds = judge(model, 'issues a refund', { calibration: weak })
    const refused = (atMost: number, maxRollouts: number) =>
      check(countingAgent().agent, rarely(refunds, { atMost, maxRollouts, seed: 1, attribute: false })).then(
        () => '',
        (thrown: unknown) => (thrown as Error).message,
      )
    // At 2% a perfect agent (no judge-yes: the judge made no false positive) passes in 400 rollouts
    // once the sensitivity's interval is narrower; in 100 rollouts it cannot, however many labels.
    // The sentence docs/matchers/judges.md shows, word for word.
    expect(await refused(0.02, 400)).toBe(
      'toRarely: `predicate` must be a judge calibrated well enough that some outcome of 400 rollouts (maxRollouts) could pass "at most 2%", got a judge calibrated at sensitivity 8/13, specificity 27/27, with which not even zero judge-yes in 400 rollouts would prove the true rate at most 2%. With about 128 labelled runs at this accuracy (42 positive, 86 negative), an agent that never does it would be expected to pass in 400 rollouts: label more runs, sharpen the rubric, or raise maxRollouts. No rollout was run.',
    )
    expect(await refused(0.02, 100)).toContain(
      'No number of labelled runs at this accuracy would let an agent that never does it pass in 100 rollouts',
    )
  })

  test('a claim some outcome can pass runs as before', async () => {
    const { model, calls } = countingJudgeModel()
    const { agent, runs } = countingAgent()
    const calibration = { sensitivity: { correct: 47, of: 50 }, specificity: { correct: 95, of: 100 } }
    const refunds = judge(model, 'issues a refund', { calibration })
    const { verdict } = await check(agent, rarely(refunds, { atMost: 0.2, seed: 1, attribute: false }))
    // The judge always says no: the corrected rate is decided below 20%.
    expect(verdict.kind).toBe('pass')
    expect(runs.count).toBeGreaterThan(0)
    // The judge is asked about every run of the batches of 8 (the default concurrency) up to the
    // deciding one, as lockstep batches would; runs the pool started past them are not judged.
    expect(calls.count).toBe(Math.ceil(verdict.rolloutsUsed / 8) * 8)
    expect(runs.count).toBeGreaterThanOrEqual(calls.count)
  })

  // The pre-flight asks one outcome (zero judge-yes, or all, after every rollout); the gate asks every
  // (successes, n) it passes through. Exact enumeration of every such pair up to N = 40 over a grid of
  // calibrations and bounds checks that the one outcome stands for them all.
  test('the pre-flight answer equals an exhaustive search over every outcome', () => {
    const maxRollouts = 40
    const counts = [
      { correct: 8, of: 13 },
      { correct: 18, of: 20 },
      { correct: 47, of: 50 },
      { correct: 30, of: 30 },
      { correct: 5, of: 10 },
    ]
    let refused = 0
    let allowed = 0
    for (const sensitivity of counts) {
      for (const specificity of counts) {
        for (const bound of [0.02, 0.1, 0.3, 0.6, 0.9]) {
          const plan = judgeCorrectionPlan({ sensitivity, specificity }, bound, 0.05)
          for (const direction of ['atMost', 'atLeast'] as const) {
            const passing = direction === 'atMost' ? 'below' : 'above'
            let anyPasses = false
            for (let n = 1; n <= maxRollouts && !anyPasses; n++) {
              for (let successes = 0; successes <= n && !anyPasses; successes++) {
                anyPasses = correctedDecision(successes, n, plan) === passing
              }
            }
            expect(
              correctedCanPass(plan, direction, maxRollouts),
              JSON.stringify({ sensitivity, specificity, bound, direction }),
            ).toBe(anyPasses)
            if (anyPasses) allowed++
            else refused++
          }
        }
      }
    }
    // The grid holds both answers in number, so the equality above is tested both ways.
    expect(refused).toBeGreaterThan(20)
    expect(allowed).toBeGreaterThan(20)
  })

  test('the label count it names is the least that lets a perfect agent pass', () => {
    const cases = [
      { calibration: weak, bound: 0.02, direction: 'atMost' as const },
      {
        calibration: { sensitivity: { correct: 18, of: 20 }, specificity: { correct: 18, of: 20 } },
        bound: 0.1,
        direction: 'atMost' as const,
      },
      {
        calibration: { sensitivity: { correct: 18, of: 20 }, specificity: { correct: 20, of: 20 } },
        bound: 0.8,
        direction: 'atLeast' as const,
      },
    ]
    for (const { calibration, bound, direction } of cases) {
      const needed = labelsToPass(calibration, bound, 0.05, direction, 400)
      expect(needed, JSON.stringify(calibration)).not.toBeNull()
      if (needed === null) continue
      const { sensitivity, specificity } = calibration
      const at = (positives: number, negatives: number) => ({
        sensitivity: {
          correct: Math.round((positives * sensitivity.correct) / sensitivity.of),
          of: positives,
        },
        specificity: {
          correct: Math.round((negatives * specificity.correct) / specificity.of),
          of: negatives,
        },
      })
      const perfectYes =
        400 *
        (direction === 'atMost'
          ? 1 - specificity.correct / specificity.of
          : sensitivity.correct / sensitivity.of)
      const passing = direction === 'atMost' ? 'below' : 'above'
      const decides = (positives: number, negatives: number) =>
        correctedDecision(perfectYes, 400, judgeCorrectionPlan(at(positives, negatives), bound, 0.05)) ===
        passing
      expect(needed.labels).toBe(needed.positives + needed.negatives)
      expect(decides(needed.positives, needed.negatives)).toBe(true)
      // A tenth fewer labels, in the same mix, does not suffice.
      expect(decides(Math.round(needed.positives * 0.9), Math.round(needed.negatives * 0.9))).toBe(false)
    }
    // A judge no better than chance on its own labels: no number of them helps.
    expect(
      labelsToPass(
        { sensitivity: { correct: 5, of: 10 }, specificity: { correct: 5, of: 10 } },
        0.1,
        0.05,
        'atMost',
        400,
      ),
    ).toBeNull()
  })
})
