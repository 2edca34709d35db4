import { describe, expect, it } from 'vitest'
import {
  and,
  calledTool,
  check,
  defineAgent,
  not,
  or,
  rarely,
  stepMatches,
  type Trajectory,
} from '../../../src/index.js'
import { record } from '../../../src/entries/replay.js'
import { InvalidOptionError } from '../../../src/entries/errors.js'

const run: Trajectory = await record(
  defineAgent({
    name: 'support',
    input: null,
    async run(_input, ctx) {
      await ctx.tool('lookup_order', { id: 7 }, () => ({ status: 'late' }))
      const decision = await ctx.step('decide', () => 'refund')
      if (decision === 'refund') await ctx.tool('issue_refund', { amount: 99 }, () => 'ok')
      return decision
    },
  }),
  { seed: 1 },
)

const yes = () => true
const no = () => false
const yesLater = async () => true
const noLater = async () => false

describe('and / or / not', () => {
  it('has the truth tables of the logic words, sync and async alike', async () => {
    for (const [a, b] of [
      [yes, yesLater],
      [no, noLater],
    ] as const) {
      expect(await and(a, yes)(run)).toBe(a === yes)
      expect(await and(b, yes)(run)).toBe(b === yesLater)
      expect(await or(a, no)(run)).toBe(a === yes)
      expect(await or(b, noLater)(run)).toBe(b === yesLater)
      expect(await not(a)(run)).toBe(a !== yes)
      expect(await not(b)(run)).toBe(b !== yesLater)
    }
    expect(and()(run)).toBe(true)
    expect(or()(run)).toBe(false)
  })

  it('stays synchronous over synchronous predicates', () => {
    expect(and(yes, not(no))(run)).toBe(true)
    expect(or(no, no)(run)).toBe(false)
  })

  it('stops at the first deciding predicate, so a costly judge placed last runs only when needed', async () => {
    let judged = 0
    const judge = async () => {
      judged += 1
      return true
    }
    await and(no, judge)(run)
    await or(yes, judge)(run)
    expect(judged).toBe(0)
    await and(yes, judge)(run)
    expect(judged).toBe(1)
  })

  it('reads as English, with parentheses where the grouping would be ambiguous', () => {
    const refundsWrongly = () => true
    const isRude = () => false
    expect(and(calledTool('issue_refund'), not(calledTool('escalate'))).name).toBe(
      'call issue_refund and not call escalate',
    )
    expect(or(refundsWrongly, isRude, calledTool('x')).name).toBe('refund wrongly, be rude or call x')
    expect(not(or(refundsWrongly, isRude)).name).toBe('not (refund wrongly or be rude)')
    expect(and(calledTool('a'), or(calledTool('b'), calledTool('c'))).name).toBe(
      'call a and (call b or call c)',
    )
    expect(and(and(calledTool('a'), calledTool('b')), calledTool('c')).name).toBe(
      'call a and call b and call c',
    )
  })

  it('names the predicate that returned no boolean, and rejects a non-function', async () => {
    const missing = (() => undefined) as unknown as () => boolean
    expect(() => and(yes, missing)(run)).toThrowError(/predicates\[1\]/)
    await expect(or(no, async () => 'yes' as unknown as boolean)(run)).rejects.toThrowError(/predicates\[1\]/)
    expect(() => not('x' as never)).toThrowError(InvalidOptionError)
  })

  it('labels the claim in the message through check', async () => {
    const result = await check(
      defineAgent({
        name: 'support',
        input: null,
        run: async (_input, ctx) => ctx.step('decide', () => 'refund'),
      }),
      rarely(and(stepMatches('decide', 'refund'), not(calledTool('lookup_order'))), {
        atMost: 0.05,
        attribute: false,
      }),
    )
    expect(result.message.split('\n')[0]).toBe(
      'expected support to rarely take "refund" at step decide and not call lookup_order: ≤ 5% at 95% confidence',
    )
  })
})

describe('stepMatches', () => {
  it('compares the action of a step of that name as toEqual does', () => {
    expect(stepMatches('decide', 'refund')(run)).toBe(true)
    expect(stepMatches('decide', 'escalate')(run)).toBe(false)
    expect(stepMatches('reply', 'refund')(run)).toBe(false)
    expect(stepMatches('decide', expect.stringMatching(/^ref/))(run)).toBe(true)
  })

  it('takes a test of the action and the step', () => {
    expect(stepMatches('decide', (action, step) => action === 'refund' && step.index === 0)(run)).toBe(true)
    const isEscalation = (action: unknown) => action === 'escalate'
    expect(stepMatches('decide', isEscalation).name).toBe(
      'take an action that isEscalation accepts at step decide',
    )
  })

  it('rejects an empty step name', () => {
    expect(() => stepMatches('', 'x')).toThrowError(/name/)
  })
})
