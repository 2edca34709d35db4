import { defineAgent, type Predicate, type Trajectory } from '../../../src/index.js'
import { Budget } from '../../../src/rollout/budget.js'
import type { ResolvedCommon } from '../../../src/verdict/options.js'
import type { GateSubject } from '../../../src/verdict/gate.js'

/** An agent whose single step is "bad" with probability p (p = 0: never, p = 1: always). */
export function coinAgent(p: number, name = `coin(${p})`) {
  return defineAgent({
    name,
    input: { p },
    async run(_input, ctx) {
      return ctx.step('decide', (rng) => (rng() < p ? 'bad' : 'good'))
    },
  })
}

/** The outcome the coin agents are judged on. */
export const returnedBad = (trajectory: Trajectory): boolean => trajectory.output === 'bad'

/** A gate subject for tests. */
export function subject(predicate: Predicate = returnedBad): GateSubject {
  return { agent: 'coin', predicate, label: 'return bad', seedSource: 'option' }
}

/** Common resolved options with test-friendly values. */
export function common(overrides: Partial<ResolvedCommon> = {}): ResolvedCommon {
  return {
    confidence: 0.95,
    seed: 7,
    concurrency: 8,
    timeoutMs: 10_000,
    maxSteps: 100,
    budget: new Budget(),
    attribute: false,
    allowErrors: false,
    label: undefined,
    ...overrides,
  }
}
