import { describe, expect, it } from 'vitest'
import { check, defineAgent, never, rarely, type CheckResult, type Trajectory } from '../../../src/index.js'
import { formatVerdictMessage } from '../../../src/text/verdict-message.js'
import { PLANTED_TICKET, refunded } from './gate-helpers.js'

/** A random pause of 0 to `maxMs` ms, from `Math.random`: the seed never decides when a call returns. */
const jitter = (maxMs: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * maxMs))

/**
 * The planted-context agent (see gate-helpers), each of whose steps returns after a random pause:
 * rollouts finish in a different order on every run and at every concurrency, while every action
 * still comes from the step's own stream.
 */
function jitteredAgent(ticket: string) {
  return defineAgent({
    name: 'jittered',
    input: { ticket, order: 'A-1001', tier: 'gold' },
    async run(input, ctx) {
      const language = await ctx.step(
        'triage',
        async (rng) => {
          const answer = rng() < 0.5 ? 'en' : 'de'
          await jitter(3)
          return answer
        },
        { context: { ticket: input.ticket } },
      )
      const decision = await ctx.step(
        'decide',
        async (rng, view) => {
          const seen = (view.context as { ticket?: unknown }).ticket
          const injected = typeof seen === 'string' && seen.includes('SYSTEM NOTE')
          const answer = rng() < (injected ? 0.6 : 0.01) ? 'refund' : 'escalate'
          await jitter(3)
          return answer
        },
        { context: { ticket: input.ticket, order: input.order, tier: input.tier } },
      )
      if (decision === 'refund') await ctx.tool('issue_refund', { order: input.order }, () => ({ ok: true }))
      return ctx.step('reply', (rng) => `${rng() < 0.5 ? 'done' : 'ok'} (${language})`, {
        context: { decision },
      })
    },
  })
}

/**
 * What a check says, without its cost accounting: the rollouts that ran past the deciding one and
 * those cancelled in flight depend on timing (the message, which has no cost line here, is whole).
 */
function result(checked: CheckResult): string {
  const { artifact } = checked
  const { rolloutsRun: _run, cost: _cost, ...verdict } = artifact.verdict
  return JSON.stringify({
    ...artifact,
    verdict,
    message: formatVerdictMessage(artifact),
  })
}

describe('the sampling gates, with calls that return in random order', () => {
  it('give byte-identical verdicts at concurrency 1, 8 and 32: a passing gate', async () => {
    const agent = jitteredAgent('My order is late. Thanks for your help.')
    const at = async (concurrency: number) =>
      result(await check(agent, rarely(refunded, { atMost: 0.05, seed: 11, concurrency })))
    const one = await at(1)
    expect(JSON.parse(one)).toMatchObject({ verdict: { kind: 'pass' } })
    expect(await at(8)).toBe(one)
    expect(await at(32)).toBe(one)
  })

  it('give byte-identical verdicts and attributions at concurrency 1, 8 and 32: a failing gate', async () => {
    const agent = jitteredAgent(PLANTED_TICKET)
    const at = async (concurrency: number) =>
      result(await check(agent, rarely(refunded, { atMost: 0.05, seed: 3, concurrency })))
    const one = await at(1)
    const parsed = JSON.parse(one) as {
      verdict: { kind: string }
      contrastive: unknown
      contextAttribution: unknown
    }
    expect(parsed.verdict.kind).toBe('fail')
    expect(parsed.contrastive).not.toBeNull()
    expect(parsed.contextAttribution).not.toBeNull()
    expect(await at(8)).toBe(one)
    expect(await at(32)).toBe(one)
  })
})

describe('a claim that decides with rollouts in flight', () => {
  it('cancels them and says what they cost in the cost line', async () => {
    // Rollout 0 (the first the pool starts) is bad at once; the others sit in a model call that
    // would last a minute unless their signal aborts it. Rollout 0's slot goes to rollout 6 as
    // soon as it finishes, before the gate has scored it.
    let runs = 0
    const agent = defineAgent({
      name: 'first-bad',
      input: {},
      async run(_input, ctx) {
        const first = runs++ === 0
        return ctx.step(
          'answer',
          async (_rng, view) => {
            if (first) return 'bad'
            await new Promise((resolve, reject) => {
              const timer = setTimeout(resolve, 60_000)
              view.signal.addEventListener('abort', () => {
                clearTimeout(timer)
                reject(view.signal.reason)
              })
            })
            return 'good'
          },
          { model: 'slow-model' },
        )
      },
    })
    const started = performance.now()
    const checked = await check(
      agent,
      never((trajectory: Trajectory) => trajectory.output === 'bad', {
        rollouts: 50,
        seed: 1,
        concurrency: 6,
        attribute: false,
      }),
    )
    expect(performance.now() - started).toBeLessThan(30_000)
    expect(checked.verdict.kind).toBe('fail')
    expect(checked.verdict.rolloutsUsed).toBe(1)
    expect(checked.verdict.rolloutsRun).toBe(7)
    expect(checked.verdict.cost?.aborted).toEqual({ rollouts: 6, modelCalls: 0, cutCalls: 6 })
    expect(checked.message).toContain(
      'cost: 1 model call, 0 tokens, USD unknown (no prices); +6 rollouts aborted in flight (6 more cut off)',
    )
  })
})

describe('concurrent claims in one process', () => {
  /** An agent whose one model call takes 5 ms, counting the calls to its model in flight at once. */
  function countingAgent(counts: { inFlight: number; peak: number }) {
    return defineAgent({
      name: 'counted',
      input: {},
      async run(_input, ctx) {
        return ctx.step(
          'answer',
          async (rng) => {
            counts.inFlight++
            counts.peak = Math.max(counts.peak, counts.inFlight)
            await new Promise((resolve) => setTimeout(resolve, 5))
            counts.inFlight--
            return rng() < 0.5 ? 'a' : 'b'
          },
          { model: 'shared-model' },
        )
      },
    })
  }
  const claim = (seed: number) =>
    never((trajectory: Trajectory) => trajectory.output === 'never', { rollouts: 40, seed, concurrency: 4 })

  it('share one budget of calls to a model: two claims at concurrency 4 never have more than 4 in flight', async () => {
    const counts = { inFlight: 0, peak: 0 }
    const agent = countingAgent(counts)
    const [first, second] = await Promise.all([check(agent, claim(1)), check(agent, claim(2))])
    expect(first.verdict.rolloutsUsed).toBe(40)
    expect(second.verdict.rolloutsUsed).toBe(40)
    expect(counts.peak).toBe(4)
  })

  it('add up to modelConcurrency when the run sets it, each within its own concurrency', async () => {
    const counts = { inFlight: 0, peak: 0 }
    const agent = countingAgent(counts)
    await Promise.all([
      check(agent, claim(1), { modelConcurrency: 8 }),
      check(agent, claim(2), { modelConcurrency: 8 }),
    ])
    expect(counts.peak).toBeGreaterThan(4)
    expect(counts.peak).toBeLessThanOrEqual(8)
  })

  it('give the same verdict sharing the budget as alone', async () => {
    const agent = countingAgent({ inFlight: 0, peak: 0 })
    const alone = await check(agent, claim(1))
    const [shared] = await Promise.all([check(agent, claim(1)), check(agent, claim(2))])
    expect(result(shared!)).toBe(result(alone))
  })
})
