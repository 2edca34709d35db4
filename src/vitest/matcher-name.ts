import { z } from 'zod'
import { MATCHER_NAMES } from '../check/claims.js'

/** The rate matchers, as reports store them: one per kind of claim (`CLAIMS`). */
export const MatcherNameSchema = z.enum(MATCHER_NAMES)
export type { MatcherName } from '../check/claims.js'
