import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, test, vi } from 'vitest'
import { judge, type CallOptions } from '../../src/adapters/ai-sdk/index.js'
import { Budget, check, never, not, rarely, type Trajectory } from '../../src/index.js'
import { openCassette, withCassette } from '../../src/entries/cassette.js'
import { runRollouts } from '../../src/entries/replay.js'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { refunder } from '../scm/refunder.js'

/** A judge model that says YES when the run called issue_refund, and reports every call. */
function refundJudgeModel(calls: CallOptions[], answer?: (user: string) => string) {
  return new MockLanguageModelV3({
    modelId: 'judge-mock',
    doGenerate: async (options) => {
      calls.push(options)
      const user = JSON.stringify(options.prompt.filter((message) => message.role === 'user'))
      const text = answer?.(user) ?? (user.includes('issue_refund') ? 'YES, it refunded.' : 'NO')
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 2, text: 2, reasoning: 0 },
        },
        warnings: [],
      }
    },
  })
}

describe('judge (AI SDK)', () => {
  test('asks the model about each run, counts its calls in the cost, and reads as English', async () => {
    const calls: CallOptions[] = []
    const refunds = judge(refundJudgeModel(calls), 'issues a refund', {
      prices: { 'judge-mock': { inputPerMTok: 1, outputPerMTok: 2 } },
    })
    const result = await check(
      refunder(0.3),
      rarely(refunds, {
        atMost: 0.05,
        seed: 7,
        attribute: false,
        maxRollouts: 60,
      }),
    )
    const { verdict } = result
    expect(verdict.predicate).toBe('be judged "issues a refund"')
    expect(verdict.kind).toBe('fail')
    expect(calls.length).toBeGreaterThan(0)
    expect(verdict.cost?.modelCalls).toBe(calls.length)
    expect(verdict.cost?.inputTokens).toBe(100 * calls.length)
    expect(verdict.cost?.usd).toBeCloseTo((calls.length * (100 * 1 + 2 * 2)) / 1e6, 12)
    expect(result.message).toContain('expected refunder to rarely be judged "issues a refund"')
    // The judge's instructions and the run reach the model; the temperature is the judge's.
    expect(calls[0]?.temperature).toBe(0)
    expect(JSON.stringify(calls[0]?.prompt)).toContain('Statement: issues a refund')
  })

  test("draws its seed from the run's judge stream: the same (seed, rollout) gives the same seed whatever the steps", async () => {
    const calls: CallOptions[] = []
    const refunds = judge(refundJudgeModel(calls), 'issues a refund')
    const a = await runRollouts(refunder(0.5), { rollouts: 6, seed: 3 })
    const b = await runRollouts(refunder(0.9), { rollouts: 6, seed: 3 })
    for (const trajectory of [...a.trajectories, ...b.trajectories]) await refunds(trajectory)
    const seeds = calls.map((call) => call.seed)
    // Runs r of both sets share (seed, rollout) though their steps differ: common random numbers.
    expect(seeds.slice(0, 6)).toEqual(seeds.slice(6))
    expect(new Set(seeds.slice(0, 6)).size).toBe(6)
    // Another judge of the same run draws apart.
    const other = judge(refundJudgeModel(calls), 'is polite')
    await other(a.trajectories[0] as Trajectory)
    expect(calls.at(-1)?.seed).not.toBe(seeds[0])
  })

  test('an unparseable answer, a throw and a timeout are counted error outcomes with their message', async () => {
    const cases = [
      { answer: () => 'Maybe.', message: /answered neither YES nor NO: "Maybe\."/, kind: 'threw' },
      {
        answer: () => {
          throw new Error('judge is down')
        },
        message: /failed: judge is down/,
        kind: 'threw',
      },
    ] as const
    for (const { answer, message, kind } of cases) {
      const refunds = judge(refundJudgeModel([], answer), 'issues a refund')
      const { verdict } = await check(
        refunder(0.3),
        rarely(refunds, { atMost: 0.05, seed: 1, attribute: false }),
      )
      expect(verdict.kind).toBe('fail')
      expect(verdict.errors.count).toBe(1)
      expect(verdict.errors.examples[0]?.error).toMatchObject({ kind, name: 'JudgeError' })
      expect(verdict.errors.examples[0]?.error.message).toMatch(message)
    }
    const slow = new MockLanguageModelV3({
      modelId: 'slow',
      doGenerate: () => new Promise(() => {}),
    })
    const { verdict } = await check(
      refunder(0.3),
      rarely(judge(slow, 'issues a refund', { timeoutMs: 20 }), {
        atMost: 0.05,
        seed: 1,
        attribute: false,
        allowErrors: true,
        maxRollouts: 3,
        minRollouts: 1,
      }),
    )
    expect(verdict.errors.count).toBe(3)
    expect(verdict.errors.examples[0]?.error).toMatchObject({ kind: 'timeout', name: 'JudgeError' })
    expect(verdict.errors.examples[0]?.error.message).toContain('took longer than timeoutMs (20 ms)')
  })

  test("judges a batch's runs at once, with the same verdict at any concurrency", async () => {
    let inFlight = 0
    let most = 0
    const slow = new MockLanguageModelV3({
      modelId: 'slow-judge',
      doGenerate: async (options) => {
        inFlight++
        most = Math.max(most, inFlight)
        await new Promise((resolve) => setTimeout(resolve, 5))
        inFlight--
        const text = JSON.stringify(options.prompt).includes('issue_refund') ? 'YES' : 'NO'
        return { ...(await refundJudgeModel([]).doGenerate(options)), content: [{ type: 'text', text }] }
      },
    })
    const refunds = judge(slow, 'issues a refund')
    const verdicts = []
    for (const concurrency of [1, 4]) {
      most = 0
      const { verdict } = await check(
        refunder(0.3),
        rarely(refunds, { atMost: 0.05, seed: 3, attribute: false, concurrency }),
      )
      verdicts.push({ observed: verdict.observed, kind: verdict.kind, used: verdict.rolloutsUsed })
      expect(most).toBe(concurrency)
    }
    expect(verdicts[1]).toEqual(verdicts[0])
  })

  test('goes through the cassette: a second run makes no call', async () => {
    // The repository runs its tests with CAUSAL_REPLAY_CACHE=off.
    vi.stubEnv('CAUSAL_REPLAY_CACHE', '')
    const dir = await mkdtemp(join(tmpdir(), 'judge-cassette-'))
    const file = join(dir, 'judge.cassette.json')
    const calls: CallOptions[] = []
    const refunds = judge(refundJudgeModel(calls), 'issues a refund')
    const first = await openCassette(file, { mode: 'auto', write: 'merge' })
    const cold = await check(
      withCassette(refunder(0.3), first),
      rarely(refunds, { atMost: 0.5, seed: 2, attribute: false }),
    )
    await first?.save()
    const made = calls.length
    expect(made).toBeGreaterThan(0)
    const second = await openCassette(file, { mode: 'auto', write: 'none' })
    const warm = await check(
      withCassette(refunder(0.3), second),
      rarely(refunds, { atMost: 0.5, seed: 2, attribute: false }),
    )
    expect(calls.length).toBe(made)
    expect(warm.verdict.observed).toEqual(cold.verdict.observed)
    expect(warm.verdict.cost?.cassetteHits).toBe(made)
    vi.unstubAllEnvs()
  })

  test('a calibration is checked, field by field, and refused by toNever', async () => {
    const model = refundJudgeModel([])
    expect(() =>
      judge(model, 'issues a refund', {
        calibration: { sensitivity: { correct: 51, of: 50 }, specificity: { correct: 95, of: 100 } },
      }),
    ).toThrow(/calibration\.sensitivity\.correct/)
    expect(() =>
      judge(model, 'issues a refund', {
        calibration: { sensitivity: { correct: 20, of: 50 }, specificity: { correct: 50, of: 100 } },
      }),
    ).toThrow(/better than chance/)
    expect(() => judge(model, '')).toThrow(/rubric/)
    const calibrated = judge(model, 'issues a refund', {
      calibration: { sensitivity: { correct: 47, of: 50 }, specificity: { correct: 95, of: 100 } },
    })
    await expect(check(refunder(0), never(calibrated, { rollouts: 10, seed: 1 }))).rejects.toThrow(
      /toNever.*sensitivity 47\/50, specificity 95\/100.*toRarely\(judge, bound\)/s,
    )
    // not() keeps the calibration, its error rates swapped.
    expect(not(calibrated).name).toBe('not be judged "issues a refund"')
  })

  test('calibrate counts agreements with human labels and returns the calibrated judge', async () => {
    const set = await runRollouts(refunder(0.5), { rollouts: 40, seed: 11 })
    // Humans label two refunds wrongly as "no refund": the judge disagrees with them there.
    const labelled = set.trajectories.map((trajectory, index) => ({
      trajectory,
      label: trajectory.output === 'refunded' ? index > 3 || index % 2 === 1 : false,
    }))
    const budget = new Budget()
    const report = await judge(refundJudgeModel([]), 'issues a refund').calibrate(labelled, { budget })
    const positives = labelled.filter((item) => item.label).length
    expect(report.sensitivity).toMatchObject({
      successes: positives,
      n: positives,
      method: 'clopper-pearson',
    })
    expect(report.specificity.n).toBe(40 - positives)
    expect(report.specificity.successes).toBe(40 - positives - report.disagreements.length)
    expect(report.calibration).toEqual({
      sensitivity: { correct: positives, of: positives },
      specificity: { correct: 40 - positives - report.disagreements.length, of: 40 - positives },
    })
    expect(report.judge.calibration).toEqual(report.calibration)
    expect(budget.spend.modelCalls).toBe(40)
  })
})
