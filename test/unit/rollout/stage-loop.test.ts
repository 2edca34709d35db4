import { describe, expect, it } from 'vitest'
import { defineAgent } from '../../../src/index.js'
import { record } from '../../../src/entries/replay.js'
import { modelCallSlots } from '../../../src/rollout/model-call-slots.js'

type Fail = 'sync' | 'async' | 'meta' | 'none'

/**
 * An agent whose model step fails where `fail` says (its policy throws, its promise rejects, or its
 * meta throws after the call returned), catches the failure, then takes one more step. The step
 * that failed must give back its model slot and its index exactly once: the next step takes the
 * same index, and no call to the model is left counted in flight.
 */
function failingAgent(model: string, fail: Fail) {
  return defineAgent<null, string>({
    name: `fails-${fail}`,
    input: null,
    async run(_input, ctx) {
      let caught = 'none'
      try {
        await ctx.step(
          'decide',
          () => {
            if (fail === 'sync') throw new Error('policy threw')
            if (fail === 'async') return Promise.reject(new Error('policy rejected'))
            return Promise.resolve('ok')
          },
          {
            model,
            meta: () => {
              if (fail === 'meta') throw new Error('meta threw')
              return { inputTokens: 1, outputTokens: 1 }
            },
          },
        )
      } catch (error) {
        caught = (error as Error).message
      }
      await ctx.step('after', () => 'next')
      return caught
    },
  })
}

describe('the step pipeline gives a failed step back once', () => {
  for (const [fail, message] of [
    ['sync', 'policy threw'],
    ['async', 'policy rejected'],
    ['meta', 'meta threw'],
    ['none', 'none'],
  ] as const) {
    it(`a model step that fails (${fail}) frees its slot and its index`, async () => {
      const model = `stage-loop-${fail}`
      const trajectory = await record(failingAgent(model, fail), { seed: 1 })
      expect(trajectory.error).toBeUndefined()
      expect(trajectory.output).toBe(message)
      // The failed step's index went back: the step after it is step 0, or step 1 after a success.
      expect(trajectory.steps.map((step) => step.name)).toEqual(
        fail === 'none' ? ['decide', 'after'] : ['after'],
      )
      expect(modelCallSlots.callsInFlight(model)).toBe(0)
    })
  }

  it('a step cut off while it waits for its slot gives back the index and takes no slot', async () => {
    const model = 'stage-loop-cut-off'
    const stop = new AbortController()
    // Fill the model's slots (the default concurrency) so the agent's call waits for one.
    const held = 64
    for (let i = 0; i < held; i++) await modelCallSlots.acquire(model, held, new AbortController().signal)
    const agent = defineAgent<null, string>({
      name: 'cut-off',
      input: null,
      async run(_input, ctx) {
        const pending = ctx.step('decide', () => 'never', { model })
        stop.abort(new Error('stopped while waiting'))
        return pending
      },
    })
    await expect(record(agent, { seed: 1, signal: stop.signal })).rejects.toThrow()
    for (let i = 0; i < held; i++) modelCallSlots.release(model)
    expect(modelCallSlots.callsInFlight(model)).toBe(0)
  })
})
