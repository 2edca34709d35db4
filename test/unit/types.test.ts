// The predicate types of the rate matchers and of `check`'s claims. Checked by `tsc`
// (`npm run typecheck`); at run time these assertions do nothing, and no matcher or check runs:
// the calls sit in functions that are never called.
import { describe, expectTypeOf, expect, it } from 'vitest'
import {
  always,
  and,
  calledTool,
  calledToolWith,
  calledTools,
  not,
  or,
  stepMatches,
  check,
  matchesBaseline,
  never,
  rarely,
  usually,
  type Agent,
  type Predicate,
  type Trajectory,
} from '../../src/index.js'
import type { ContextAttributeOptions, PredicateFor, Scenario } from '../../src/entries/types.js'

type Ticket = { orderId: string }
type Decision = 'refund' | 'escalate'
type RefundAgent = Agent<Ticket, Decision>

declare const agent: RefundAgent
declare const scenario: Scenario<Ticket, Decision>
/** An input declared as an interface: no index signature, so not assignable to `Json`. */
interface InterfaceTicket {
  orderId: string
}
declare const interfaceAgent: Agent<InterfaceTicket, Decision>
declare const untypedAgent: Agent<unknown, unknown>

describe('the predicate of a rate matcher', () => {
  it("sees the agent's input as I and its output as O | undefined", () => {
    expectTypeOf<PredicateFor<RefundAgent>>().parameter(0).toEqualTypeOf<Trajectory<Ticket, Decision>>()
    expectTypeOf<Trajectory<Ticket, Decision>['output']>().toEqualTypeOf<Decision | undefined>()
    expectTypeOf<Trajectory<Ticket, Decision>['input']>().toEqualTypeOf<Ticket>()
    expectTypeOf<PredicateFor<typeof scenario>>().toEqualTypeOf<Predicate<Ticket, Decision>>()
    // An agent whose types were not inferred records JSON all the same: the default trajectory.
    expectTypeOf<PredicateFor<typeof untypedAgent>>().toEqualTypeOf<Predicate>()

    const _calls = () => [
      expect(agent).toRarely((t) => {
        expectTypeOf(t.output).toEqualTypeOf<Decision | undefined>()
        expectTypeOf(t.input).toEqualTypeOf<Ticket>()
        return t.output === 'refund'
      }),
      expect(scenario).toUsually((t) => {
        expectTypeOf(t.output).toEqualTypeOf<Decision | undefined>()
        return t.output === 'escalate'
      }),
      expect(agent).toNever((t) => t.input.orderId === ''),
      expect(agent).toAlways((t) => t.output !== undefined),
      expect(agent).toMatchRateBaseline((t) => t.output === 'refund'),
    ]
  })

  it('takes calledTool(...) and predicates on any JSON trajectory, for any agent', () => {
    const onJson = (t: Trajectory) => t.output === 'refund'
    const _calls = () => [
      expect(agent).toRarely(calledTool('issue_refund')),
      expect(interfaceAgent).toRarely(calledTool('issue_refund', (args) => args !== null)),
      expect(untypedAgent).toUsually(calledTool('lookup_order')),
      expect(agent).toRarely(onJson),
      expect(interfaceAgent).toRarely(onJson),
      expect(untypedAgent).toRarely(onJson),
    ]
  })

  it('combines trajectory predicates with typed ones, keeping the agent types', () => {
    const typedRefund = (t: Trajectory<Ticket, Decision>) => t.output === 'refund'
    const combined = and(calledTools(['lookup_order', 'issue_refund']), not(typedRefund))
    expectTypeOf(combined).toEqualTypeOf<Predicate<Ticket, Decision>>()
    const _calls = () => [
      expect(agent).toRarely(combined),
      expect(agent).toRarely(
        or(calledToolWith('issue_refund', { amount: expect.any(Number) }), stepMatches('decide', 'refund')),
      ),
      expect(untypedAgent).toUsually(calledTools(['lookup_order'], { mode: 'superset' })),
      check(agent, rarely(and(calledTool('issue_refund'), (t) => t.input.orderId === 'A1'))),
      expect(agent).toRarely(and(calledTool('issue_refund'), (t) => t.input.orderId === 'A1')),
      expect(agent).toRarely(and(not(calledTool('lookup_order')), (t) => t.output === 'refund')),
      expect(agent).toRarely(not(stepMatches('decide', 'escalate'))),
      expect(interfaceAgent).toRarely(or(calledTool('a'), calledTool('b'))),
    ]
    // @ts-expect-error -- the output is 'refund' | 'escalate' | undefined, never a number
    const _wrong = () => expect(agent).toRarely(and(calledTool('issue_refund'), (t) => t.output === 42))
  })

  it('rejects a predicate that does not fit the output type', () => {
    const _calls = () => [
      // @ts-expect-error -- the output is 'refund' | 'escalate' | undefined, never a number
      expect(agent).toRarely((t) => t.output === 42),
      // @ts-expect-error -- the input has no `customerId`
      expect(agent).toNever((t) => t.input.customerId === 'c-1'),
      // @ts-expect-error -- a predicate written for another agent's output
      expect(agent).toRarely((t: Trajectory<Ticket, number>) => t.output === 1),
    ]
  })
})

describe("the predicate of check's claims", () => {
  it("sees the agent's input as I and its output as O | undefined", () => {
    const _calls = () => [
      check(
        agent,
        rarely((t) => {
          expectTypeOf(t.output).toEqualTypeOf<Decision | undefined>()
          expectTypeOf(t.input).toEqualTypeOf<Ticket>()
          return t.output === 'refund'
        }),
      ),
      check(
        scenario,
        usually((t) => {
          expectTypeOf(t.output).toEqualTypeOf<Decision | undefined>()
          return t.output === 'escalate'
        }),
      ),
      check(
        agent,
        never((t) => t.input.orderId === ''),
      ),
      check(
        agent,
        always((t) => t.output !== undefined),
      ),
      check(
        agent,
        matchesBaseline((t) => t.output === 'refund', { file: 'b.json', name: 'refunds' }),
      ),
    ]
  })

  it('takes calledTool(...) and claims built apart from the agent', () => {
    const apart = rarely((t: Trajectory) => t.output === 'refund')
    expectTypeOf(rarely(calledTool('issue_refund'))).toMatchTypeOf(apart)
    const _calls = () => [
      check(agent, rarely(calledTool('issue_refund'))),
      check(interfaceAgent, usually(calledTool('lookup_order'))),
      check(untypedAgent, never(calledTool('issue_refund'))),
      check(agent, apart),
      check(interfaceAgent, apart),
    ]
  })

  it('rejects a predicate that does not fit the output type', () => {
    const _calls = () => [
      check(
        agent,
        // @ts-expect-error -- the output is 'refund' | 'escalate' | undefined, never a number
        rarely((t) => t.output === 42),
      ),
      check(
        agent,
        // @ts-expect-error -- the input has no `customerId`
        always((t) => t.input.customerId === 'c-1'),
      ),
      check(
        agent,
        // @ts-expect-error -- a claim about another agent's output
        rarely((t: Trajectory<Ticket, number>) => t.output === 1),
      ),
    ]
  })
})

describe('the attribute.context option', () => {
  it('takes true, false or the ablation knobs, and rejects what the engine does not know', () => {
    expectTypeOf<{ ablation: 'placeholder'; placeholder: string }>().toMatchTypeOf<ContextAttributeOptions>()
    const _calls = () => [
      expect(agent).toRarely(calledTool('issue_refund'), { attribute: { context: false } }),
      expect(agent).toRarely(calledTool('issue_refund'), {
        attribute: { context: { ablation: 'placeholder', maxRollouts: 200, refine: false } },
      }),
      check(
        agent,
        rarely(calledTool('issue_refund'), {
          attribute: {
            context: {
              ablate: (context, path) => (path[0] === 'ticket' ? {} : context),
              parts: (context) => [{ path: ['ticket'], label: 'the ticket', text: JSON.stringify(context) }],
            },
          },
        }),
      ),
      // @ts-expect-error -- 'mask' is not an ablation
      expect(agent).toRarely(calledTool('issue_refund'), { attribute: { context: { ablation: 'mask' } } }),
      // @ts-expect-error -- a misspelled knob
      expect(agent).toRarely(calledTool('issue_refund'), { attribute: { context: { ablaton: 'remove' } } }),
    ]
  })
})
