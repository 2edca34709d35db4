import { defineAgent, type Trajectory } from '../../src/index.js'

/**
 * The pivotal SCM: lookup → decide (bad with probability p) → reply. Only `decide`
 * matters: contrastive effects (p − 1, p − 1, 0), causal locus 1, Shapley (0, 1 − p, 0).
 */
export function pivotalAgent(p = 0.3) {
  return defineAgent({
    name: `pivotal(p=${p})`,
    input: { p },
    async run(_input, ctx) {
      await ctx.step('lookup', (rng) => (rng() < 0.5 ? 'order' : 'account'))
      const decision = await ctx.step('decide', (rng) => (rng() < p ? 'bad' : 'good'))
      await ctx.step('reply', (rng) => (rng() < 0.5 ? 'Done.' : 'All set.'))
      return decision
    },
  })
}

/**
 * The AND-interaction SCM: a (bad w.p. q) → b (bad w.p. q) → reply, bad iff both.
 * v(∅) = q², v({a}) = v({b}) = q, v({a, b}) = 1, so Shapley gives (1 − q²)/2 to a and b each.
 */
export function andAgent(q = 0.3) {
  return defineAgent({
    name: `and(q=${q})`,
    input: { q },
    async run(_input, ctx) {
      const a = await ctx.step('a', (rng) => (rng() < q ? 'bad' : 'good'))
      const b = await ctx.step('b', (rng) => (rng() < q ? 'bad' : 'good'))
      await ctx.step('reply', (rng) => (rng() < 0.5 ? 'Done.' : 'All set.'))
      return a === 'bad' && b === 'bad' ? 'bad' : 'good'
    },
  })
}

/** The outcome of both SCMs: the run returned "bad". */
export const returnedBad = (trajectory: Trajectory): boolean => trajectory.output === 'bad'
