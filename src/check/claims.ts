// The claims as users make them: a builder per row of the claims table
// (`src/verdict/claim-table.ts`), the gate of each kind of verdict (`gates.ts`), and the parse a
// claim gets when it is made. The matchers (`src/vitest`, `matchers/`) make the same claims from the
// same rows, so a claim on an existing gate is its row plus its builder's export here.
import { z } from 'zod'
import { isAgent, toScenario, type AgentOrScenario } from '../agent/define-agent.js'
import type { Agent, Scenario } from '../agent/types.js'
import type { Json } from '../json.js'
import type { Predicate } from '../trajectory/queries.js'
import type { TrajectoryScorer } from '../trajectory/score-result.js'
import { InvalidOptionError } from '../errors.js'
import { captureCallSite, pointAtCallSite } from '../options/call-site.js'
import { describeReceived } from '../options/received.js'
import {
  ARGUMENT_COUNT,
  CLAIMS,
  type ClaimKind,
  type ClaimKindOfGate,
  type ClaimKindTaking,
  type ClaimOptionTypes,
  type ClaimRow,
  type ClaimTable,
  type GateFamily,
} from '../verdict/claim-table.js'
import type { NoWorseThanOptions, ScoreOptions } from '../verdict/options.js'
import {
  baselineGate,
  comparisonGate,
  scoreGate,
  sequentialGate,
  zeroToleranceGate,
  type ClaimGate,
  type ParsedClaim,
} from './gates.js'

/** The gate of each kind of verdict: it checks a claim's options, resolves them and runs. */
const GATES: { readonly [G in GateFamily]: ClaimGate<Claim & { readonly kind: ClaimKindOfGate<G> }> } = {
  sequential: sequentialGate,
  'zero-tolerance': zeroToleranceGate,
  baseline: baselineGate,
  comparison: comparisonGate,
  score: scoreGate,
}

// Each claim a builder made, parsed by its gate then: a check resolves it without parsing again.
const parsedClaims = new WeakMap<Claim, ParsedClaim>()

/** Parses a claim's options with its gate, and keeps the result for every check of the claim. */
function parseClaim(claim: Claim, caller: string): ParsedClaim {
  const parsed = (GATES[CLAIMS[claim.kind].gate] as ClaimGate<Claim>)(claim, caller)
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
      readonly kind: ClaimKindTaking<'baseline, predicate'>
      readonly predicate: Predicate<I, O>
      /**
       * The agent (or scenario) the candidate is compared with, run on the same seed. An agent runs
       * over the candidate's dataset when the candidate is `agent.over(dataset)`, else on its
       * default input.
       */
      readonly baseline: Scenario<unknown, unknown> | Agent<unknown, unknown>
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
 * The options argument of a builder: optional, unless the claim has an option without a default.
 */
export type OptionsArgument<Options> =
  Record<never, never> extends Options ? [options?: Options] : [options: Options]

/**
 * The call of the builder of a `K` claim: the arguments its row says it takes (`CLAIMS[K].takes`),
 * typed for the predicate's (or scorer's) input `I` and output `O`, then its options.
 */
export type ClaimBuilder<K extends ClaimKind> = ClaimTable[K]['takes'] extends 'predicate'
  ? <I = Json, O = Json>(
      predicate: Predicate<I, O>,
      ...options: OptionsArgument<ClaimOptionTypes[K]['builder']>
    ) => Claim<I, O>
  : ClaimTable[K]['takes'] extends 'baseline, predicate'
    ? <I = Json, O = Json>(
        baseline: AgentOrScenario,
        predicate: Predicate<I, O>,
        ...options: OptionsArgument<ClaimOptionTypes[K]['builder']>
      ) => Claim<I, O>
    : <I = Json, O = Json>(
        scorer: TrajectoryScorer<I, O>,
        threshold: number,
        ...options: OptionsArgument<ClaimOptionTypes[K]['builder']>
      ) => Claim<I, O>

/** The builder of `kind`'s claims, named by its row: what it takes, then its options. */
function claimBuilder<K extends ClaimKind>(kind: K): ClaimBuilder<K> {
  const row: ClaimRow = CLAIMS[kind]
  const count = ARGUMENT_COUNT[row.takes]
  // Options the builder may leave out default to none given; a baseline claim's (its file and
  // key, which its matcher fills in) are required, and their absence is reported as such.
  const omitted = row.matcherOptions === undefined ? {} : undefined
  return ((...args: unknown[]) =>
    claimFromArguments(kind, args.slice(0, count), args[count] ?? omitted, row.builder)) as ClaimBuilder<K>
}

/**
 * The predicate (a bad outcome) holds in at most `atMost` (default 5%) of rollouts, at
 * `confidence` (default 95%): `check(agent, rarely(refundWrongly, { atMost: 0.05 }))`. The claim of
 * `toRarely`.
 */
export const rarely: ClaimBuilder<'rarely'> = claimBuilder('rarely')

/** The predicate (a good outcome) holds in at least `atLeast` (default 95%) of rollouts. The claim of `toUsually`. */
export const usually: ClaimBuilder<'usually'> = claimBuilder('usually')

/**
 * The predicate holds in at least `atLeast` (required) of rollouts: a behaviour that should happen
 * now and then, `check(agent, sometimes(asksForOrderNumber, { atLeast: 0.2 }))`. The dual of
 * {@link rarely}; the claim of `toSometimes`.
 */
export const sometimes: ClaimBuilder<'sometimes'> = claimBuilder('sometimes')

/** The predicate holds in none of `rollouts` (default 100) rollouts. The claim of `toNever`. */
export const never: ClaimBuilder<'never'> = claimBuilder('never')

/** The predicate holds in all of `rollouts` (default 100) rollouts. The claim of `toAlways`. */
export const always: ClaimBuilder<'always'> = claimBuilder('always')

/**
 * The predicate's rate is not significantly worse than the one stored under `name` in `file`
 * (a regression gate; `update: 'all'` rewrites it). The claim of `toMatchRateBaseline`.
 */
export const matchesBaseline: ClaimBuilder<'baseline'> = claimBuilder('baseline')

/**
 * The candidate's rate of the bad outcome `predicate` is no worse than `baseline`'s by more than
 * `margin` (default 0), at `confidence`: `check(newPrompt, noWorseThan(oldPrompt, refundWrongly,
 * { margin: 0.05 }))`. Both agents run on the same seed and are compared rollout by rollout; with
 * `better: 'higher'` the predicate is a success and "worse" means a lower rate. The claim of
 * `toBeNoWorseThan`.
 */
export const noWorseThan: ClaimBuilder<'noWorseThan'> = claimBuilder('noWorseThan')

/**
 * The mean score is at least `threshold`, at `confidence` (default 95%):
 * `check(agent, scoresAtLeast(helpfulness, 0.8))`. Scores are in [0, 1] unless `range` says
 * otherwise. Decided by an anytime-valid betting test; the claim of `toScoreAtLeast`.
 */
export const scoresAtLeast: ClaimBuilder<'scoreAtLeast'> = claimBuilder('scoreAtLeast')

/** The mean score is at most `threshold` (a toxicity score, a cost). The claim of `toScoreAtMost`. */
export const scoresAtMost: ClaimBuilder<'scoreAtMost'> = claimBuilder('scoreAtMost')

/**
 * The claim of `kind` from the arguments its row says it takes (`args`, in order) and its options,
 * each checked; `caller` names the builder, or the matcher that makes the same claim.
 */
export function claimFromArguments(
  kind: ClaimKind,
  args: readonly unknown[],
  options: unknown,
  caller: string,
): Claim {
  const [first, second] = args
  switch (CLAIMS[kind].takes) {
    case 'predicate':
      return claimOf(kind as ClaimKindTaking<'predicate'>, first, options, caller)
    case 'baseline, predicate':
      return comparisonClaimOf(kind as ClaimKindTaking<'baseline, predicate'>, first, second, options, caller)
    case 'scorer, threshold':
      return scoreClaimOf(kind as ClaimKindTaking<'scorer, threshold'>, first, second, options, caller)
  }
}

/** A claim against a baseline agent, its baseline, predicate and options checked; `caller` names the function in messages. */
function comparisonClaimOf(
  kind: ClaimKindTaking<'baseline, predicate'>,
  baseline: unknown,
  predicate: unknown,
  options: unknown,
  caller: string,
): Claim {
  // An agent stays one: over a dataset it runs the candidate's cases, which the check knows.
  const scenario = isAgent(baseline)
    ? baseline
    : (toScenario(baseline as AgentOrScenario, `${caller}(baseline)`) as Scenario<unknown, unknown>)
  const claim: Claim = {
    kind,
    predicate: checkPredicate(caller, predicate),
    baseline: scenario,
    options: options as NoWorseThanOptions,
  }
  parseClaim(claim, caller)
  return claim
}

/** A score claim, its scorer, threshold and options checked; `caller` names the builder or matcher. */
function scoreClaimOf(
  kind: ClaimKindTaking<'scorer, threshold'>,
  scorer: unknown,
  threshold: unknown,
  options: unknown,
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
  const claim: Claim = {
    kind,
    scorer: scorer as TrajectoryScorer,
    threshold: threshold as number,
    options: options as ScoreOptions,
  }
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
  options: ClaimOptionTypes[K]['builder'] | unknown,
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
