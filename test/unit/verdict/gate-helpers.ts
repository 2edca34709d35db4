import { defineAgent, type Predicate, type Trajectory } from '../../../src/index.js'
import { Budget } from '../../../src/rollout/budget.js'
import type {
  ResolvedBaseline,
  ResolvedCommon,
  ResolvedSequentialGate,
  ResolvedZeroTolerance,
} from '../../../src/verdict/options.js'
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

/** A resolved "at most 5%" sequential gate over {@link common} options. */
export function sequentialGate(overrides: Partial<ResolvedSequentialGate> = {}): ResolvedSequentialGate {
  return {
    ...common(),
    kind: 'sequential',
    direction: 'atMost',
    bound: 0.05,
    maxRollouts: 400,
    minRollouts: 0,
    onInconclusive: 'fail',
    ...overrides,
  }
}

/** A resolved "never in 100" zero-tolerance gate over {@link common} options. */
export function zeroToleranceGate(overrides: Partial<ResolvedZeroTolerance> = {}): ResolvedZeroTolerance {
  return { ...common(), kind: 'zero-tolerance', direction: 'atMost', rollouts: 100, ...overrides }
}

/** A resolved baseline gate (100 rollouts, no tolerance, lower is better) over {@link common} options. */
export function baselineGate(overrides: Partial<ResolvedBaseline> = {}): ResolvedBaseline {
  return {
    ...common(),
    kind: 'baseline',
    name: undefined,
    tolerance: 0,
    rollouts: 100,
    better: 'lower',
    ...overrides,
  }
}
