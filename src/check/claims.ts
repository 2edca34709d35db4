// Every kind of claim, declared once: the table below, its option types, its gate and its builder.
// The matchers and their types on `expect(…)` (`src/vitest`, `matchers/`), the names in messages,
// the matcher names stored in reports and how `check` resolves and runs a claim are derived from
// them; a new claim is an entry here plus, unless an existing one decides it, its gate (`gates.ts`,
// with its verdict case in `src/verdict/schema.ts`).
import { z } from 'zod'
import { toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import type { Agent, Scenario } from '../agent/types.js'
import type { Json } from '../json.js'
import type { Predicate } from '../trajectory/queries.js'
import type { TrajectoryScorer } from '../trajectory/score-result.js'
import { InvalidOptionError } from '../errors.js'
import { captureCallSite, pointAtCallSite } from '../options/call-site.js'
import { describeReceived } from '../options/received.js'
import type {
  BaselineClaimOptions,
  BaselineOptions,
  NoWorseThanOptions,
  RarelyOptions,
  ScoreOptions,
  UsuallyOptions,
  ZeroToleranceOptions,
} from '../verdict/options.js'
import type { ClaimKind } from '../verdict/schema.js'
import {
  baselineGate,
  comparisonGate,
  scoreGate,
  sequentialGate,
  zeroToleranceGate,
  type ClaimGate,
  type ParsedClaim,
} from './gates.js'

/**
 * What a claim's builder and matcher take besides their options: a predicate; a baseline agent and
 * a predicate; or a scorer and a threshold.
 */
export type ClaimArguments = 'predicate' | 'baseline, predicate' | 'scorer, threshold'

/** One kind of claim: its names and arguments. */
export interface ClaimEntry {
  /** The builder that makes it (`rarely`): it names the claim in `check`'s messages. */
  readonly builder: string
  /** The matcher that makes it on `expect(agent)` (`toRarely`). */
  readonly matcher: string
  readonly takes: ClaimArguments
  /** How `check` shows the builder when it is given something else than a claim: `rarely(pred)`. */
  readonly usage: string
  /**
   * What to write instead of `.not.<matcher>`: a rate claim has three outcomes (pass, fail,
   * inconclusive), so negating it would turn "not enough evidence" into a pass.
   */
  readonly insteadOfNot: string
}

/** The claims, in the order messages list them. */
export const CLAIMS = {
  rarely: {
    builder: 'rarely',
    matcher: 'toRarely',
    takes: 'predicate',
    usage: 'rarely(pred)',
    insteadOfNot:
      'to claim the predicate is common, use toUsually(pred, { atLeast }) with the same predicate',
  },
  usually: {
    builder: 'usually',
    matcher: 'toUsually',
    takes: 'predicate',
    usage: 'usually(pred)',
    insteadOfNot:
      'to claim the predicate is uncommon, use toRarely(pred, { atMost }) with the same predicate',
  },
  never: {
    builder: 'never',
    matcher: 'toNever',
    takes: 'predicate',
    usage: 'never(pred)',
    insteadOfNot:
      'to claim it does happen, use toUsually(pred, { atLeast }) with the smallest rate you expect; to claim it is rare, toRarely(pred, { atMost })',
  },
  always: {
    builder: 'always',
    matcher: 'toAlways',
    takes: 'predicate',
    usage: 'always(pred)',
    insteadOfNot:
      'to claim it sometimes fails, use toUsually((t) => !pred(t), { atLeast }) with the complementary predicate; to claim it is usual, toUsually(pred, { atLeast })',
  },
  baseline: {
    builder: 'matchesBaseline',
    matcher: 'toMatchRateBaseline',
    takes: 'predicate',
    usage: 'matchesBaseline(pred, { file, name })',
    insteadOfNot:
      "a baseline has no negation; to make higher rates the regression, pass { better: 'higher' }",
  },
  noWorseThan: {
    builder: 'noWorseThan',
    matcher: 'toBeNoWorseThan',
    takes: 'baseline, predicate',
    usage: 'noWorseThan(baseline, pred)',
    insteadOfNot:
      'to claim the candidate is worse, swap the agents: expect(baseline).toBeNoWorseThan(candidate, pred, { margin }) claims the baseline is no worse than the candidate',
  },
  scoreAtLeast: {
    builder: 'scoresAtLeast',
    matcher: 'toScoreAtLeast',
    takes: 'scorer, threshold',
    usage: 'scoresAtLeast(scorer, threshold)',
    insteadOfNot: 'to claim the mean score is low, use toScoreAtMost(scorer, threshold) with the same scorer',
  },
  scoreAtMost: {
    builder: 'scoresAtMost',
    matcher: 'toScoreAtMost',
    takes: 'scorer, threshold',
    usage: 'scoresAtMost(scorer, threshold)',
    insteadOfNot:
      'to claim the mean score is high, use toScoreAtLeast(scorer, threshold) with the same scorer',
  },
} as const satisfies { readonly [K in ClaimKind]: ClaimEntry }

/** The options each claim takes: from its builder, and from its matcher. */
export interface ClaimOptionTypes {
  rarely: { builder: RarelyOptions; matcher: RarelyOptions }
  usually: { builder: UsuallyOptions; matcher: UsuallyOptions }
  never: { builder: ZeroToleranceOptions; matcher: ZeroToleranceOptions }
  always: { builder: ZeroToleranceOptions; matcher: ZeroToleranceOptions }
  // The matcher keeps the baseline beside the test file, keyed by the test's name.
  baseline: { builder: BaselineClaimOptions; matcher: BaselineOptions }
  noWorseThan: { builder: NoWorseThanOptions; matcher: NoWorseThanOptions }
  scoreAtLeast: { builder: ScoreOptions; matcher: ScoreOptions }
  scoreAtMost: { builder: ScoreOptions; matcher: ScoreOptions }
}
/** The gate that decides each claim: it checks the claim's options, resolves them and runs. */
export const CLAIM_GATES: { readonly [K in ClaimKind]: ClaimGate<Claim & { readonly kind: K }> } = {
  rarely: sequentialGate,
  usually: sequentialGate,
  never: zeroToleranceGate,
  always: zeroToleranceGate,
  baseline: baselineGate,
  noWorseThan: comparisonGate,
  scoreAtLeast: scoreGate,
  scoreAtMost: scoreGate,
}

// Each claim a builder made, parsed by its gate then: a check resolves it without parsing again.
const parsedClaims = new WeakMap<Claim, ParsedClaim>()

/** Parses a claim's options with its gate, and keeps the result for every check of the claim. */
function parseClaim(claim: Claim, caller: string): ParsedClaim {
  const parsed = (CLAIM_GATES[claim.kind] as ClaimGate<Claim>)(claim, caller)
  parsedClaims.set(claim, parsed)
  return parsed
}

/**
 * The claim as its builder parsed it when it was made (so a typo failed there); a claim no builder
 * made (an object written by hand, or a copy) is parsed on its first check, `caller` naming who
 * checks it.
 */
export function parsedClaimOf(claim: Claim, caller: string): ParsedClaim {
  return parsedClaims.get(claim) ?? parseClaim(claim, caller)
}

// Every claim has its options, and every options entry is a claim.
const _everyClaimTyped: [keyof ClaimOptionTypes, ClaimKind] extends [ClaimKind, keyof ClaimOptionTypes]
  ? true
  : false = true

/** The kinds of claim whose builder and matcher take `arguments`. */
export type ClaimKindTaking<A extends ClaimArguments> = {
  [K in ClaimKind]: (typeof CLAIMS)[K]['takes'] extends A ? K : never
}[ClaimKind]

/** The matcher of each kind of claim: `toRarely`. */
export type MatcherName = (typeof CLAIMS)[ClaimKind]['matcher']

/** The rate matchers, in the registry's order, as reports store them: one per kind of claim. */
export const MatcherNameSchema = z.enum(
  Object.values(CLAIMS).map((entry) => entry.matcher) as [MatcherName, ...MatcherName[]],
)

/** The kind of claim each matcher makes. */
export const CLAIM_OF_MATCHER = Object.fromEntries(
  Object.entries(CLAIMS).map(([kind, entry]) => [entry.matcher, kind]),
) as Record<MatcherName, ClaimKind>

/**
 * A claim about an agent's rate, built by {@link rarely}, {@link usually}, {@link never}, {@link always},
 * {@link matchesBaseline} or {@link noWorseThan} (against a baseline agent); or about its mean score,
 * built by {@link scoresAtLeast} or {@link scoresAtMost}.
 * `I` and `O` are the input and output types its predicate (or scorer) reads (default: any JSON value).
 */
export type Claim<I = Json, O = Json> = RateClaim<I, O> | ScoreClaim<I, O>

/** A claim about the rate of a predicate. */
export type RateClaim<I = Json, O = Json> =
  | {
      [K in ClaimKindTaking<'predicate'>]: {
        readonly kind: K
        readonly predicate: Predicate<I, O>
        readonly options: ClaimOptionTypes[K]['builder']
      }
    }[ClaimKindTaking<'predicate'>]
  | {
      readonly kind: 'noWorseThan'
      readonly predicate: Predicate<I, O>
      /** The agent (or scenario) the candidate is compared with, run on the same seed. */
      readonly baseline: Scenario<unknown, unknown>
      readonly options: NoWorseThanOptions
    }

/** A claim about the mean of a scorer: at least (`scoreAtLeast`) or at most (`scoreAtMost`) `threshold`. */
export interface ScoreClaim<I = Json, O = Json> {
  readonly kind: ClaimKindTaking<'scorer, threshold'>
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
  return claimOf('rarely', predicate, options) as Claim<I, O>
}

/** The predicate (a good outcome) holds in at least `atLeast` (default 95%) of rollouts. The claim of `toUsually`. */
export function usually<I = Json, O = Json>(
  predicate: Predicate<I, O>,
  options: UsuallyOptions = {},
): Claim<I, O> {
  return claimOf('usually', predicate, options) as Claim<I, O>
}

/** The predicate holds in none of `rollouts` (default 100) rollouts. The claim of `toNever`. */
export function never<I = Json, O = Json>(
  predicate: Predicate<I, O>,
  options: ZeroToleranceOptions = {},
): Claim<I, O> {
  return claimOf('never', predicate, options) as Claim<I, O>
}

/** The predicate holds in all of `rollouts` (default 100) rollouts. The claim of `toAlways`. */
export function always<I = Json, O = Json>(
  predicate: Predicate<I, O>,
  options: ZeroToleranceOptions = {},
): Claim<I, O> {
  return claimOf('always', predicate, options) as Claim<I, O>
}

/**
 * The predicate's rate is not significantly worse than the one stored under `name` in `file`
 * (a regression gate; `update: 'all'` rewrites it). The claim of `toMatchRateBaseline`.
 */
export function matchesBaseline<I = Json, O = Json>(
  predicate: Predicate<I, O>,
  options: BaselineClaimOptions,
): Claim<I, O> {
  return claimOf('baseline', predicate, options) as Claim<I, O>
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
  return noWorseThanClaim(baseline, predicate, options, CLAIMS.noWorseThan.builder) as Claim<I, O>
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
  const claim: Claim = {
    kind: 'noWorseThan',
    predicate: checkPredicate(caller, predicate),
    baseline: scenario,
    options,
  }
  parseClaim(claim, caller)
  return claim
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
  return scoreClaimOf('scoreAtLeast', scorer, threshold, options, CLAIMS.scoreAtLeast.builder) as Claim<I, O>
}

/** The mean score is at most `threshold` (a toxicity score, a cost). The claim of `toScoreAtMost`. */
export function scoresAtMost<I = Json, O = Json>(
  scorer: TrajectoryScorer<I, O>,
  threshold: number,
  options: ScoreOptions = {},
): Claim<I, O> {
  return scoreClaimOf('scoreAtMost', scorer, threshold, options, CLAIMS.scoreAtMost.builder) as Claim<I, O>
}

/** A score claim, its scorer, threshold and options checked; `caller` names the builder or matcher. */
export function scoreClaimOf(
  kind: ClaimKindTaking<'scorer, threshold'>,
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
  // The threshold is checked with the options, against the scorer's range.
  const claim: Claim = { kind, scorer: scorer as TrajectoryScorer, threshold: threshold as number, options }
  parseClaim(claim, caller)
  return claim
}

/**
 * A claim of `kind`, its predicate checked; `caller` names the function in messages (a builder, or
 * the matcher that makes the same claim).
 */
export function claimOf<K extends ClaimKindTaking<'predicate'>>(
  kind: K,
  predicate: unknown,
  options: ClaimOptionTypes[K]['builder'],
  caller: string = CLAIMS[kind].builder,
): Claim {
  const site = captureCallSite(claimOf)
  try {
    const claim = { kind, predicate: checkPredicate(caller, predicate), options } as Claim
    parseClaim(claim, caller)
    return claim
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

/** Throws unless `claim` was made by a claim builder (a bare predicate is the likely mistake). */
export function checkClaim(claim: unknown): asserts claim is Claim {
  const { kind, predicate, scorer } = (claim ?? {}) as {
    kind?: unknown
    predicate?: unknown
    scorer?: unknown
  }
  const entry =
    typeof kind === 'string' && Object.hasOwn(CLAIMS, kind) ? CLAIMS[kind as ClaimKind] : undefined
  if (entry !== undefined && typeof (entry.takes === 'scorer, threshold' ? scorer : predicate) === 'function')
    return
  const usages = Object.values(CLAIMS).map((known) => known.usage)
  throw new InvalidOptionError({
    caller: 'check',
    option: 'claim',
    expected: `a claim: ${usages.slice(0, -1).join(', ')} or ${usages.at(-1) as string}`,
    received: describeReceived(claim),
  })
}
