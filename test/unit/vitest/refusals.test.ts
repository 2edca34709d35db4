import { describe, expect, it } from 'vitest'
import { MatcherNameSchema } from '../../../src/check/claims.js'
import { refuseNot } from '../../../src/vitest/refusals.js'

describe('refuseNot', () => {
  it.each([
    ['toRarely', /use toUsually\(pred, \{ atLeast \}\) with the same predicate/],
    ['toUsually', /use toRarely\(pred, \{ atMost \}\) with the same predicate/],
    ['toNever', /use toUsually\(pred, \{ atLeast \}\) with the smallest rate you expect/],
    ['toAlways', /use toUsually\(\(t\) => !pred\(t\), \{ atLeast \}\) with the complementary predicate/],
    ['toMatchRateBaseline', /pass \{ better: 'higher' \}/],
    [
      'toBeNoWorseThan',
      /swap the agents: expect\(baseline\)\.toBeNoWorseThan\(candidate, pred, \{ margin \}\)/,
    ],
  ] as const)('.not.%s names the matcher to use instead', (matcher, instead) => {
    expect(() => refuseNot(matcher)).toThrow(
      new RegExp(`expect\\(agent\\)\\.not\\.${matcher}\\(\\) is not supported`),
    )
    expect(() => refuseNot(matcher)).toThrow(instead)
  })

  it('covers every matcher', () => {
    for (const matcher of MatcherNameSchema.options) expect(() => refuseNot(matcher)).toThrow(/not supported/)
  })
})
