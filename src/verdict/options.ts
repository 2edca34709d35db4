import { z } from 'zod'
import {
  DEFAULT_PLACEHOLDER,
  type ContextAblation,
  type ContextAttributionOptions,
} from '../attribute/context/context-options.js'
import { InvalidOptionError } from '../errors.js'
import { DEFAULTS } from '../options/defaults.js'
import {
  BooleanField,
  ConfidenceField,
  expecting,
  functionField,
  NonEmptyPathField,
  NonNegativeIntegerField,
  oneOf,
  PositiveIntegerField,
  RateField,
  SeedField,
  TimeoutMsField,
} from '../options/fields.js'
import { parseOptions, type DescribesSchema } from '../options/parse-options.js'
import { describeReceived } from '../options/received.js'
import { BudgetField, type Budget, type BudgetLimits } from '../rollout/budget.js'
import type { UpdateState } from './baseline-file.js'

/** What attribution runs on a failing rollout; `false` turns it off. */
export interface AttributeOptions {
  /**
   * Default 64. The most rollouts per step arm; arms stop as soon as their sequential test decides
   * (about 80 rollouts in all for a three-step run with a 0.4 rescue), so the cap buys power for
   * weak effects without costing clear ones: at 32 the support agent's locus is found in 98 of 100
   * seeds, at 48 and 64 in all of them, at the same average cost. Also the most rollouts per arm
   * of the context attribution.
   */
  rollouts?: number
  /**
   * Default `'contrastive'`. `'contrastive'` resamples one step at a time and names the causal
   * locus; `'shapley'` splits credit between steps that only cause the failure together; `'both'`
   * runs both (Shapley costs 2ⁿ coalitions up to 10 steps, sampled permutations above).
   */
  method?: 'contrastive' | 'shapley' | 'both'
  /**
   * Default true. After contrastive attribution names a causal locus whose context has two or more
   * parts (an object context's keys; a chat context's messages, system prompt and tool results),
   * take that context apart: which part (refined to a sentence or line) did the locus decide on?
   * By default it may spend what it needs to finish (see `ContextAttributeOptions.maxRollouts`).
   * `false` skips it; an object sets how parts are ablated.
   */
  context?: boolean | ContextAttributeOptions
}

/**
 * How the matchers' context attribution ablates the parts of the locus step's context (the
 * user-facing knobs of `contextAttribution`), and how much it may spend.
 */
export interface ContextAttributeOptions extends Pick<
  ContextAttributionOptions,
  'ablation' | 'placeholder' | 'ablate' | 'parts' | 'refine'
> {
  /**
   * Default: what a complete context attribution could need, `rollouts` × (1 + parts + the probes
   * that narrow its longest part to a sentence, 2·⌈log2 units⌉ + 1), or the contrastive
   * attribution's spend when that is more; so a prompt of a few messages is narrowed to its
   * sentence by default. Sequential arms stop well before their cap, so the spend is far below it.
   * The most rollouts it may spend (from the gate's `budget`, which still caps it); when they run
   * out it reports the work done (`truncated`).
   */
  maxRollouts?: number
}

/** Options every rate matcher takes. */
export interface CommonMatcherOptions {
  /**
   * Default 0.95 (or the plugin's `confidence`). The confidence of the verdict: a wrong pass (or a
   * wrong fail) happens with probability at most 1 − confidence, however early sampling stops.
   */
  confidence?: number
  /**
   * Default: derived from the test file and the test's full name, so the same code gives the same
   * verdict; `CAUSAL_REPLAY_SEED` overrides the derived seed for a whole run. Rollout r draws step j
   * from the stream (seed, r, j).
   */
  seed?: number
  /** Default 8 (or the plugin's `concurrency`). Rollouts in flight at once; also the batch size of sequential gates. */
  concurrency?: number
  /**
   * Default 60 000. A rollout running longer becomes an error outcome (`timeout`). Under a Vitest
   * matcher it is also capped at the time left in the test, so the test reports instead of timing out.
   */
  timeoutMs?: number
  /** Default 100. A rollout taking more steps (or tool calls) becomes an error outcome (`max-steps`). */
  maxSteps?: number
  /**
   * Default: unlimited. Limits (`{ maxRollouts, maxCostUsd }`) or a `Budget` shared with other
   * calls; the gate and its attribution spend from it. When it runs out the gate stops: undecided
   * becomes inconclusive, and attribution reports the work it did.
   */
  budget?: Budget | BudgetLimits
  /**
   * Default `{ rollouts: 64, method: 'contrastive', context: true }`. Attribution of the first
   * failing rollout; `false` skips it.
   */
  attribute?: false | AttributeOptions
  /**
   * Default false. A rollout that throws, times out or loops is an error outcome. By default the
   * first one fails the assertion (with its replay handle): an agent that crashes is not "rarely
   * bad". With `allowErrors: true` errors are counted and shown, and left out of the rate.
   */
  allowErrors?: boolean
  /** Default: words from the predicate's function name (`refundWrongly` → "refund wrongly"). How the message names the predicate. */
  label?: string
  /**
   * Default `[1, 3, 8]`. The k of the pass^k the verdict reports: the chance that k runs in a row
   * all succeed (none bad for `toRarely` and `toNever`, all good for `toUsually` and `toAlways`),
   * τ-bench's reliability metric. `[]` reports none; a k above the completed rollouts is left out.
   */
  passK?: readonly number[]
}

/** Options of the sequential gates `toRarely` and `toUsually`. */
export interface SequentialGateOptions extends CommonMatcherOptions {
  /**
   * Default 400 (or the plugin's `maxRollouts`). The most rollouts the gate may run. The sequential
   * test stops as soon as it decides: an agent that never fails passes a "≤ 5%" gate after 72
   * rollouts, one that fails 60% of the time fails after 8–16; one at 2% passes within 400 about
   * three times in four. Past the maximum an undecided gate is inconclusive.
   */
  maxRollouts?: number
  /** Default 0. Rollouts to run before the test may stop (the test is valid without it; use it for coverage of rare inputs). */
  minRollouts?: number
  /** Default `'fail'`. What an inconclusive verdict (budget spent, interval straddling the bound) does to the test. */
  onInconclusive?: 'fail' | 'pass'
}

/** Options of `toRarely`. */
export interface RarelyOptions extends SequentialGateOptions {
  /** Default 0.05. The claim: the predicate holds in at most this share of rollouts. In (0, 1). */
  atMost?: number
}

/** Options of `toUsually`. */
export interface UsuallyOptions extends SequentialGateOptions {
  /** Default 0.95. The claim: the predicate holds in at least this share of rollouts. In (0, 1). */
  atLeast?: number
}

/** Options of the score gates `toScoreAtLeast` and `toScoreAtMost`. */
/**
 * Options of the score gates. `passK` is not one of them: "k runs in a row succeed" needs a
 * success per run, which a score does not define.
 */
export interface ScoreOptions extends Omit<SequentialGateOptions, 'passK'> {
  /**
   * Default `[0, 1]`. The scores the scorer can return, `[min, max]` with min < max (a 1–5 rubric:
   * `[1, 5]`). The test runs on scores rescaled to [0, 1]; messages print the user's units. A score
   * outside it is an error.
   */
  range?: readonly [number, number]
}

/** Options of `toNever` and `toAlways`. */
export interface ZeroToleranceOptions extends CommonMatcherOptions {
  /**
   * Default 100. Rollouts to run; the first occurrence stops the run and fails. Zero occurrences in
   * N bound the rate by 1 − (1 − confidence)^(1/N): 3.0% for N = 100 at 95% (the rule of three).
   */
  rollouts?: number
}

/** Options of `toMatchRateBaseline`. */
export interface BaselineOptions extends CommonMatcherOptions {
  /** Default: the test's full name, numbered like snapshots ("my test 1"). The entry's key in the baseline file. */
  name?: string
  /**
   * Default 0. How much worse than the baseline the rate may get: the gate passes only when the
   * one-sided bound of new − baseline on the worse side lies within it (or when the stored run is
   * reproduced exactly with its seed). At 0, only a reproduction or a significant improvement passes.
   */
  tolerance?: number
  /** Default 100. Rollouts per measurement (a fixed sample, so baseline and new rate are comparable). */
  rollouts?: number
  /** Default `'lower'`. Which direction is better: `'lower'` for a bad-outcome predicate, `'higher'` for a success predicate. */
  better?: 'lower' | 'higher'
}

/** Options of `toBeNoWorseThan` and the `noWorseThan` claim: a candidate agent against a baseline agent. */
export interface NoWorseThanOptions extends CommonMatcherOptions {
  /**
   * Default 0. How much worse than the baseline agent's rate the candidate's may be: the gate
   * passes when the upper confidence bound of rate(candidate) − rate(baseline), on the bad side, is
   * below it, and fails when the lower bound is above it. At 0 only a shown improvement passes;
   * 0.05 is typical for a prompt change.
   */
  margin?: number
  /** Default `'lower'`. Which direction is better: `'lower'` for a bad-outcome predicate, `'higher'` for a success predicate. */
  better?: 'lower' | 'higher'
  /**
   * Default 400 (or the plugin's `maxRollouts`). The most rollouts of each agent. The comparison
   * stops as soon as its test decides; past the maximum it is inconclusive (a failure).
   */
  maxRollouts?: number
}

/** Options of the baseline claim: the matcher's, plus where the baseline lives and how it may change. */
export interface BaselineClaimOptions extends Omit<BaselineOptions, 'name'> {
  /** The baseline file (created with its folder if missing; entries are kept sorted). */
  file: string
  /** The entry's key in the file. */
  name: string
  /**
   * Default: `'none'` when the `CI` environment variable is set, else `'new'` (as Vitest's snapshot
   * update state). `'new'` records a missing entry, `'none'` fails on one and writes nothing,
   * `'all'` rewrites the entry from the new measurement.
   */
  update?: UpdateState
}

/** Defaults a plugin (or the environment) sets for every matcher in a run. */
export interface MatcherDefaults {
  confidence?: number
  maxRollouts?: number
  concurrency?: number
}

/** Attribution settings with defaults filled in. */
export interface ResolvedAttribute {
  rollouts: number
  method: 'contrastive' | 'shapley' | 'both'
  /** Context attribution of the locus step, or false when it is off. */
  context: ResolvedContextAttribute | false
}

/**
 * {@link ContextAttributeOptions} with defaults filled in; `ablate` and `parts` stay absent unless
 * given, and `maxRollouts` is null for its default (what a complete attribution could need).
 */
export interface ResolvedContextAttribute {
  ablation: ContextAblation
  placeholder: string
  refine: boolean
  maxRollouts: number | null
  ablate?: ContextAttributionOptions['ablate']
  parts?: ContextAttributionOptions['parts']
}

/**
 * When the test that runs a gate times out, and so when the gate must have stopped for its message
 * and files to be written: `at` is that moment (epoch ms, the test's timeout less a margin),
 * `testTimeoutMs` the test's own timeout, which the message names as the option to raise.
 */
export interface Deadline {
  at: number
  testTimeoutMs: number
}

/** Options shared by every gate, resolved. */
export interface ResolvedCommon {
  confidence: number
  seed: number
  concurrency: number
  timeoutMs: number
  maxSteps: number
  budget: Budget
  attribute: ResolvedAttribute | false
  allowErrors: boolean
  label: string | undefined
  /** The k of the pass^k reported, ascending, without repeats. */
  passK: readonly number[]
  /**
   * Default: none. The test's deadline: rollouts are capped at the time left before it, and no
   * batch starts after it, so the gate answers before its test times out.
   */
  deadline?: Deadline | undefined
}

/** A resolved sequential gate (`rarely`, `usually`). */
export interface ResolvedSequentialGate extends ResolvedCommon {
  kind: 'sequential'
  direction: 'atMost' | 'atLeast'
  bound: number
  maxRollouts: number
  minRollouts: number
  onInconclusive: 'fail' | 'pass'
}

/** A resolved score gate (`scoreAtLeast`, `scoreAtMost`). */
export interface ResolvedScoreGate extends ResolvedCommon {
  kind: 'score'
  direction: 'atMost' | 'atLeast'
  /** The threshold in the user's units, strictly inside `range`. */
  threshold: number
  range: readonly [number, number]
  maxRollouts: number
  minRollouts: number
  onInconclusive: 'fail' | 'pass'
}

/** A resolved zero-tolerance gate (`never`, `always`). */
export interface ResolvedZeroTolerance extends ResolvedCommon {
  kind: 'zero-tolerance'
  direction: 'atMost' | 'atLeast'
  rollouts: number
}

/** A resolved baseline gate. */
export interface ResolvedBaseline extends ResolvedCommon {
  kind: 'baseline'
  name: string | undefined
  tolerance: number
  rollouts: number
  better: 'lower' | 'higher'
}

/** A resolved A/B comparison (`noWorseThan`). */
export interface ResolvedComparison extends ResolvedCommon {
  kind: 'comparison'
  margin: number
  better: 'lower' | 'higher'
  maxRollouts: number
}

const ContextAttributeField = expecting(
  z.union([
    BooleanField,
    z.strictObject({
      ablation: oneOf(['remove', 'placeholder']).optional(),
      placeholder: expecting(z.string(), `a string, e.g. "${DEFAULT_PLACEHOLDER}"`).optional(),
      ablate: functionField<NonNullable<ContextAttributionOptions['ablate']>>(
        'a function (context, path) => context with the part removed',
      ).optional(),
      parts: functionField<NonNullable<ContextAttributionOptions['parts']>>(
        'a function (context) => [{ path, label, text }]',
      ).optional(),
      refine: BooleanField.optional(),
      maxRollouts: PositiveIntegerField.optional(),
    }),
  ]),
  'true, false or { ablation?, placeholder?, ablate?, parts?, refine?, maxRollouts? }',
)

const AttributeField = expecting(
  z.union([
    z.literal(false),
    z.strictObject({
      rollouts: PositiveIntegerField.optional(),
      method: oneOf(['contrastive', 'shapley', 'both']).optional(),
      context: ContextAttributeField.optional(),
    }),
  ]),
  'false or { rollouts?, method?, context? }',
)

const NonEmptyStringField = expecting(z.string().trim().min(1), 'a non-empty string')

const commonFields = {
  confidence: ConfidenceField.optional(),
  seed: SeedField.optional(),
  concurrency: PositiveIntegerField.optional(),
  timeoutMs: TimeoutMsField.optional(),
  maxSteps: PositiveIntegerField.optional(),
  budget: BudgetField,
  attribute: AttributeField.optional(),
  allowErrors: BooleanField.optional(),
  label: NonEmptyStringField.optional(),
  passK: expecting(
    z.array(PositiveIntegerField).max(20).readonly(),
    'an array of at most 20 positive integers, e.g. [1, 3, 8]',
  ).optional(),
}

const sequentialFields = {
  ...commonFields,
  maxRollouts: PositiveIntegerField.optional(),
  minRollouts: NonNegativeIntegerField.optional(),
  onInconclusive: oneOf(['fail', 'pass']).optional(),
}

/** The options of `rarely` / `toRarely`. */
export const RarelyOptionsSchema = z.strictObject({ ...sequentialFields, atMost: RateField.optional() })
/** The options of `usually` / `toUsually`. */
export const UsuallyOptionsSchema = z.strictObject({ ...sequentialFields, atLeast: RateField.optional() })
const RangeField = expecting(
  z
    .tuple([z.number().finite(), z.number().finite()])
    .readonly()
    .refine(([min, max]) => min < max),
  'a range [min, max] of finite numbers with min < max, e.g. [0, 1] or [1, 5]',
)

// Every sequential option but `passK`, which a score does not define (see ScoreOptions).
const { passK: _passK, ...scoreFields } = sequentialFields
/** The options of `scoresAtLeast`, `scoresAtMost`, `toScoreAtLeast` and `toScoreAtMost`. */
export const ScoreOptionsSchema = z.strictObject({ ...scoreFields, range: RangeField.optional() })

/** The options of `never`, `always`, `toNever` and `toAlways`. */
export const ZeroToleranceOptionsSchema = z.strictObject({
  ...commonFields,
  rollouts: PositiveIntegerField.optional(),
})

const baselineFields = {
  ...commonFields,
  tolerance: expecting(z.number().min(0).lt(1), 'a rate in [0, 1), e.g. 0.02').optional(),
  rollouts: PositiveIntegerField.optional(),
  better: oneOf(['lower', 'higher']).optional(),
}

/** The options of `toMatchRateBaseline` (the matcher keys and places the baseline itself). */
export const BaselineOptionsSchema = z.strictObject({
  ...baselineFields,
  name: NonEmptyStringField.optional(),
})

/** The options of the `matchesBaseline` claim: the matcher's, with the file, the key and the update mode. */
export const BaselineClaimOptionsSchema = z.strictObject({
  ...baselineFields,
  file: NonEmptyPathField,
  name: NonEmptyStringField,
  update: oneOf(['all', 'new', 'none']).optional(),
})

/** The options of `noWorseThan` / `toBeNoWorseThan`. */
export const NoWorseThanOptionsSchema = z.strictObject({
  ...commonFields,
  margin: expecting(z.number().min(0).lt(1), 'a rate difference in [0, 1), e.g. 0.05').optional(),
  better: oneOf(['lower', 'higher']).optional(),
  maxRollouts: PositiveIntegerField.optional(),
})

/** The defaults a run may set for all its claims (the plugin's options). */
export const MatcherDefaultsSchema = z.strictObject({
  confidence: ConfidenceField.optional(),
  maxRollouts: PositiveIntegerField.optional(),
  concurrency: PositiveIntegerField.optional(),
})

// The documented interfaces above must describe exactly what the schemas parse.
const _rarely: DescribesSchema<RarelyOptions, typeof RarelyOptionsSchema> = true
const _usually: DescribesSchema<UsuallyOptions, typeof UsuallyOptionsSchema> = true
const _score: DescribesSchema<ScoreOptions, typeof ScoreOptionsSchema> = true
const _zeroTolerance: DescribesSchema<ZeroToleranceOptions, typeof ZeroToleranceOptionsSchema> = true
const _baseline: DescribesSchema<BaselineOptions, typeof BaselineOptionsSchema> = true
const _baselineClaim: DescribesSchema<BaselineClaimOptions, typeof BaselineClaimOptionsSchema> = true
const _noWorseThan: DescribesSchema<NoWorseThanOptions, typeof NoWorseThanOptionsSchema> = true
const _defaults: DescribesSchema<MatcherDefaults, typeof MatcherDefaultsSchema> = true

/** Which claim a bound of 0 or 1 should have been: a rate claim cannot be proven at the extremes. */
function extremeBoundHint(option: 'atMost' | 'atLeast', value: unknown): string | undefined {
  if (option === 'atMost' && value === 0) return 'For "never", use never(pred, { rollouts }) / toNever.'
  if (option === 'atLeast' && value === 1) return 'For "always", use always(pred, { rollouts }) / toAlways.'
  return undefined
}

/**
 * Resolves `rarely` / `usually` options (call > run defaults > built-in); `seed` is the already
 * chosen seed. `caller` names the claim or matcher in messages.
 */
export function resolveSequentialGate(
  claim: 'rarely' | 'usually',
  caller: string,
  options: unknown,
  defaults: MatcherDefaults,
  seed: number,
): ResolvedSequentialGate {
  const boundOption = claim === 'rarely' ? 'atMost' : 'atLeast'
  const hint = extremeBoundHint(boundOption, (options as Record<string, unknown> | null)?.[boundOption])
  if (hint !== undefined) {
    throw new InvalidOptionError({
      caller,
      option: boundOption,
      expected: `a rate in (0, 1), e.g. ${DEFAULTS[boundOption]}`,
      received: String((options as Record<string, unknown>)[boundOption]),
      hint,
    })
  }
  const parsed =
    claim === 'rarely'
      ? parseOptions(caller, RarelyOptionsSchema, options)
      : parseOptions(caller, UsuallyOptionsSchema, options)
  const bound =
    (claim === 'rarely'
      ? (parsed as z.output<typeof RarelyOptionsSchema>).atMost
      : (parsed as z.output<typeof UsuallyOptionsSchema>).atLeast) ?? DEFAULTS[boundOption]
  return {
    ...commonOf(parsed, defaults, seed),
    kind: 'sequential',
    direction: claim === 'rarely' ? 'atMost' : 'atLeast',
    bound,
    ...sequentialSamplingOf(parsed, defaults, caller),
  }
}

/**
 * Resolves the options of a score claim and checks its threshold: a finite number strictly inside
 * the scorer's range (at an end the claim would be decided before any rollout, or never).
 */
export function resolveScoreGate(
  claim: 'scoreAtLeast' | 'scoreAtMost',
  caller: string,
  threshold: unknown,
  options: unknown,
  defaults: MatcherDefaults,
  seed: number,
): ResolvedScoreGate {
  const parsed = parseOptions(caller, ScoreOptionsSchema, options)
  const range = parsed.range ?? DEFAULT_SCORE_RANGE
  const [min, max] = range
  if (typeof threshold !== 'number' || !(threshold > min && threshold < max)) {
    throw new InvalidOptionError({
      caller,
      option: 'threshold',
      expected: `a number strictly inside the scorer's range [${min}, ${max}], e.g. ${min + 0.8 * (max - min)}`,
      received: describeReceived(threshold),
      ...(typeof threshold === 'number' && threshold > 1 && parsed.range === undefined
        ? { hint: 'For scores on another scale, declare it: { range: [min, max] }.' }
        : {}),
    })
  }
  return {
    ...commonOf(parsed, defaults, seed),
    kind: 'score',
    direction: claim === 'scoreAtMost' ? 'atMost' : 'atLeast',
    threshold,
    range: [min, max],
    ...sequentialSamplingOf(parsed, defaults, caller),
  }
}

/**
 * How a gate that samples until its test answers samples (the rate and score gates): its rollout
 * limits with their defaults, checked against each other, and what an inconclusive verdict does.
 */
function sequentialSamplingOf(
  parsed: {
    maxRollouts?: number | undefined
    minRollouts?: number | undefined
    onInconclusive?: 'fail' | 'pass' | undefined
  },
  defaults: MatcherDefaults,
  caller: string,
): { maxRollouts: number; minRollouts: number; onInconclusive: 'fail' | 'pass' } {
  const maxRollouts = parsed.maxRollouts ?? defaults.maxRollouts ?? DEFAULTS.maxRollouts
  const minRollouts = parsed.minRollouts ?? DEFAULTS.minRollouts
  if (minRollouts > maxRollouts) {
    throw new InvalidOptionError({
      caller,
      option: 'minRollouts',
      expected: `at most maxRollouts (${maxRollouts})`,
      received: String(minRollouts),
    })
  }
  return { maxRollouts, minRollouts, onInconclusive: parsed.onInconclusive ?? DEFAULTS.onInconclusive }
}

/** The range a scorer's scores are in unless the claim declares one. */
export const DEFAULT_SCORE_RANGE: readonly [number, number] = [0, 1]

/** Resolves `never` / `always` options. */
export function resolveZeroTolerance(
  claim: 'never' | 'always',
  caller: string,
  options: unknown,
  defaults: MatcherDefaults,
  seed: number,
): ResolvedZeroTolerance {
  const parsed = parseOptions(caller, ZeroToleranceOptionsSchema, options)
  return {
    ...commonOf(parsed, defaults, seed),
    kind: 'zero-tolerance',
    direction: claim === 'never' ? 'atMost' : 'atLeast',
    rollouts: parsed.rollouts ?? DEFAULTS.zeroToleranceRollouts,
  }
}

/** Resolves the baseline options of a matcher (`BaselineOptions`); the claim's file, key and update mode are its own. */
export function resolveBaseline(
  caller: string,
  options: unknown,
  defaults: MatcherDefaults,
  seed: number,
): ResolvedBaseline {
  const parsed = parseOptions(caller, BaselineOptionsSchema, options)
  return {
    ...commonOf(parsed, defaults, seed),
    kind: 'baseline',
    name: parsed.name,
    tolerance: parsed.tolerance ?? DEFAULTS.tolerance,
    rollouts: parsed.rollouts ?? DEFAULTS.baselineRollouts,
    better: parsed.better ?? DEFAULTS.better,
  }
}

/** Resolves the options of an A/B comparison (`noWorseThan`, `toBeNoWorseThan`). */
export function resolveComparison(
  caller: string,
  options: unknown,
  defaults: MatcherDefaults,
  seed: number,
): ResolvedComparison {
  const parsed = parseOptions(caller, NoWorseThanOptionsSchema, options)
  return {
    ...commonOf(parsed, defaults, seed),
    kind: 'comparison',
    margin: parsed.margin ?? DEFAULTS.margin,
    better: parsed.better ?? DEFAULTS.better,
    maxRollouts: parsed.maxRollouts ?? defaults.maxRollouts ?? DEFAULTS.maxRollouts,
  }
}

/** Checks the options of a `matchesBaseline` claim, naming any it cannot use. */
export function checkBaselineClaimOptions(caller: string, options: unknown): void {
  parseOptions(caller, BaselineClaimOptionsSchema, options)
}

/**
 * Checks a claim's options when the claim is made, so a typo fails where it was written; the
 * defaults are filled in later, when the claim is checked with its run's defaults and seed.
 */
export function checkClaimOptions(
  claim: 'rarely' | 'usually' | 'never' | 'always' | 'baseline' | 'noWorseThan',
  caller: string,
  options: unknown,
): void {
  // Score claims are checked with their threshold, by `resolveScoreGate`.
  switch (claim) {
    case 'rarely':
    case 'usually':
      resolveSequentialGate(claim, caller, options, {}, 0)
      return
    case 'never':
    case 'always':
      resolveZeroTolerance(claim, caller, options, {}, 0)
      return
    case 'baseline':
      checkBaselineClaimOptions(caller, options)
      return
    case 'noWorseThan':
      resolveComparison(caller, options, {}, 0)
  }
}

type ParsedCommon = z.output<z.ZodObject<typeof commonFields>>

function commonOf(parsed: ParsedCommon, defaults: MatcherDefaults, seed: number): ResolvedCommon {
  const attribute = parsed.attribute
  return {
    confidence: parsed.confidence ?? defaults.confidence ?? DEFAULTS.confidence,
    seed,
    concurrency: parsed.concurrency ?? defaults.concurrency ?? DEFAULTS.concurrency,
    timeoutMs: parsed.timeoutMs ?? DEFAULTS.timeoutMs,
    maxSteps: parsed.maxSteps ?? DEFAULTS.maxSteps,
    budget: parsed.budget,
    attribute:
      attribute === false
        ? false
        : {
            rollouts: attribute?.rollouts ?? DEFAULTS.attributeRollouts,
            method: attribute?.method ?? DEFAULTS.attributeMethod,
            context: resolveContextAttribute(attribute?.context ?? DEFAULTS.attributeContext),
          },
    allowErrors: parsed.allowErrors ?? DEFAULTS.allowErrors,
    label: parsed.label,
    passK: [...new Set(parsed.passK ?? DEFAULTS.passK)].sort((a, b) => a - b),
  }
}

/** The `attribute.context` option with its defaults: `true` is every default, `false` is off. */
function resolveContextAttribute(
  option: boolean | z.output<typeof ContextAttributeField>,
): ResolvedContextAttribute | false {
  if (option === false) return false
  const given = option === true ? {} : option
  return {
    ablation: given.ablation ?? DEFAULTS.contextAblation,
    placeholder: given.placeholder ?? DEFAULT_PLACEHOLDER,
    refine: given.refine ?? DEFAULTS.contextRefine,
    maxRollouts: given.maxRollouts ?? null,
    ...(given.ablate === undefined ? {} : { ablate: given.ablate }),
    ...(given.parts === undefined ? {} : { parts: given.parts }),
  }
}
