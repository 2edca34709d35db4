import { InvalidOptionError } from '../errors.js'
import type { Json } from '../json.js'
import { describeReceived } from '../options/received.js'
import { judgeCalibrationOf, negatedCalibration, withJudgeCalibration } from './judge-calibration.js'
import { predicateLabel } from './predicate-label.js'
import { checkPredicateResult } from './predicate-result.js'
import type { Predicate, TrajectoryPredicate } from './queries.js'

type Combinator = 'and' | 'or' | 'not'

// Which combinator made a predicate, so a label puts a mixed child in parentheses:
// "call a and (call b or call c)". A WeakMap leaves the user's functions untouched.
const madeBy = new WeakMap<object, Combinator>()

// Each combinator has a second signature over predicates that fit every agent (`calledTool` and
// the like). The first infers the agent's types from a typed predicate or from where the result
// goes (`expect(agent).toRarely(and(calledTool('x'), (t) => t.input.id === 1))` types `t`);
// without the second, `and(calledTool('x'), not(typedPredicate))` fails to infer them.

/**
 * A predicate that is true when every one of `predicates` is. Evaluated in order and stopped at
 * the first false one, so a costly (judge) predicate placed last runs only when the cheap ones
 * pass. Synchronous predicates give a synchronous result.
 */
export function and<I = Json, O = Json>(...predicates: readonly Predicate<I, O>[]): Predicate<I, O>
export function and(...predicates: readonly TrajectoryPredicate[]): TrajectoryPredicate
export function and(...predicates: readonly Predicate<unknown, unknown>[]): Predicate<unknown, unknown> {
  return combine('and', predicates)
}

/** A predicate that is true when any of `predicates` is; evaluated in order, stopped at the first true one. */
export function or<I = Json, O = Json>(...predicates: readonly Predicate<I, O>[]): Predicate<I, O>
export function or(...predicates: readonly TrajectoryPredicate[]): TrajectoryPredicate
export function or(...predicates: readonly Predicate<unknown, unknown>[]): Predicate<unknown, unknown> {
  return combine('or', predicates)
}

/** A predicate that is true when `predicate` is false. Its label reads "not …". */
export function not<I = Json, O = Json>(predicate: Predicate<I, O>): Predicate<I, O>
export function not(predicate: TrajectoryPredicate): TrajectoryPredicate
export function not(predicate: Predicate<unknown, unknown>): Predicate<unknown, unknown> {
  checkPredicates('not', [predicate])
  const negated: Predicate<unknown, unknown> = (trajectory) => {
    const result = predicate(trajectory)
    const asked = { caller: 'not', option: 'predicate', rollout: trajectory.rollout }
    return isPromise(result)
      ? result.then((value) => !checkPredicateResult(value, asked))
      : !checkPredicateResult(result, asked)
  }
  // A calibrated judge stays one when negated; its error rates trade places.
  const calibration = judgeCalibrationOf(predicate)
  if (calibration !== undefined) withJudgeCalibration(negated, negatedCalibration(calibration))
  return labelled(negated, 'not', `not ${childLabel(predicate, 'not')}`)
}

function combine(
  kind: 'and' | 'or',
  predicates: readonly Predicate<unknown, unknown>[],
): Predicate<unknown, unknown> {
  checkPredicates(kind, predicates)
  // `and` stops at the first false, `or` at the first true; that value is then the result.
  const stopOn = kind === 'or'
  const combined: Predicate<unknown, unknown> = (trajectory) => {
    const from = (start: number): boolean | Promise<boolean> => {
      for (let index = start; index < predicates.length; index += 1) {
        const result = predicates[index]!(trajectory)
        const asked = { caller: kind, option: `predicates[${index}]`, rollout: trajectory.rollout }
        if (isPromise(result)) {
          return result.then((value) =>
            checkPredicateResult(value, asked) === stopOn ? stopOn : from(index + 1),
          )
        }
        if (checkPredicateResult(result, asked) === stopOn) return stopOn
      }
      return !stopOn
    }
    return from(0)
  }
  const labels = predicates.map((predicate) => childLabel(predicate, kind))
  const label =
    labels.length <= 1
      ? (labels[0] ?? (kind === 'and' ? 'always hold' : 'never hold'))
      : joinWith(labels, kind)
  return labelled(combined, kind, label)
}

function checkPredicates(caller: Combinator, predicates: readonly unknown[]): void {
  predicates.forEach((predicate, index) => {
    if (typeof predicate !== 'function') {
      throw new InvalidOptionError({
        caller,
        option: caller === 'not' ? 'predicate' : `predicates[${index}]`,
        expected: 'a function (trajectory) => boolean (or a promise of one)',
        received: describeReceived(predicate),
      })
    }
  })
}

function childLabel(predicate: { readonly name: string }, parent: Combinator): string {
  const label = predicateLabel(predicate)
  const child = madeBy.get(predicate)
  // "not a and b" would be ambiguous: a combined child of another kind goes in parentheses.
  return child !== undefined && child !== parent && child !== 'not' ? `(${label})` : label
}

function joinWith(labels: readonly string[], kind: 'and' | 'or'): string {
  return `${labels.slice(0, -1).join(', ')} ${kind} ${labels.at(-1)}`
}

function labelled<F extends object>(predicate: F, kind: Combinator, label: string): F {
  Object.defineProperty(predicate, 'name', { value: label })
  madeBy.set(predicate, kind)
  return predicate
}

function isPromise(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}
