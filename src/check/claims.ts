import { toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import type { Agent, Scenario } from '../agent/types.js'
import type { Json } from '../json.js'
import type { Predicate } from '../trajectory/queries.js'
import type { TrajectoryScorer } from '../trajectory/score-result.js'
import { InvalidOptionError } from '../errors.js'
import { captureCallSite, pointAtCallSite } from '../options/call-site.js'
import { describeReceived } from '../options/received.js'
import {
  checkClaimOptions,
  resolveScoreGate,
  type BaselineClaimOptions,
  type NoWorseThanOptions,
  type RarelyOptions,
  type ScoreOptions,
  type UsuallyOptions,
  type ZeroToleranceOptions,
} from '../verdict/options.js'

/**
 * A claim about an agent's rate, built by {@link rarely}, {@link usually}, {@link never}, {@link always},
 * {@link matchesBaseline} or {@link noWorseThan} (against a baseline agent); or about its mean score,
 * built by {@link scoresAtLeast} or {@link scoresAtMost}.
 * `I` and `O` are the input and output types its predicate (or scorer) reads (default: any JSON value).
 */
export type Claim<I = Json, O = Json> = RateClaim<I, O> | ScoreClaim<I, O>

/** A claim about the rate of a predicate. */
export type RateClaim<I = Json, O = Json> =
  | { readonly kind: 'rarely'; readonly predicate: Predicate<I, O>; readonly options: RarelyOptions }
  | { readonly kind: 'usually'; readonly predicate: Predicate<I, O>; readonly options: UsuallyOptions }
  | { readonly kind: 'never'; readonly predicate: Predicate<I, O>; readonly options: ZeroToleranceOptions }
  | { readonly kind: 'always'; readonly predicate: Predicate<I, O>; readonly options: ZeroToleranceOptions }
  | { readonly kind: 'baseline'; readonly predicate: Predicate<I, O>; readonly options: BaselineClaimOptions }
  | {
      readonly kind: 'noWorseThan'
      readonly predicate: Predicate<I, O>
      /** The agent (or scenario) the candidate is compared with, run on the same seed. */
      readonly baseline: Scenario<unknown, unknown>
      readonly options: NoWorseThanOptions
    }

/** A claim about the mean of a scorer: at least (`scoreAtLeast`) or at most (`scoreAtMost`) `threshold`. */
export interface ScoreClaim<I = Json, O = Json> {
  readonly kind: 'scoreAtLeast' | 'scoreAtMost'
  readonly scorer: TrajectoryScorer<I, O>
  /** In the scorer's units (its `range`, [0, 1] unless declared). */
  readonly threshold: number
  readonly options: ScoreOptions
}

/**
 * The scorer for `target`: on an `Agent<I, O>` or a `Scenario<I, O>` it sees `input: I` and
 * `output: O | undefined`; on anything else, the default `TrajectoryScorer`.
 */
export type ScorerFor<T> =
  T extends Agent<infer I, infer O>
    ? TrajectoryScorer<KnownOrJson<I>, KnownOrJson<O>>
    : T extends Scenario<infer I, infer O>
      ? TrajectoryScorer<KnownOrJson<I>, KnownOrJson<O>>
      : TrajectoryScorer

/**
 * `T`, or any JSON value when `T` is `unknown` (or `any`): an agent whose input or output type was
 * not inferred still only ever records JSON, and a predicate written for the default
 * `Trajectory` must keep fitting it.
 */
export type KnownOrJson<T> = unknown extends T ? Json : T

/**
 * The predicate a claim or a rate matcher takes for `target`: on an `Agent<I, O>` or a
 * `Scenario<I, O>` it sees `input: I` and `output: O | undefined`; on anything else, the default
 * `Predicate` (the value is refused at run time anyway).
 */
export type PredicateFor<T> =
  T extends Agent<infer I, infer O>
    ? Predicate<KnownOrJson<I>, KnownOrJson<O>>
    : T extends Scenario<infer I, infer O>
      ? Predicate<KnownOrJson<I>, KnownOrJson<O>>
      : Predicate

/**
 * The predicate (a bad outcome) holds in at most `atMost` (default 5%) of rollouts, at
 * `confidence` (default 95%): `check(agent, rarely(refundWrongly, { atMost: 0.05 }))`. The claim of
 * `toRarely`.
 */
export function rarely<I = Json, O = Json>(
  predicate: Predicate<I, O>,
  options: RarelyOptions = {},
): Claim<I, O> {
  return claimOf('rarely', predicate, options, 'rarely') as Claim<I, O>
}

/** The predicate (a good outcome) holds in at least `atLeast` (default 95%) of rollouts. The claim of `toUsually`. */
export function usually<I = Json, O = Json>(
  predicate: Predicate<I, O>,
  options: UsuallyOptions = {},
): Claim<I, O> {
  return claimOf('usually', predicate, options, 'usually') as Claim<I, O>
}

/** The predicate holds in none of `rollouts` (default 100) rollouts. The claim of `toNever`. */
export function never<I = Json, O = Json>(
  predicate: Predicate<I, O>,
  options: ZeroToleranceOptions = {},
): Claim<I, O> {
  return claimOf('never', predicate, options, 'never') as Claim<I, O>
}

/** The predicate holds in all of `rollouts` (default 100) rollouts. The claim of `toAlways`. */
export function always<I = Json, O = Json>(
  predicate: Predicate<I, O>,
  options: ZeroToleranceOptions = {},
): Claim<I, O> {
  return claimOf('always', predicate, options, 'always') as Claim<I, O>
}

/**
 * The predicate's rate is not significantly worse than the one stored under `name` in `file`
 * (a regression gate; `update: 'all'` rewrites it). The claim of `toMatchRateBaseline`.
 */
export function matchesBaseline<I = Json, O = Json>(
  predicate: Predicate<I, O>,
  options: BaselineClaimOptions,
): Claim<I, O> {
  return claimOf('baseline', predicate, options, 'matchesBaseline') as Claim<I, O>
}

/**
 * The candidate's rate of the bad outcome `predicate` is no worse than `baseline`'s by more than
 * `margin` (default 0), at `confidence`: `check(newPrompt, noWorseThan(oldPrompt, refundWrongly,
 * { margin: 0.05 }))`. Both agents run on the same seed and are compared rollout by rollout; with
 * `better: 'higher'` the predicate is a success and "worse" means a lower rate. The claim of
 * `toBeNoWorseThan`.
 */
export function noWorseThan<I = Json, O = Json>(
  baseline: AgentOrScenario,
  predicate: Predicate<I, O>,
  options: NoWorseThanOptions = {},
): Claim<I, O> {
  return noWorseThanClaim(baseline, predicate, options, 'noWorseThan') as Claim<I, O>
}

/** The `noWorseThan` claim with its baseline, predicate and options checked; `caller` names the function in messages. */
export function noWorseThanClaim(
  baseline: unknown,
  predicate: unknown,
  options: NoWorseThanOptions,
  caller: string,
): Claim {
  const scenario = toScenario(baseline as AgentOrScenario, `${caller}(baseline)`) as Scenario<
    unknown,
    unknown
  >
  const checked = checkPredicate(caller, predicate)
  checkClaimOptions('noWorseThan', caller, options)
  return { kind: 'noWorseThan', predicate: checked, baseline: scenario, options }
}

/**
 * The mean score is at least `threshold`, at `confidence` (default 95%):
 * `check(agent, scoresAtLeast(helpfulness, 0.8))`. Scores are in [0, 1] unless `range` says
 * otherwise. Decided by an anytime-valid betting test; the claim of `toScoreAtLeast`.
 */
export function scoresAtLeast<I = Json, O = Json>(
  scorer: TrajectoryScorer<I, O>,
  threshold: number,
  options: ScoreOptions = {},
): Claim<I, O> {
  return scoreClaimOf('scoreAtLeast', scorer, threshold, options, 'scoresAtLeast') as Claim<I, O>
}

/** The mean score is at most `threshold` (a toxicity score, a cost). The claim of `toScoreAtMost`. */
export function scoresAtMost<I = Json, O = Json>(
  scorer: TrajectoryScorer<I, O>,
  threshold: number,
  options: ScoreOptions = {},
): Claim<I, O> {
  return scoreClaimOf('scoreAtMost', scorer, threshold, options, 'scoresAtMost') as Claim<I, O>
}

/** A score claim, its scorer, threshold and options checked; `caller` names the builder or matcher. */
export function scoreClaimOf(
  kind: ScoreClaim['kind'],
  scorer: unknown,
  threshold: unknown,
  options: ScoreOptions,
  caller: string,
): Claim {
  if (typeof scorer !== 'function') {
    throw new InvalidOptionError({
      caller,
      option: 'scorer',
      expected: 'a function (trajectory) => number, a score in [0, 1] (or in the declared range)',
      received: describeReceived(scorer),
    })
  }
  resolveScoreGate(kind, caller, threshold, options, {}, 0)
  return { kind, scorer: scorer as TrajectoryScorer, threshold: threshold as number, options }
}

/** The options each kind of claim takes. */
export interface ClaimOptionsMap {
  rarely: RarelyOptions
  usually: UsuallyOptions
  never: ZeroToleranceOptions
  always: ZeroToleranceOptions
  baseline: BaselineClaimOptions
  noWorseThan: NoWorseThanOptions
}

/**
 * A claim of `kind`, its predicate checked; `caller` names the function in messages (a builder, or
 * the matcher that makes the same claim).
 */
export function claimOf<K extends Exclude<RateClaim['kind'], 'noWorseThan'>>(
  kind: K,
  predicate: unknown,
  options: ClaimOptionsMap[K],
  caller: string,
): Claim {
  const site = captureCallSite(claimOf)
  try {
    const checked = checkPredicate(caller, predicate)
    checkClaimOptions(kind, caller, options)
    return { kind, predicate: checked, options } as Claim
  } catch (error) {
    throw pointAtCallSite(error, site)
  }
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
