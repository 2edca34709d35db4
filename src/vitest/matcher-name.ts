import { z } from 'zod'

/** The rate matchers; each makes one kind of claim. */
export const MatcherNameSchema = z.enum([
  'toRarely',
  'toUsually',
  'toNever',
  'toAlways',
  'toMatchRateBaseline',
  'toBeNoWorseThan',
  'toScoreAtLeast',
  'toScoreAtMost',
])
export type MatcherName = z.infer<typeof MatcherNameSchema>

/** The claim each matcher makes. */
export const CLAIM_OF = {
  toRarely: 'rarely',
  toUsually: 'usually',
  toNever: 'never',
  toAlways: 'always',
  toMatchRateBaseline: 'baseline',
  toBeNoWorseThan: 'noWorseThan',
  toScoreAtLeast: 'scoreAtLeast',
  toScoreAtMost: 'scoreAtMost',
} as const satisfies Record<MatcherName, string>
