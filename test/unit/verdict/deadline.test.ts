import { describe, expect, it } from 'vitest'
import { defineAgent } from '../../../src/index.js'
import { formatVerdictMessage } from '../../../src/text/verdict-message.js'
import { runBaselineGate } from '../../../src/verdict/baseline-gate.js'
import { diagnose } from '../../../src/verdict/diagnose.js'
import { OutcomeTally, rolloutTimeout, sampleInOrder } from '../../../src/verdict/sampling.js'
import { ARTIFACT_SCHEMA, ArtifactSchema, VerdictSchema } from '../../../src/verdict/schema.js'
import { runSequentialGate } from '../../../src/verdict/sequential-gate.js'
import { runZeroToleranceGate } from '../../../src/verdict/zero-tolerance-gate.js'
import {
  baselineGate,
  coinAgent,
  common,
  returnedBad,
  sequentialGate,
  subject,
  zeroToleranceGate,
} from './gate-helpers.js'

const past = () => ({ at: Date.now() - 1, testTimeoutMs: 5000 })

const hanging = defineAgent({
  name: 'hanging',
  input: null,
  async run(_input, ctx) {
    return ctx.step('decide', async () => {
      await new Promise(() => {})
      return 'never'
    })
  },
})

const slow = defineAgent({
  name: 'slow',
  input: null,
  async run(_input, ctx) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    return ctx.step('decide', () => 'done')
  },
})

describe("the test's deadline", () => {
  it('caps the rollout timeout at the time left, and refuses a batch once it has passed', () => {
    const { execution } = common({ timeoutMs: 60_000, deadline: { at: 10_000, testTimeoutMs: 5000 } })
    expect(rolloutTimeout(execution, 5_500)).toBe(4_500)
    expect(rolloutTimeout(execution, 10_000)).toBeNull()
    expect(rolloutTimeout(common({ timeoutMs: 100 }).execution, 0)).toBe(100)
    expect(rolloutTimeout({ ...execution, timeoutMs: 1000 }, 5_500)).toBe(1000)
  })

  it('sampleInOrder starts no batch past the deadline and ends with "deadline"', async () => {
    const options = common({ deadline: past() })
    const tally = new OutcomeTally(returnedBad, true, 'return bad')
    const sampling = await sampleInOrder(coinAgent(0).on({ p: 0 }), options, 100, tally, () => false)
    expect(sampling).toEqual({ end: 'deadline', rolloutsRun: 0, cappedTimeoutMs: null })
    expect(tally.rollouts).toBe(0)
  })

  it('a sequential gate past its deadline is inconclusive, stop "deadline", and records the test timeout', async () => {
    const { verdict } = await runSequentialGate(
      coinAgent(0).on({ p: 0 }),
      subject(),
      sequentialGate({ deadline: past() }),
    )
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.stop).toBe('deadline')
    expect(verdict.rolloutsUsed).toBe(0)
    expect(verdict.testTimeout).toEqual({ testTimeoutMs: 5000, rolloutTimeoutMs: 10_000 })
    expect(() => VerdictSchema.parse(verdict)).not.toThrow()
    const message = formatVerdictMessage(artifactOf(verdict))
    expect(message).toContain(
      "no completed rollout to decide on (0 rollouts run): the test's timeout (5,000 ms) was near, so sampling stopped; raise the test's timeout (test(name, { timeout }) or testTimeout in the config)",
    )
  })

  it('an undecided sequential gate says how many rollouts ran, that the timeout was near, and what to raise', async () => {
    // 10 ms a rollout, one at a time, 60 ms left: a few rollouts complete, far too few to decide (the
    // last may be cut by the cap: allowErrors leaves that timeout out of the rate).
    const { verdict } = await runSequentialGate(
      slow.on(null),
      subject(() => false),
      sequentialGate({
        concurrency: 1,
        allowErrors: true,
        deadline: { at: Date.now() + 60, testTimeoutMs: 2000 },
      }),
    )
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.stop).toBe('deadline')
    expect(verdict.rolloutsUsed).toBeGreaterThan(0)
    expect(verdict.testTimeout).toEqual({ testTimeoutMs: 2000, rolloutTimeoutMs: expect.any(Number) })
    const message = formatVerdictMessage(artifactOf(verdict))
    expect(message).toMatch(
      /undecided after [\d,]+ rollouts?, when the test's timeout \(2,000 ms\) was near:/,
    )
    expect(message).toContain(
      "raise the test's timeout (test(name, { timeout }) or testTimeout in the config)",
    )
  })

  it('a zero-tolerance gate past its deadline is inconclusive, and says so', async () => {
    const { verdict } = await runZeroToleranceGate(
      coinAgent(0).on({ p: 0 }),
      subject(),
      zeroToleranceGate({ deadline: past() }),
    )
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.stop).toBe('deadline')
    expect(() => VerdictSchema.parse(verdict)).not.toThrow()
  })

  it('a baseline gate past its deadline is inconclusive and writes nothing', async () => {
    const { verdict } = await runBaselineGate(
      coinAgent(0).on({ p: 0 }),
      subject(),
      baselineGate({ deadline: past(), rollouts: 50 }),
      { file: '/nonexistent/never-written.json', displayFile: 'x.json', key: 'k', updateState: 'none' },
    )
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.stop).toBe('deadline')
  })

  it('a rollout cut by the time left is shown as a timeout, but leaves the gate undecided, not failed', async () => {
    const { verdict } = await runSequentialGate(
      hanging.on(null),
      subject(() => false),
      sequentialGate({ timeoutMs: 60_000, deadline: { at: Date.now() + 100, testTimeoutMs: 5000 } }),
    )
    // The agent broke no limit of its own (timeoutMs is 60 s): the test ran out of time.
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.stop).toBe('deadline')
    expect(verdict.errors.examples[0]!.error.kind).toBe('timeout')
    expect(verdict.testTimeout!.rolloutTimeoutMs).toBeLessThanOrEqual(100)
    expect(formatVerdictMessage(artifactOf(verdict))).toMatch(
      /rollouts were capped at \d+ ms, the time left in the test \(its timeout is 5,000 ms\): raise the test's timeout \(test\(name, \{ timeout \}\) or testTimeout in the config\), or make the agent faster/,
    )
    expect(formatVerdictMessage(artifactOf(verdict))).toContain(
      "1 rollout ended in an error, not scored (the test's timeout cut it short):",
    )
  })

  it('a verdict the deadline did not touch has no testTimeout', async () => {
    const { verdict } = await runSequentialGate(
      coinAgent(0).on({ p: 0 }),
      subject(),
      sequentialGate({ deadline: { at: Date.now() + 60_000, testTimeoutMs: 120_000 } }),
    )
    expect(verdict.stop).toBe('decided')
    expect(verdict.testTimeout).toBeUndefined()
  })

  it('attribution stopped by the deadline is reported as data, and the verdict stands', async () => {
    const options = sequentialGate({
      attribute: { rollouts: 64, method: 'contrastive', context: false, runAhead: 0 },
    })
    const run = await runSequentialGate(coinAgent(0.5).on({ p: 0.5 }), subject(), options)
    expect(run.verdict.kind).toBe('fail')
    const diagnosis = await diagnose(coinAgent(0.5).on({ p: 0.5 }), run, {
      ...options,
      execution: { ...options.execution, deadline: past() },
    })
    expect(diagnosis.contrastive).toBeNull()
    expect(diagnosis.failure?.message).toMatch(/the test's timeout was near/)
  })
})

function artifactOf(verdict: unknown) {
  return ArtifactSchema.parse({
    schema: ARTIFACT_SCHEMA,
    test: { name: 't', file: 'f' },
    verdict,
    failing: null,
    contrastive: null,
    shapley: null,
  })
}
