import { defineAgent, type Trajectory } from '../../../src/index.js'
import type { AgentOrScenario } from '../../../src/entries/types.js'
import { record } from '../../../src/entries/replay.js'
import { stepStream } from '../../../src/random/streams.js'
import { returnedBad } from '../../../examples/synthetic/scms.js'

/** The first rollout under `seed` whose outcome is bad: the factual run an attribution explains. */
export async function firstBadRun(
  agent: AgentOrScenario,
  seed: number,
  isBad: (trajectory: Trajectory) => boolean = returnedBad,
): Promise<Trajectory> {
  for (let rollout = 0; rollout < 10_000; rollout++) {
    const trajectory = await record(agent, { seed, rollout })
    if (isBad(trajectory)) return trajectory
  }
  throw new Error(`no bad run under seed ${seed}`)
}

/**
 * A step whose redraw makes failure MORE likely: `mode` is 'careful' with probability 0.1, and a
 * flaky environment then fails the run with probability 0.2 (careful) or 0.9 (hasty). The factual
 * run is a careful one that failed anyway, so the baseline is 0.2 and resampling `mode` gives
 * 0.1·0.2 + 0.9·0.9 = 0.83: an effect of +0.63, reported as `worsens`, never the locus.
 */
export const worseningAgent = defineAgent({
  name: 'worsening',
  input: {},
  async run(_input, ctx) {
    const mode = await ctx.step('mode', (rng) => (rng() < 0.1 ? 'careful' : 'hasty'))
    const draw = stepStream(ctx.rollout.seed + 1, ctx.rollout.index, 0)()
    const result = await ctx.tool('submit', { mode }, () =>
      draw < (mode === 'careful' ? 0.2 : 0.9) ? 'failed' : 'ok',
    )
    await ctx.step('reply', (rng) => (rng() < 0.5 ? 'sorry' : 'done'))
    return result === 'failed' ? 'bad' : 'good'
  },
})

/** True for a careful run that failed: the factual run of {@link worseningAgent}. */
export const carefulAndFailed = (trajectory: Trajectory): boolean =>
  trajectory.output === 'bad' && trajectory.steps[0]?.action === 'careful'

/**
 * The pivotal SCM whose `reply` throws in a quarter of the rollouts (by its own stream): error
 * outcomes to check that attribution counts them and never scores them.
 */
export const flakyPivotalAgent = defineAgent({
  name: 'flaky-pivotal',
  input: {},
  async run(_input, ctx) {
    await ctx.step('lookup', (rng) => (rng() < 0.5 ? 'order' : 'account'))
    const decision = await ctx.step('decide', (rng) => (rng() < 0.3 ? 'bad' : 'good'))
    const reply = await ctx.step('reply', (rng) => (rng() < 0.25 ? 'crash' : 'Done.'))
    if (reply === 'crash') throw new Error('the reply tool crashed')
    return decision
  },
})
