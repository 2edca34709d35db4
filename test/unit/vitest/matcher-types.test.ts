// The contract that lets typescript-eslint's no-floating-promises catch a forgotten `await`: every
// rate matcher on `expect(agent)` returns a Promise. Checked by `tsc` (`npm run typecheck`); at run
// time these assertions do nothing, so no matcher runs here.
import { describe, expectTypeOf, it, type expect } from 'vitest'
import type {} from '../../../matchers/index.js'
import type { Agent } from '../../../src/agent/types.js'
import { calledTool } from '../../../src/trajectory/queries.js'

/** What `expect(agent)` returns, with the matchers' augmentation applied. */
type AgentAssertion = ReturnType<typeof expect<Agent>>

const predicate = calledTool('issue_refund')

describe('the rate matchers on expect(agent)', () => {
  it('return Promise<void>, so a missing await is a floating promise', () => {
    expectTypeOf<AgentAssertion['toRarely']>().returns.toEqualTypeOf<Promise<void>>()
    expectTypeOf<AgentAssertion['toUsually']>().returns.toEqualTypeOf<Promise<void>>()
    expectTypeOf<AgentAssertion['toNever']>().returns.toEqualTypeOf<Promise<void>>()
    expectTypeOf<AgentAssertion['toAlways']>().returns.toEqualTypeOf<Promise<void>>()
    expectTypeOf<AgentAssertion['toMatchRateBaseline']>().returns.toEqualTypeOf<Promise<void>>()
  })

  it('take a predicate and their own options, and reject an unknown option', () => {
    expectTypeOf<AgentAssertion['toRarely']>().toBeCallableWith(predicate, { atMost: 0.1 })
    expectTypeOf<AgentAssertion['toUsually']>().toBeCallableWith(predicate, { atLeast: 0.9 })
    expectTypeOf<AgentAssertion['toNever']>().toBeCallableWith(predicate, { rollouts: 20 })
    expectTypeOf<AgentAssertion['toAlways']>().toBeCallableWith(predicate)
    expectTypeOf<AgentAssertion['toMatchRateBaseline']>().toBeCallableWith(predicate)

    // @ts-expect-error -- `atMots` is not an option of toRarely
    expectTypeOf<AgentAssertion['toRarely']>().toBeCallableWith(predicate, { atMots: 0.1 })
    // @ts-expect-error -- `atMost` belongs to toRarely, not toUsually
    expectTypeOf<AgentAssertion['toUsually']>().toBeCallableWith(predicate, { atMost: 0.1 })
    // @ts-expect-error -- `atLeast` is not an option of toNever
    expectTypeOf<AgentAssertion['toNever']>().toBeCallableWith(predicate, { atLeast: 0.9 })
    // @ts-expect-error -- `rolouts` is not an option of toAlways
    expectTypeOf<AgentAssertion['toAlways']>().toBeCallableWith(predicate, { rolouts: 20 })
    // @ts-expect-error -- `atMost` is not an option of toMatchRateBaseline
    expectTypeOf<AgentAssertion['toMatchRateBaseline']>().toBeCallableWith(predicate, { atMost: 0.1 })
  })
})
