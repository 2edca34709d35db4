import { defineAgent } from '../../src/index.js'

/**
 * The judges' test agent: it decides to refund in about `rate` of its runs and, when it does,
 * calls the `issue_refund` tool, so a judge shown the run can tell the two apart.
 */
export const refunder = (rate: number) =>
  defineAgent({
    name: 'refunder',
    input: { order: 'A1' },
    async run(_input, ctx) {
      const refund = await ctx.step('decide', (rng) => rng() < rate)
      if (refund) await ctx.tool('issue_refund', { order: 'A1' }, () => 'refunded')
      return refund ? 'refunded' : 'declined'
    },
  })
