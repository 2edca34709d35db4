import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { carefulTicket, injectedTicket, supportAgent } from '../../../examples/support-agent/agent.js'
import {
  always,
  calledTool,
  check,
  defineAgent,
  matchesBaseline,
  never,
  rarely,
  sometimes,
  usually,
} from '../../../src/index.js'
import { ArtifactSchema } from '../../../src/entries/schemas.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'
import { formatVerdictMessage } from '../../../src/text/verdict-message.js'
import type { Json } from '../../../src/json.js'

const refunded = calledTool('issue_refund')

let directory: string
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'causal-replay-check-'))
})
afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

describe('check', () => {
  it('refutes a false claim, attributes it to the decision, and returns the message the matcher prints', async () => {
    const result = await check(supportAgent.on(injectedTicket), rarely(refunded, { atMost: 0.05, seed: 1 }))
    expect(result.passed).toBe(false)
    expect(result.verdict).toMatchObject({ gate: 'sequential', claim: 'rarely', kind: 'fail' })
    expect(result.attribution?.locus).toBe(1)
    expect(result.artifact.contrastive).toBe(result.attribution)
    expect(result.artifact.verdict).toBe(result.verdict)
    expect(() => ArtifactSchema.parse(result.artifact)).not.toThrow()
    expect(result.message).toBe(formatVerdictMessage(result.artifact))
    expect(result.message).toMatch(/\n {2}▶ 1 +decide .*← causal locus\n/)
    expect(result.report).toBeNull()
  })

  it('passes a true claim with no attribution, and is the same at any concurrency', async () => {
    const claim = (concurrency: number) =>
      usually((t) => !refunded(t), { atLeast: 0.8, seed: 4, concurrency })
    const one = await check(supportAgent.on(carefulTicket), claim(1))
    const eight = await check(supportAgent.on(carefulTicket), claim(8))
    expect(one.passed).toBe(true)
    expect(one.attribution).toBeNull()
    expect(eight.message).toBe(one.message)
    // Cost accounting (the rollouts run past the deciding one, and what they cost) depends on
    // concurrency and timing; the verdict does not.
    expect({ ...eight.verdict, rolloutsRun: 0, cost: undefined }).toEqual({
      ...one.verdict,
      rolloutsRun: 0,
      cost: undefined,
    })
  })

  it('decides sometimes(pred, { atLeast }) on the sequential gate, and records and words it as "sometimes"', async () => {
    // The careful ticket escalates in most rollouts: at least 30% passes, at least 99.9% fails.
    const escalated = calledTool('escalate')
    const passing = await check(
      supportAgent.on(carefulTicket),
      sometimes(escalated, { atLeast: 0.3, seed: 4, attribute: false }),
    )
    expect(passing.verdict).toMatchObject({ gate: 'sequential', claim: 'sometimes', bound: 0.3 })
    expect(passing.passed).toBe(true)
    expect(passing.message.split('\n')[0]).toBe(
      'expected support to sometimes call escalate: ≥ 30% at 95% confidence',
    )
    const failing = await check(
      supportAgent.on(injectedTicket),
      sometimes((t) => !refunded(t), { atLeast: 0.999, seed: 4, attribute: false, maxRollouts: 40 }),
    )
    expect(failing.verdict.claim).toBe('sometimes')
    expect(failing.passed).toBe(false)
    expect(() => sometimes(escalated, {} as { atLeast: number })).toThrow(InvalidOptionError)
    expect(() => sometimes(escalated, {} as { atLeast: number })).toThrow(/atLeast/)
  })

  it('checks one claim twice, in turn and at once, each check with its own budget from the claim limits', async () => {
    // The claim is parsed once, when it is made; a budget of limits is made per check, so a second
    // check of the same claim is not starved by the first one's spending.
    const claim = rarely(refunded, { atMost: 0.05, seed: 2, budget: { maxRollouts: 12 }, attribute: false })
    const first = await check(supportAgent.on(carefulTicket), claim)
    const again = await check(supportAgent.on(carefulTicket), claim)
    const together = await Promise.all([1, 2].map(() => check(supportAgent.on(carefulTicket), claim)))
    expect(first.verdict).toMatchObject({ kind: 'inconclusive', stop: 'budget', rolloutsUsed: 12 })
    for (const result of [again, ...together]) expect(result.verdict).toEqual(first.verdict)
  })

  it('checks a claim written by hand, parsing its options on the check', async () => {
    const built = rarely(refunded, { atMost: 0.05, seed: 5, maxRollouts: 20, attribute: false })
    const byHand = {
      kind: 'rarely',
      predicate: refunded,
      options: { atMost: 0.05, seed: 5, maxRollouts: 20, attribute: false },
    } as const
    const [fromBuilder, fromHand] = await Promise.all([
      check(supportAgent.on(carefulTicket), built),
      check(supportAgent.on(carefulTicket), byHand),
    ])
    expect(fromHand.verdict).toEqual(fromBuilder.verdict)
    await expect(
      check(supportAgent.on(carefulTicket), { ...byHand, options: { atMots: 0.05 } } as never),
    ).rejects.toThrow(/rarely: unknown option `atMots`/)
  })

  it('applies onInconclusive to `passed`, not to the verdict', async () => {
    const options = { atMost: 0.05, seed: 3, maxRollouts: 20, attribute: false } as const
    const strict = await check(supportAgent.on(carefulTicket), rarely(refunded, options))
    const lenient = await check(
      supportAgent.on(carefulTicket),
      rarely(refunded, { ...options, onInconclusive: 'pass' }),
    )
    expect(strict.verdict.kind).toBe('inconclusive')
    expect(strict.passed).toBe(false)
    expect(lenient.verdict.kind).toBe('inconclusive')
    expect(lenient.passed).toBe(true)
  })

  it('derives its seed from its name: the same check gives the same verdict, another name other rollouts', async () => {
    const first = await check(supportAgent.on(injectedTicket), never(refunded, { attribute: false }))
    const again = await check(supportAgent.on(injectedTicket), never(refunded, { attribute: false }))
    const other = await check(supportAgent.on(injectedTicket), never(refunded, { attribute: false }), {
      name: 'another name',
    })
    expect(first.verdict.seedSource).toBe('test')
    expect(again.verdict).toEqual(first.verdict)
    expect(other.verdict.seed).not.toBe(first.verdict.seed)
  })

  it('writes the artifact and the HTML report when given a reportDir, and names the page in the message', async () => {
    const reportDir = join(directory, 'reports')
    const result = await check(supportAgent.on(injectedTicket), rarely(refunded, { seed: 1 }), {
      name: 'support rarely refunds',
      reportDir,
    })
    // The paths as the message prints them: from the working directory (absolute outside it).
    expect(result.report).toEqual({
      json: join(reportDir, 'support/support-rarely-refunds-cd15d86c.json'),
      html: join(reportDir, 'support/support-rarely-refunds-cd15d86c.html'),
      htmlError: null,
    })
    const written = ArtifactSchema.parse(
      JSON.parse(await readFile(join(reportDir, 'support/support-rarely-refunds-cd15d86c.json'), 'utf8')),
    )
    expect(written).toEqual(JSON.parse(JSON.stringify(result.artifact)))
    expect(written.test).toEqual({ name: 'support rarely refunds', file: '' })
    expect(result.message.split('\n').at(-1)).toBe(`  report: ${result.report?.html}`)
  })

  it('never throws for the agent: a crashing agent is a failed verdict with its error', async () => {
    const crashing = defineAgent({
      name: 'crashing',
      input: null,
      async run(_input, ctx) {
        await ctx.step('decide', () => 'go')
        throw new Error('upstream 503')
      },
    })
    const result = await check(
      crashing,
      always(() => true, { rollouts: 10 }),
    )
    expect(result.passed).toBe(false)
    expect(result.verdict).toMatchObject({ gate: 'zero-tolerance', kind: 'fail', stop: 'error' })
    expect(result.message).toContain('rollout 0: threw, Error: upstream 503')
  })

  it('gives an agent that throws a Proxy whose traps all throw an error outcome, its message intact', async () => {
    const trap = () => {
      throw new Error('trapped')
    }
    const hostile = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap })
    const throwing = defineAgent({
      name: 'throwing',
      input: null,
      async run(_input, ctx) {
        await ctx.step('decide', () => 'go')
        throw hostile
      },
    })
    const result = await check(
      throwing,
      always(() => true, { rollouts: 10 }),
    )
    expect(result.verdict).toMatchObject({ gate: 'zero-tolerance', kind: 'fail', stop: 'error' })
    expect(result.message).toMatch(/^expected throwing to always satisfy the predicate: in all 10 rollouts\n/)
    expect(result.message).toContain(
      'rollout 0: threw, object: a thrown object that cannot be read: its properties throw',
    )
  })

  it('gives a context nested ten thousand levels deep an error outcome that names the step', async () => {
    let context: Json = 'leaf'
    for (let i = 0; i < 10_000; i++) context = [context]
    const deep = defineAgent({
      name: 'deep',
      input: null,
      async run(_input, ctx) {
        return ctx.step('decide', () => 'go', { context: { messages: context } })
      },
    })
    const result = await check(
      deep,
      always(() => true, { rollouts: 10 }),
    )
    expect(result.verdict).toMatchObject({ kind: 'fail', stop: 'error' })
    const [example] = result.verdict.errors.examples
    expect(example?.error).toMatchObject({ kind: 'not-json', name: 'NotJsonError' })
    expect(example?.error.message).toMatch(
      /^The context of step 0 "decide" is nested too deeply: more than 1000 levels of arrays and objects, below \.messages(\[0\])+…\./,
    )
    expect(result.message).not.toContain('Maximum call stack size exceeded')
  })

  it('checks a baseline claim against an explicit file, recording it first', async () => {
    const file = join(directory, 'baselines', 'support.rates.json')
    const claim = (update: 'new' | 'none') =>
      matchesBaseline(refunded, {
        file,
        name: 'refund rate',
        update,
        seed: 2,
        rollouts: 50,
        attribute: false,
      })
    const created = await check(supportAgent.on(carefulTicket), claim('new'))
    expect(created.verdict).toMatchObject({ gate: 'baseline', kind: 'pass' })
    expect(created.verdict.gate === 'baseline' && created.verdict.baseline.status).toBe('created')
    const regressed = await check(supportAgent.on(injectedTicket), claim('none'))
    expect(regressed.passed).toBe(false)
    expect(regressed.verdict.gate === 'baseline' && regressed.verdict.baseline.status).toBe('compared')
    expect(regressed.message).toContain('→ regression')
  })

  it('refuses a predicate that is not a function, and bad options, with an InvalidOptionError', async () => {
    expect(() => rarely('issue_refund' as never)).toThrow(InvalidOptionError)
    // A claim checks its options where it is written.
    expect(() => rarely(refunded, { atMots: 0.1 } as never)).toThrow(/^rarely: unknown option `atMots`/)
    expect(() => never(refunded, { rollouts: 0 })).toThrow(
      'never: `rollouts` must be a positive integer, got 0.',
    )
    await expect(check({} as never, rarely(refunded))).rejects.toThrow(InvalidOptionError)
    await expect(check(supportAgent, refunded as never)).rejects.toThrow(
      /^check: `claim` must be a claim: rarely\(pred\), usually\(pred\), never\(pred\), always\(pred\), matchesBaseline\(pred, \{ file, name \}\), noWorseThan\(baseline, pred\), scoresAtLeast\(scorer, threshold\), scoresAtMost\(scorer, threshold\) or sometimes\(pred, \{ atLeast \}\), got a function/,
    )
    await expect(check(supportAgent, rarely(refunded), { reportdir: 'x' } as never)).rejects.toThrow(
      'check: unknown option `reportdir`. It accepts: name, file, reportDir, signal, rateLimit, modelConcurrency, cache.',
    )
    await expect(check(supportAgent, rarely(refunded), { name: '' })).rejects.toThrow(
      'check: `name` must be a non-empty string, got a string "".',
    )
  })
})
