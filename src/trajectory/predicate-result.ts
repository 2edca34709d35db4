import { InvalidOptionError } from '../errors.js'
import { describeReceived } from '../options/received.js'

/** Who asked a predicate, for the message when its result is not a boolean. */
export interface PredicateCaller {
  /** The function whose argument the predicate is: `rate`, `contrastive`, or the predicate's own label. */
  readonly caller: string
  /** The argument's name: `predicate`, `isBad`. */
  readonly option: string
  /** The rollout the predicate was scoring, or null when the message should not name one. */
  readonly rollout: number | null
}

/**
 * Returns `value` when it is a boolean, and otherwise throws the {@link InvalidOptionError} that
 * names who asked and what the predicate returned. The one check behind every predicate result
 * (`RolloutSet.rate`, attribution, the gates), so a stray `1n`, a circular object or a missing
 * `return` gets the same message everywhere instead of counting as "false" or failing to print.
 */
export function checkPredicateResult(value: unknown, asked: PredicateCaller): boolean {
  if (typeof value === 'boolean') return value
  const where = asked.rollout === null ? '' : ` on rollout ${asked.rollout}`
  throw new InvalidOptionError({
    caller: asked.caller,
    option: asked.option,
    expected: 'a function (trajectory) => boolean (or a promise of one)',
    received: `one that returned ${describeReceived(value)}${where}`,
    ...(value === undefined ? { hint: 'A missing `return`?' } : {}),
  })
}
