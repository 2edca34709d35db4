import { InvalidOptionError } from '../errors.js'
import { describeReceived } from '../options/received.js'
import type { Json } from '../json.js'
import type { Trajectory } from './schema.js'

/**
 * A score of a rollout: `(trajectory) => number` (or a promise of one), in [0, 1] unless the claim
 * declares another `range`. A judge's rubric score, a similarity, a 1–5 grade.
 */
export type TrajectoryScorer<I = Json, O = Json> = (trajectory: Trajectory<I, O>) => number | Promise<number>

/** Who asked a scorer, for the message when its result is not a score. */
export interface ScorerCaller {
  /** The scorer as messages name it: its label (`the scorer "helpfulness"`). */
  readonly caller: string
  /** The rollout the scorer was scoring, or null when the message should not name one. */
  readonly rollout: number | null
  /** The scores allowed, `[min, max]`. */
  readonly range: readonly [number, number]
}

/**
 * Returns `value` when it is a number in `range`, and otherwise throws the
 * {@link InvalidOptionError} that names the scorer, the rollout and what it returned. A NaN, a
 * string "0.8", a score on a 1–5 scale without `range: [1, 5]` would otherwise be averaged into
 * a wrong verdict.
 */
export function checkScoreResult(value: unknown, asked: ScorerCaller): number {
  const [min, max] = asked.range
  if (typeof value === 'number' && value >= min && value <= max) return value
  const where = asked.rollout === null ? '' : ` on rollout ${asked.rollout}`
  const outside = typeof value === 'number' && !Number.isNaN(value)
  throw new InvalidOptionError({
    caller: asked.caller,
    option: 'scorer',
    expected: `a function (trajectory) => number (or a promise of one) with scores in [${min}, ${max}]`,
    received: `one that returned ${describeReceived(value)}${where}`,
    ...(value === undefined
      ? { hint: 'A missing `return`?' }
      : outside
        ? { hint: 'Declare the scores the scorer returns with { range: [min, max] }.' }
        : {}),
  })
}
