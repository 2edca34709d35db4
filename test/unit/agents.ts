// Test agents shared by the unit tests of rollout/, replay/ and trajectory/. Each factory returns
// fresh counters, so a test can check how often the engine really ran an agent, a policy or a tool.
import { defineAgent, type AgentContext } from '../../src/index.js'
import type { Json } from '../../src/entries/types.js'

/** Input of {@link chainAgent}: how many decisions to make. */
export interface ChainInput {
  steps: number
}

/** What a chain step decides: a draw in 0…999,999 and the context its policy saw. */
export interface ChainAction {
  value: number
  saw: Json
  [key: string]: Json
}

/** Counters of a {@link chainAgent}. */
export interface ChainCounters {
  runs: number
  config: number
  echo: number
  audit: number
}

/**
 * A general agent for the replay properties: one preamble tool call (`config`), then `steps`
 * decisions named alternately `think` and `act`, each followed by two tool calls (`echo`, `audit`).
 * A step decides from the actions and tool results so far, and its action records the context its
 * policy saw (so `editContext` is visible). The output is the list of drawn values.
 */
export function chainAgent(name = 'chain') {
  const counters: ChainCounters = { runs: 0, config: 0, echo: 0, audit: 0 }
  const agent = defineAgent<ChainInput, number[]>({
    name,
    input: { steps: 4 },
    async run(input, ctx) {
      counters.runs++
      const config = await ctx.tool('config', { want: 'greeting' }, () => {
        counters.config++
        return { greeting: 'hi' }
      })
      const history: Json[] = [config]
      const values: number[] = []
      for (let i = 0; i < input.steps; i++) {
        const action = await ctx.step(i % 2 === 0 ? 'think' : 'act', chainPolicy, {
          context: { turn: i, history },
        })
        history.push(action)
        const value =
          typeof action === 'object' && action !== null && 'value' in action ? action.value : action
        values.push(typeof value === 'number' ? value : -1)
        const echo = await ctx.tool('echo', { turn: i, value }, (args) => {
          counters.echo++
          return { echoed: args }
        })
        const audit = await ctx.tool('audit', { turn: i }, (args) => {
          counters.audit++
          return { audited: args, ok: true }
        })
        history.push(echo, audit)
      }
      return values
    },
  })
  return { agent, counters }
}

/**
 * The chain agent's policy: a uniform draw in 0…999,999 plus a copy of what it saw (a copy: the
 * agent goes on appending to the list it passed as context).
 */
export const chainPolicy = (rng: () => number, view: { context: Json | undefined }): ChainAction => ({
  value: Math.floor(rng() * 1_000_000),
  saw: JSON.parse(JSON.stringify(view.context ?? null)) as Json,
})

/** Waits a random 0–5 ms (Math.random: the timing is meant to be nondeterministic). */
export function jitter(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 5))
}

/**
 * An agent whose steps take a random time (its policies and its tool wait 0–5 ms chosen by
 * Math.random), so concurrent rollouts interleave differently on every run. Its results must not.
 */
export const jitteryAgent = defineAgent({
  name: 'jittery',
  input: { turns: 3 },
  async run(input: { turns: number }, ctx: AgentContext) {
    const picks: Json[] = []
    for (let i = 0; i < input.turns; i++) {
      const pick = await ctx.step(
        'pick',
        async (rng) => {
          await jitter()
          return rng() < 0.5 ? 'left' : 'right'
        },
        { context: picks },
      )
      const weight = await ctx.step('weigh', async (rng) => {
        await jitter()
        return Math.round(rng() * 1000) / 1000
      })
      await ctx.tool('log', { pick, weight }, async () => {
        await jitter()
        return { logged: i }
      })
      picks.push(pick, weight)
    }
    return picks
  },
})

/** A counter of runs around an agent whose outcome is a fair coin; `bad` when the coin says so. */
export function coinAgent(name = 'coin') {
  const counters = { runs: 0 }
  const agent = defineAgent({
    name,
    input: null,
    async run(_input, ctx) {
      counters.runs++
      return ctx.step('flip', (rng) => (rng() < 0.5 ? 'bad' : 'good'))
    },
  })
  return { agent, counters }
}
