// Every kind of claim, one row each: its names, what it takes, the gate that decides it, the side
// of its bound the predicate (or the score) must stay on, how its message states it and what to
// write instead of `.not`. The kinds (`ClaimKindSchema`), the verdicts' `claim` fields, the builders
// and matchers (`src/check/claims.ts`, `src/vitest`), their option types and the messages' wording
// are read from here; a claim on an existing gate is a row here plus its builder's export.
import type { z } from 'zod'
import { RateField } from '../options/fields.js'
import {
  BaselineClaimOptionsSchema,
  BaselineOptionsSchema,
  NoWorseThanOptionsSchema,
  RarelyOptionsSchema,
  ScoreOptionsSchema,
  UsuallyOptionsSchema,
  ZeroToleranceOptionsSchema,
} from './options.js'

/**
 * What a claim's builder and matcher take besides their options: a predicate; a baseline agent and
 * a predicate; or a scorer and a threshold.
 */
export type ClaimArguments = 'predicate' | 'baseline, predicate' | 'scorer, threshold'

/** How many arguments come before the options, for each thing a claim may take. */
export const ARGUMENT_COUNT: { readonly [A in ClaimArguments]: number } = {
  predicate: 1,
  'baseline, predicate': 2,
  'scorer, threshold': 2,
}

/** The gates that decide claims, one per kind of verdict (the verdict's `gate`). */
export type GateFamily = 'sequential' | 'zero-tolerance' | 'baseline' | 'comparison' | 'score'

/**
 * The gates that decide a claim over a dataset (`agent.over(dataset)`), about the mean rate over
 * its cases (an A/B comparison: the mean difference over them; a stored baseline: the mean and each
 * case against its stored counts). A claim on another gate (a score) is refused over one.
 */
export const DATASET_GATES: readonly GateFamily[] = ['sequential', 'zero-tolerance', 'baseline', 'comparison']

/** One kind of claim. */
export interface ClaimRow {
  /** The builder that makes it (`rarely`): it names the claim in `check`'s messages. */
  readonly builder: string
  /** The matcher that makes it on `expect(agent)` (`toRarely`). */
  readonly matcher: string
  readonly takes: ClaimArguments
  /** How `check` shows the builder when it is given something else than a claim: `rarely(pred)`. */
  readonly usage: string
  /** The options its builder takes (and its matcher, unless `matcherOptions` says otherwise). */
  readonly options: z.ZodType
  /** The options its matcher takes, when they differ from the builder's. */
  readonly matcherOptions?: z.ZodType
  /** The gate that decides it, which is also the `gate` of its verdict. */
  readonly gate: GateFamily
  /**
   * Which side of its bound the predicate's rate (or the mean score) must stay on; for a sequential
   * gate also the option that holds the bound. Null when the claim's `better` option says.
   */
  readonly direction: 'atMost' | 'atLeast' | null
  /**
   * How its message states it after the agent's name: "expected support to *rarely* call
   * issue_refund", "to score helpfulness *at least* 0.8". Null when its message states a comparison.
   */
  readonly phrase: string | null
  /**
   * What to write instead of `.not.<matcher>`: a rate claim has three outcomes (pass, fail,
   * inconclusive), so negating it would turn "not enough evidence" into a pass.
   */
  readonly insteadOfNot: string
}

/**
 * The claims, in the order messages list them. (Each schema is asserted to its own `typeof` so that
 * the emitted declarations name it instead of printing its every field.)
 */
export const CLAIMS = {
  rarely: {
    builder: 'rarely',
    matcher: 'toRarely',
    takes: 'predicate',
    usage: 'rarely(pred)',
    options: RarelyOptionsSchema as typeof RarelyOptionsSchema,
    gate: 'sequential',
    direction: 'atMost',
    phrase: 'rarely',
    insteadOfNot:
      'to claim the predicate is common, use toUsually(pred, { atLeast }) with the same predicate',
  },
  usually: {
    builder: 'usually',
    matcher: 'toUsually',
    takes: 'predicate',
    usage: 'usually(pred)',
    options: UsuallyOptionsSchema as typeof UsuallyOptionsSchema,
    gate: 'sequential',
    direction: 'atLeast',
    phrase: 'usually',
    insteadOfNot:
      'to claim the predicate is uncommon, use toRarely(pred, { atMost }) with the same predicate',
  },
  never: {
    builder: 'never',
    matcher: 'toNever',
    takes: 'predicate',
    usage: 'never(pred)',
    options: ZeroToleranceOptionsSchema as typeof ZeroToleranceOptionsSchema,
    gate: 'zero-tolerance',
    direction: 'atMost',
    phrase: 'never',
    insteadOfNot:
      'to claim it does happen, use toUsually(pred, { atLeast }) with the smallest rate you expect; to claim it is rare, toRarely(pred, { atMost })',
  },
  always: {
    builder: 'always',
    matcher: 'toAlways',
    takes: 'predicate',
    usage: 'always(pred)',
    options: ZeroToleranceOptionsSchema as typeof ZeroToleranceOptionsSchema,
    gate: 'zero-tolerance',
    direction: 'atLeast',
    phrase: 'always',
    insteadOfNot:
      'to claim it sometimes fails, use toUsually((t) => !pred(t), { atLeast }) with the complementary predicate; to claim it is usual, toUsually(pred, { atLeast })',
  },
  baseline: {
    builder: 'matchesBaseline',
    matcher: 'toMatchRateBaseline',
    takes: 'predicate',
    usage: 'matchesBaseline(pred, { file, name })',
    options: BaselineClaimOptionsSchema as typeof BaselineClaimOptionsSchema,
    // The matcher keeps the baseline beside the test file, keyed by the test's name.
    matcherOptions: BaselineOptionsSchema as typeof BaselineOptionsSchema,
    gate: 'baseline',
    direction: null,
    phrase: null,
    insteadOfNot:
      "a baseline has no negation; to make higher rates the regression, pass { better: 'higher' }",
  },
  noWorseThan: {
    builder: 'noWorseThan',
    matcher: 'toBeNoWorseThan',
    takes: 'baseline, predicate',
    usage: 'noWorseThan(baseline, pred)',
    options: NoWorseThanOptionsSchema as typeof NoWorseThanOptionsSchema,
    gate: 'comparison',
    direction: null,
    phrase: null,
    insteadOfNot:
      'to claim the candidate is worse, swap the agents: expect(baseline).toBeNoWorseThan(candidate, pred, { margin }) claims the baseline is no worse than the candidate',
  },
  scoreAtLeast: {
    builder: 'scoresAtLeast',
    matcher: 'toScoreAtLeast',
    takes: 'scorer, threshold',
    usage: 'scoresAtLeast(scorer, threshold)',
    options: ScoreOptionsSchema as typeof ScoreOptionsSchema,
    gate: 'score',
    direction: 'atLeast',
    phrase: 'at least',
    insteadOfNot: 'to claim the mean score is low, use toScoreAtMost(scorer, threshold) with the same scorer',
  },
  scoreAtMost: {
    builder: 'scoresAtMost',
    matcher: 'toScoreAtMost',
    takes: 'scorer, threshold',
    usage: 'scoresAtMost(scorer, threshold)',
    options: ScoreOptionsSchema as typeof ScoreOptionsSchema,
    gate: 'score',
    direction: 'atMost',
    phrase: 'at most',
    insteadOfNot:
      'to claim the mean score is high, use toScoreAtLeast(scorer, threshold) with the same scorer',
  },
  sometimes: {
    builder: 'sometimes',
    matcher: 'toSometimes',
    takes: 'predicate',
    usage: 'sometimes(pred, { atLeast })',
    options: UsuallyOptionsSchema.extend({
      /** The claim: the predicate holds in at least this share of rollouts. Required, in (0, 1). */
      atLeast: RateField,
    }),
    gate: 'sequential',
    direction: 'atLeast',
    phrase: 'sometimes',
    insteadOfNot:
      'to claim the predicate is uncommon, use toRarely(pred, { atMost }) with the same predicate',
  },
} as const satisfies Readonly<Record<string, ClaimRow>>

/** The table's type: each kind's row, as written. */
export type ClaimTable = typeof CLAIMS

/** A kind of claim: a key of the claims table (`rarely`, `scoreAtLeast`, …). */
export type ClaimKind = keyof ClaimTable

/** Every kind of claim, in the table's order. */
export const CLAIM_KINDS = Object.keys(CLAIMS) as [ClaimKind, ...ClaimKind[]]

/** The kinds of claim a gate decides: `ClaimKindOfGate<'sequential'>` is `'rarely' | 'usually'`. */
export type ClaimKindOfGate<G extends GateFamily> = {
  [K in ClaimKind]: ClaimTable[K]['gate'] extends G ? K : never
}[ClaimKind]

/** The kinds of claim `gate` decides, in the table's order (the `claim` enum of its verdict). */
export function claimKindsOf<G extends GateFamily>(gate: G): [ClaimKindOfGate<G>, ...ClaimKindOfGate<G>[]] {
  return CLAIM_KINDS.filter((kind) => CLAIMS[kind].gate === gate) as [
    ClaimKindOfGate<G>,
    ...ClaimKindOfGate<G>[],
  ]
}

/** The kinds of claim whose builder and matcher take `arguments`. */
export type ClaimKindTaking<A extends ClaimArguments> = {
  [K in ClaimKind]: ClaimTable[K]['takes'] extends A ? K : never
}[ClaimKind]

/** The options each claim takes: from its builder, and from its matcher. */
export type ClaimOptionTypes = {
  [K in ClaimKind]: {
    builder: z.input<ClaimTable[K]['options']>
    matcher: z.input<
      ClaimTable[K] extends { matcherOptions: infer M extends z.ZodType } ? M : ClaimTable[K]['options']
    >
  }
}

/** The row of `kind`, with its kind: what a gate reads of the claim it parses. */
export function claimRow<K extends ClaimKind>(kind: K): ClaimTable[K] & { readonly kind: K } {
  return { ...CLAIMS[kind], kind }
}
