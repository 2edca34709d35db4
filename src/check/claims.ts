import type { Predicate } from '../trajectory/queries.js'
import { InvalidOptionError } from '../errors.js'
import { describeReceived } from '../options/received.js'
import {
  checkClaimOptions,
  type BaselineClaimOptions,
  type RarelyOptions,
  type UsuallyOptions,
  type ZeroToleranceOptions,
} from '../verdict/options.js'

/** A claim about an agent's rate, built by {@link rarely}, {@link usually}, {@link never}, {@link always} or {@link matchesBaseline}. */
export type Claim =
  | { readonly kind: 'rarely'; readonly predicate: Predicate; readonly options: RarelyOptions }
  | { readonly kind: 'usually'; readonly predicate: Predicate; readonly options: UsuallyOptions }
  | { readonly kind: 'never'; readonly predicate: Predicate; readonly options: ZeroToleranceOptions }
  | { readonly kind: 'always'; readonly predicate: Predicate; readonly options: ZeroToleranceOptions }
  | { readonly kind: 'baseline'; readonly predicate: Predicate; readonly options: BaselineClaimOptions }

/**
 * The predicate (a bad outcome) holds in at most `atMost` (default 5%) of rollouts, at
 * `confidence` (default 95%): `check(agent, rarely(refundWrongly, { atMost: 0.05 }))`. The claim of
 * `toRarely`.
 */
export function rarely(predicate: Predicate, options: RarelyOptions = {}): Claim {
  return claimOf('rarely', predicate, options, 'rarely')
}

/** The predicate (a good outcome) holds in at least `atLeast` (default 95%) of rollouts. The claim of `toUsually`. */
export function usually(predicate: Predicate, options: UsuallyOptions = {}): Claim {
  return claimOf('usually', predicate, options, 'usually')
}

/** The predicate holds in none of `rollouts` (default 100) rollouts. The claim of `toNever`. */
export function never(predicate: Predicate, options: ZeroToleranceOptions = {}): Claim {
  return claimOf('never', predicate, options, 'never')
}

/** The predicate holds in all of `rollouts` (default 100) rollouts. The claim of `toAlways`. */
export function always(predicate: Predicate, options: ZeroToleranceOptions = {}): Claim {
  return claimOf('always', predicate, options, 'always')
}

/**
 * The predicate's rate is not significantly worse than the one stored under `name` in `file`
 * (a regression gate; `update: 'all'` rewrites it). The claim of `toMatchRateBaseline`.
 */
export function matchesBaseline(predicate: Predicate, options: BaselineClaimOptions): Claim {
  return claimOf('baseline', predicate, options, 'matchesBaseline')
}

/** The options each kind of claim takes. */
export interface ClaimOptionsMap {
  rarely: RarelyOptions
  usually: UsuallyOptions
  never: ZeroToleranceOptions
  always: ZeroToleranceOptions
  baseline: BaselineClaimOptions
}

/**
 * A claim of `kind`, its predicate checked; `caller` names the function in messages (a builder, or
 * the matcher that makes the same claim).
 */
export function claimOf<K extends Claim['kind']>(
  kind: K,
  predicate: unknown,
  options: ClaimOptionsMap[K],
  caller: string,
): Claim {
  const checked = checkPredicate(caller, predicate)
  checkClaimOptions(kind, caller, options)
  return { kind, predicate: checked, options } as Claim
}

function checkPredicate(caller: string, predicate: unknown): Predicate {
  if (typeof predicate !== 'function') {
    throw new InvalidOptionError({
      caller,
      option: 'predicate',
      expected: "a function (trajectory) => boolean, such as calledTool('issue_refund')",
      received: describeReceived(predicate),
    })
  }
  return predicate as Predicate
}
