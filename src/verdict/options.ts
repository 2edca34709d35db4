import { z } from 'zod'
import { armStopFields } from '../attribute/arms/arm-options.js'
import { contextAblationFields } from '../attribute/context/context-options.js'
import { InvalidOptionError } from '../errors.js'
import { DEFAULTS } from '../options/defaults.js'
import {
  BooleanField,
  expecting,
  NonEmptyPathField,
  NonNegativeIntegerField,
  oneOf,
  PositiveIntegerField,
  RateField,
  SeedField,
} from '../options/fields.js'
import { parseOptions, type StrictOptions } from '../options/parse-options.js'
import { layered, runDefaultFields, type RunDefaultFields } from '../options/run-defaults.js'
import { rolloutLimitFields } from '../options/run-fields.js'
import { describeReceived } from '../options/received.js'
import { BudgetInputField, toBudget } from '../rollout/budget.js'
import { createExecution, modelConcurrencyField, type Deadline, type Execution } from '../rollout/options.js'
import type { ModelRateLimit } from '../rollout/rate-limit.js'

/** The most the matchers' context attribution may spend, and how it ablates (see `contextAttribution`). */
const contextAttributeOwnFields = {
  /**
   * Default: what a complete context attribution could need, `rollouts` × (1 + parts + the probes
   * that narrow its longest part to a sentence, 2·⌈log2 units⌉ + 1), or the contrastive
   * attribution's spend when that is more; so a prompt of a few messages is narrowed to its
   * sentence by default. Sequential arms stop well before their cap, so the spend is far below it.
   * The most rollouts it may spend (from the gate's `budget`, which still caps it); when they run
   * out it reports the work done (`truncated`).
   */
  maxRollouts: PositiveIntegerField.optional(),
}
// Annotated with the fragments' types so that their doc comments reach the emitted `.d.ts` (a
// printed shape keeps only this file's); likewise every shape below built from fragments.
const contextAttributeFields: typeof contextAblationFields & typeof contextAttributeOwnFields = {
  ...contextAblationFields,
  ...contextAttributeOwnFields,
}
const ContextAttributeSchema: StrictOptions<typeof contextAttributeFields> =
  z.strictObject(contextAttributeFields)

/**
 * How the matchers' context attribution ablates the parts of the locus step's context (the
 * user-facing knobs of `contextAttribution`), and how much it may spend.
 */
export type ContextAttributeOptions = z.input<typeof ContextAttributeSchema>

/** Every context attribution default: what `attribute.context: true` means. */
const CONTEXT_ATTRIBUTE_DEFAULTS = ContextAttributeSchema.parse({})

const ContextAttributeField = expecting(
  z.union([BooleanField, ContextAttributeSchema]),
  'true, false or { ablation?, placeholder?, ablate?, parts?, refine?, maxRollouts? }',
)
  .prefault(DEFAULTS.attributeContext)
  .transform((context) => (context === true ? CONTEXT_ATTRIBUTE_DEFAULTS : context))

const attributeFields = {
  /**
   * Default 64. The most rollouts per step arm; arms stop as soon as their sequential test decides
   * (about 80 rollouts in all for a three-step run with a 0.4 rescue), so the cap buys power for
   * weak effects without costing clear ones: at 32 the support agent's locus is found in 98 of 100
   * seeds, at 48 and 64 in all of them, at the same average cost. Also the most rollouts per arm
   * of the context attribution.
   */
  rollouts: PositiveIntegerField.default(DEFAULTS.attributeRollouts),
  /**
   * Default `'contrastive'`. `'contrastive'` resamples one step at a time and names the causal
   * locus; `'shapley'` splits credit between steps that only cause the failure together; `'both'`
   * runs both (Shapley costs 2ⁿ coalitions up to 10 steps, sampled permutations above).
   */
  method: oneOf(['contrastive', 'shapley', 'both']).default(DEFAULTS.attributeMethod),
  /**
   * Default true. After contrastive attribution names a causal locus whose context has two or more
   * parts (an object context's keys; a chat context's messages, system prompt and tool results),
   * take that context apart: which part (refined to a sentence or line) did the locus decide on?
   * By default it may spend what it needs to finish (see `ContextAttributeOptions.maxRollouts`).
   * `false` skips it; an object sets how parts are ablated.
   */
  context: ContextAttributeField,
  /**
   * Default 0. Rounds of `concurrency` replays run ahead of each look of the sequential arms, so
   * slots a look's slowest replays leave free are not idle. The result is the same; the time is
   * shorter and the bill larger, since what ran ahead for an arm that then stops is cut off and
   * paid for. Measured at concurrency 8 on heavy-tailed latency, 2 rounds took a failing claim
   * from 4.1–4.9× the work-conserving wall time to 2.6–3.1×, starting 50–60% more replays.
   */
  runAhead: armStopFields.runAhead,
}
const AttributeSchema: StrictOptions<typeof attributeFields> = z.strictObject(attributeFields)

/** What attribution runs on a failing rollout; `false` turns it off. */
export type AttributeOptions = z.input<typeof AttributeSchema>

/**
 * {@link ContextAttributeOptions} with defaults filled in; `ablate`, `parts` and `maxRollouts` stay
 * absent unless given (`maxRollouts`' default depends on the run: see the option).
 */
export type ResolvedContextAttribute = Exclude<z.output<typeof AttributeSchema>['context'], false>

const AttributeField = expecting(
  z.union([z.literal(false), AttributeSchema]),
  'false or { rollouts?, method?, context? }',
).prefault({})

const NonEmptyStringField = expecting(z.string().trim().min(1), 'a non-empty string')

/** The run's `maxRollouts` default, for the gates that sample until their test decides. */
const maxRolloutsField: Pick<RunDefaultFields, 'maxRollouts'> = { maxRollouts: runDefaultFields.maxRollouts }

const seedField = {
  /**
   * Default: derived from the test file and the test's full name, so the same code gives the same
   * verdict; `CAUSAL_REPLAY_SEED` overrides the derived seed for a whole run. Rollout r draws step j
   * from the stream (seed, r, j).
   */
  seed: SeedField.optional(),
}

const budgetField = {
  /**
   * Default: unlimited. Limits (`{ maxRollouts, maxCostUsd }`) or a `Budget` shared with other
   * calls; the gate and its attribution spend from it. When it runs out the gate stops: undecided
   * becomes inconclusive, and attribution reports the work it did.
   */
  // Kept as given: a claim is parsed once, when it is made, and each check of it makes its own
  // `Budget` from limits (see `withRun`), so two checks of one claim share no spending.
  budget: BudgetInputField,
}

/**
 * The options a run completes when a claim is checked in it: the run's defaults, the seed, and
 * what goes into the execution context.
 */
type RunFields = Pick<RunDefaultFields, 'confidence' | 'concurrency'> &
  typeof seedField &
  typeof rolloutLimitFields &
  typeof budgetField
const runFields: RunFields = {
  confidence: runDefaultFields.confidence,
  ...seedField,
  concurrency: runDefaultFields.concurrency,
  ...rolloutLimitFields,
  ...budgetField,
}

const commonTailFields = {
  /**
   * Default `{ rollouts: 64, method: 'contrastive', context: true }`. Attribution of the first
   * failing rollout; `false` skips it.
   */
  attribute: AttributeField,
  /**
   * Default false. A rollout that throws, times out or loops is an error outcome. By default the
   * first one fails the assertion (with its replay handle): an agent that crashes is not "rarely
   * bad". With `allowErrors: true` errors are counted and shown, and left out of the rate.
   */
  allowErrors: BooleanField.default(DEFAULTS.allowErrors),
  /** Default: words from the predicate's function name (`refundWrongly` → "refund wrongly"). How the message names the predicate. */
  label: NonEmptyStringField.optional(),
  /**
   * Default `[1, 3, 8]`. The k of the pass^k the verdict reports: the chance that k runs in a row
   * all succeed (none bad for `toRarely` and `toNever`, all good for `toUsually` and `toAlways`),
   * τ-bench's reliability metric. `[]` reports none; a k above the completed rollouts is left out.
   */
  passK: expecting(
    z.array(PositiveIntegerField).max(20).readonly(),
    'an array of at most 20 positive integers, e.g. [1, 3, 8]',
  )
    .prefault(DEFAULTS.passK)
    // Ascending, without repeats.
    .transform((ks): readonly number[] => [...new Set(ks)].sort((a, b) => a - b)),
}

type CommonFields = RunFields & typeof commonTailFields
const commonFields: CommonFields = { ...runFields, ...commonTailFields }

/** Options every rate matcher takes. */
export type CommonMatcherOptions = z.input<StrictOptions<CommonFields>>

const perField = {
  /**
   * Default `'dataset'`. Over a dataset (`agent.over(dataset)`), what the claim is about: `'dataset'`
   * the mean rate over its cases; `'case'` every case on its own, with the chance of wrongly passing
   * or wrongly naming a case kept at 1 − confidence across all of them (Holm). A failure names the
   * cases shown to violate the claim. Refused on a claim about one input.
   */
  per: oneOf(['dataset', 'case']).default(DEFAULTS.per),
}

const runsPerCaseField = {
  /**
   * Default: none (the test decides as soon as it can). Over a dataset, run every case exactly this
   * many times (K rounds, whatever `minRollouts` and `maxRollouts` say) and decide on those runs.
   * Required when the cases are split across machines (`CAUSAL_REPLAY_SHARD`): each machine runs its
   * cases K times and `--merge-reports` decides on every case's K runs. Refused on a claim about one
   * input and with `per: 'case'`.
   */
  runsPerCase: PositiveIntegerField.optional(),
}

const sequentialOwnFields = {
  ...maxRolloutsField,
  ...perField,
  ...runsPerCaseField,
  /** Default 0. Rollouts to run before the test may stop (the test is valid without it; use it for coverage of rare inputs). */
  minRollouts: NonNegativeIntegerField.default(DEFAULTS.minRollouts),
  /** Default `'fail'`. What an inconclusive verdict (budget spent, interval straddling the bound) does to the test. */
  onInconclusive: oneOf(['fail', 'pass']).default(DEFAULTS.onInconclusive),
}
type SequentialFields = CommonFields & typeof maxRolloutsField & typeof sequentialOwnFields
const sequentialFields: SequentialFields = { ...commonFields, ...sequentialOwnFields }

/** Options of the sequential gates `toRarely` and `toUsually`. */
export type SequentialGateOptions = z.input<StrictOptions<SequentialFields>>

const rarelyOwnFields = {
  /** Default 0.05. The claim: the predicate holds in at most this share of rollouts. In (0, 1). */
  atMost: RateField.default(DEFAULTS.atMost),
}
const rarelyFields: SequentialFields & typeof rarelyOwnFields = { ...sequentialFields, ...rarelyOwnFields }
/** The options of `rarely` / `toRarely`. */
export const RarelyOptionsSchema: StrictOptions<typeof rarelyFields> = z.strictObject(rarelyFields)
/** Options of `toRarely`. */
export type RarelyOptions = z.input<typeof RarelyOptionsSchema>

const usuallyOwnFields = {
  /** Default 0.95. The claim: the predicate holds in at least this share of rollouts. In (0, 1). */
  atLeast: RateField.default(DEFAULTS.atLeast),
}
const usuallyFields: SequentialFields & typeof usuallyOwnFields = { ...sequentialFields, ...usuallyOwnFields }
/** The options of `usually` / `toUsually`. */
export const UsuallyOptionsSchema: StrictOptions<typeof usuallyFields> = z.strictObject(usuallyFields)
/** Options of `toUsually`. */
export type UsuallyOptions = z.input<typeof UsuallyOptionsSchema>

const RangeField = expecting(
  z
    .tuple([z.number().finite(), z.number().finite()])
    .readonly()
    .refine(([min, max]) => min < max),
  'a range [min, max] of finite numbers with min < max, e.g. [0, 1] or [1, 5]',
)

// Every sequential option but `passK`: "k runs in a row succeed" needs a success per run, which a
// score does not define.
// Nor `per` and `runsPerCase`: a score claim over a dataset is refused.
const { passK: _passK, per: _per, runsPerCase: _runsPerCase, ...scoreSequentialFields } = sequentialFields
const scoreOwnFields = {
  /**
   * Default `[0, 1]`. The scores the scorer can return, `[min, max]` with min < max (a 1–5 rubric:
   * `[1, 5]`). The test runs on scores rescaled to [0, 1]; messages print the user's units. A score
   * outside it is an error.
   */
  range: RangeField.optional(),
}
const scoreFields: Omit<SequentialFields, 'passK' | 'per' | 'runsPerCase'> & typeof scoreOwnFields = {
  ...scoreSequentialFields,
  ...scoreOwnFields,
}
/** The options of `scoresAtLeast`, `scoresAtMost`, `toScoreAtLeast` and `toScoreAtMost`. */
export const ScoreOptionsSchema: StrictOptions<typeof scoreFields> = z.strictObject(scoreFields)
/** Options of the score gates `toScoreAtLeast` and `toScoreAtMost` (every sequential gate option but `passK`). */
export type ScoreOptions = z.input<typeof ScoreOptionsSchema>

const zeroToleranceOwnFields = {
  /**
   * Default 100. Rollouts to run; the first occurrence stops the run and fails. Zero occurrences in
   * N bound the rate by 1 − (1 − confidence)^(1/N): 3.0% for N = 100 at 95% (the rule of three).
   */
  rollouts: PositiveIntegerField.default(DEFAULTS.zeroToleranceRollouts),
  ...perField,
}
const zeroToleranceFields: CommonFields & typeof zeroToleranceOwnFields = {
  ...commonFields,
  ...zeroToleranceOwnFields,
}
/** The options of `never`, `always`, `toNever` and `toAlways`. */
export const ZeroToleranceOptionsSchema: StrictOptions<typeof zeroToleranceFields> =
  z.strictObject(zeroToleranceFields)
/** Options of `toNever` and `toAlways`. */
export type ZeroToleranceOptions = z.input<typeof ZeroToleranceOptionsSchema>

const betterField = {
  /** Default `'lower'`. Which direction is better: `'lower'` for a bad-outcome predicate, `'higher'` for a success predicate. */
  better: oneOf(['lower', 'higher']).default(DEFAULTS.better),
}

const baselineOwnFields = {
  /**
   * Default 0. How much worse than the baseline the rate may get: the gate passes only when the
   * one-sided bound of new − baseline on the worse side lies within it (or when the stored run is
   * reproduced exactly with its seed). At 0, only a reproduction or a significant improvement passes.
   */
  tolerance: expecting(z.number().min(0).lt(1), 'a rate in [0, 1), e.g. 0.02').default(DEFAULTS.tolerance),
  /** Default 100. Rollouts per measurement (a fixed sample, so baseline and new rate are comparable). */
  rollouts: PositiveIntegerField.default(DEFAULTS.baselineRollouts),
  ...betterField,
}
type BaselineFields = CommonFields & typeof baselineOwnFields
const baselineFields: BaselineFields = { ...commonFields, ...baselineOwnFields }

const baselineNameField = {
  /** Default: the test's full name, numbered like snapshots ("my test 1"). The entry's key in the baseline file. */
  name: NonEmptyStringField.optional(),
}
const baselineMatcherFields: BaselineFields & typeof baselineNameField = {
  ...baselineFields,
  ...baselineNameField,
}
/** The options of `toMatchRateBaseline` (the matcher keys and places the baseline itself). */
export const BaselineOptionsSchema: StrictOptions<typeof baselineMatcherFields> =
  z.strictObject(baselineMatcherFields)
/** Options of `toMatchRateBaseline`. */
export type BaselineOptions = z.input<typeof BaselineOptionsSchema>

const baselineClaimOwnFields = {
  /** The baseline file (created with its folder if missing; entries are kept sorted). */
  file: NonEmptyPathField,
  /** The entry's key in the file. */
  name: NonEmptyStringField,
  /**
   * Default: `'none'` when the `CI` environment variable is set, else `'new'` (as Vitest's snapshot
   * update state). `'new'` records a missing entry, `'none'` fails on one and writes nothing,
   * `'all'` rewrites the entry from the new measurement.
   */
  update: oneOf(['all', 'new', 'none']).optional(),
}
const baselineClaimFields: BaselineFields & typeof baselineClaimOwnFields = {
  ...baselineFields,
  ...baselineClaimOwnFields,
}
/** The options of the `matchesBaseline` claim: the matcher's, with the file, the key and the update mode. */
export const BaselineClaimOptionsSchema: StrictOptions<typeof baselineClaimFields> =
  z.strictObject(baselineClaimFields)
/** Options of the baseline claim: the matcher's, plus where the baseline lives and how it may change. */
export type BaselineClaimOptions = z.input<typeof BaselineClaimOptionsSchema>

const noWorseThanOwnFields = {
  /**
   * Default 0. How much worse than the baseline agent's rate the candidate's may be: the gate
   * passes when the upper confidence bound of rate(candidate) − rate(baseline), on the bad side, is
   * below it, and fails when the lower bound is above it. At 0 only a shown improvement passes;
   * 0.05 is typical for a prompt change.
   */
  margin: expecting(z.number().min(0).lt(1), 'a rate difference in [0, 1), e.g. 0.05').default(
    DEFAULTS.margin,
  ),
  ...betterField,
  ...maxRolloutsField,
}
const noWorseThanFields: CommonFields & typeof noWorseThanOwnFields & typeof maxRolloutsField = {
  ...commonFields,
  ...noWorseThanOwnFields,
}
/** The options of `noWorseThan` / `toBeNoWorseThan`. */
export const NoWorseThanOptionsSchema: StrictOptions<typeof noWorseThanFields> =
  z.strictObject(noWorseThanFields)
/** Options of `toBeNoWorseThan` and the `noWorseThan` claim: a candidate agent against a baseline agent. */
export type NoWorseThanOptions = z.input<typeof NoWorseThanOptionsSchema>

/** The plugin's options: the run defaults, and the process-wide cap on calls to one model. */
const matcherDefaultsFields: RunDefaultFields & typeof modelConcurrencyField = {
  ...runDefaultFields,
  ...modelConcurrencyField,
}
/** The defaults a run may set for all its claims (the plugin's options). */
export const MatcherDefaultsSchema: StrictOptions<typeof matcherDefaultsFields> =
  z.strictObject(matcherDefaultsFields)
/** Defaults a plugin (or the environment) sets for every matcher in a run. */
export type MatcherDefaults = z.input<typeof MatcherDefaultsSchema>

/** Options shared by every gate as the schemas parse them, before the run's defaults and seed. */
type ParsedCommon = z.output<StrictOptions<CommonFields>>

/** The parsed options a run completes (see `RunFields`). */
type RunKeys = keyof RunFields

/** Options shared by every gate, resolved: the run's defaults filled in, the seed chosen. */
export type ResolvedCommon = Omit<ParsedCommon, RunKeys> & {
  confidence: number
  seed: number
  /**
   * How the gate's and its attribution's rollouts run, made for this check: a budget account of
   * its own (the limits are the claim's budget's, the spending counted there this check's alone,
   * and the run's rate limit on it), the concurrency, the rollout limits, the test's signal and
   * deadline.
   */
  execution: Execution
}

/** What the run a claim is checked in adds to the claim's options. */
export interface ClaimRun {
  /**
   * Defaults for every claim of the run (the plugin's `confidence`, `maxRollouts`, `concurrency`),
   * and its `modelConcurrency`.
   */
  defaults: MatcherDefaults
  /** Default: none. The test's signal: aborting it stops the gate and its attribution. */
  signal?: AbortSignal | undefined
  /**
   * Default: none. When the surrounding test times out, less a margin for the message and files:
   * rollouts are capped at the time left before it, and no batch starts after it, so the gate and
   * its attribution answer instead of being killed with the test.
   */
  deadline?: Deadline | undefined
  /**
   * Default: none. The rate limit live model calls wait for: the plugin's run-wide one, or the
   * process-wide one of `check`'s `rateLimit`.
   */
  rateLimit?: ModelRateLimit | undefined
  /**
   * Default false. The sampling gates' rollouts start in lockstep batches of `concurrency` (see
   * `Execution.lockstep`): only `bench/wall-time.ts` sets it.
   * @internal
   */
  lockstep?: boolean | undefined
}

/**
 * A claim's options as its schema parsed them when the claim was made, waiting for a run: `forRun`
 * fills in the run's defaults and the chosen seed and makes the check's execution context.
 */
export interface ParsedGate<Resolved, Run extends ClaimRun = ClaimRun> {
  /** The claim's own seed, if it sets one (otherwise the run chooses it). */
  seed: number | undefined
  /** The claim's own label, if it sets one. */
  label: string | undefined
  /** The options for one check in `run`, under `seed`. */
  forRun(run: Run, seed: number): Resolved
}

/** A gate's parsed options resolved for a run (see `withRun`), with `Own` in place of the fields of the same names. */
type Resolved<Parsed, Own> = Omit<Parsed, RunKeys | keyof Own> & ResolvedCommon & Own

/** Which side of its bound (or threshold) a gate's claim puts the predicate's rate (or the mean score). */
type Direction = { direction: 'atMost' | 'atLeast' }

/**
 * What a gate reads of its claim's row in the claims table (`src/verdict/claim-table.ts`): the kind
 * its verdict records, and which side of its bound the rate (or the mean score) must stay on.
 */
export interface ClaimOfGate<K extends string> {
  readonly kind: K
  readonly direction: 'atMost' | 'atLeast'
}

/** What the sequential gate reads of its claim's row: also the options, whose `direction` field is the bound. */
export interface SequentialClaimOfGate<K extends string> extends ClaimOfGate<K> {
  readonly options: z.ZodType<
    z.output<StrictOptions<SequentialFields>> & { atMost?: number | undefined; atLeast?: number | undefined }
  >
}

/** The claim a resolved gate decides: its kind, which its verdict records, and its direction. */
type ClaimAndDirection<K extends string> = Direction & { claim: K }

/** A resolved sequential gate (`rarely`, `usually`). */
export type ResolvedSequentialGate<K extends string = string> = Resolved<
  z.output<StrictOptions<SequentialFields>>,
  ClaimAndDirection<K> & { bound: number; maxRollouts: number }
>

/** A resolved score gate (`scoreAtLeast`, `scoreAtMost`). */
export type ResolvedScoreGate<K extends string = string> = Resolved<
  z.output<typeof ScoreOptionsSchema>,
  ClaimAndDirection<K> & {
    /** The threshold in the user's units, strictly inside `range`. */
    threshold: number
    range: readonly [number, number]
    maxRollouts: number
  }
>

/** A resolved zero-tolerance gate (`never`, `always`). */
export type ResolvedZeroTolerance<K extends string = string> = Resolved<
  z.output<typeof ZeroToleranceOptionsSchema>,
  ClaimAndDirection<K>
>

/** A resolved baseline gate. */
export type ResolvedBaseline = Resolved<z.output<StrictOptions<BaselineFields>>, { name: string | undefined }>

/** A resolved A/B comparison (`noWorseThan`). */
export type ResolvedComparison = Resolved<z.output<typeof NoWorseThanOptionsSchema>, { maxRollouts: number }>

/**
 * Parses the options of a sequential claim (`rarely`, `usually`) with its row's schema, for runs to
 * resolve (call > run defaults > built-in). `caller` names the claim or matcher in messages.
 */
export function parseSequentialGate<K extends string>(
  claim: SequentialClaimOfGate<K>,
  caller: string,
  options: unknown,
): ParsedGate<ResolvedSequentialGate<K>> {
  const boundOption = claim.direction
  const given = (options as Record<string, unknown> | null)?.[boundOption]
  // A rate claim cannot be proven at the extremes: a bound of 0 or 1 is the claim never or always.
  if (given === (boundOption === 'atMost' ? 0 : 1)) {
    throw new InvalidOptionError({
      caller,
      option: boundOption,
      expected: `a rate in (0, 1), e.g. ${DEFAULTS[boundOption]}`,
      received: String(given),
      hint:
        boundOption === 'atMost'
          ? 'For "never", use never(pred, { rollouts }) / toNever.'
          : 'For "always", use always(pred, { rollouts }) / toAlways.',
    })
  }
  const { atMost, atLeast, ...parsed } = parseOptions(caller, claim.options, options)
  // The row's schema fills in (or requires) the bound its direction names.
  const bound = (boundOption === 'atMost' ? atMost : atLeast) as number
  // Checked against the built-in maximum when the claim is made, and against the run's in the run.
  maxRolloutsOf(parsed, {}, caller)
  return parsedGate(parsed, (common, run) => ({
    ...common,
    claim: claim.kind,
    direction: boundOption,
    bound,
    maxRollouts: maxRolloutsOf(parsed, run.defaults, caller),
  }))
}

/**
 * Parses the options of a score claim and checks its threshold: a finite number strictly inside
 * the scorer's range (at an end the claim would be decided before any rollout, or never).
 */
export function parseScoreGate<K extends string>(
  claim: ClaimOfGate<K>,
  caller: string,
  threshold: unknown,
  options: unknown,
): ParsedGate<ResolvedScoreGate<K>> {
  const { range, ...parsed } = parseOptions(caller, ScoreOptionsSchema, options)
  const [min, max] = range ?? DEFAULTS.scoreRange
  if (typeof threshold !== 'number' || !(threshold > min && threshold < max)) {
    throw new InvalidOptionError({
      caller,
      option: 'threshold',
      expected: `a number strictly inside the scorer's range [${min}, ${max}], e.g. ${min + 0.8 * (max - min)}`,
      received: describeReceived(threshold),
      ...(typeof threshold === 'number' && threshold > 1 && range === undefined
        ? { hint: 'For scores on another scale, declare it: { range: [min, max] }.' }
        : {}),
    })
  }
  maxRolloutsOf(parsed, {}, caller)
  // A score defines no pass^k (see ScoreOptions): the score gate reports none.
  return parsedGate({ ...parsed, passK: DEFAULTS.passK }, (common, run) => ({
    ...common,
    claim: claim.kind,
    direction: claim.direction,
    threshold,
    range: [min, max],
    maxRollouts: maxRolloutsOf(parsed, run.defaults, caller),
  }))
}

/**
 * The most rollouts of a gate that samples until its test answers (call > run defaults >
 * built-in), checked against its `minRollouts`.
 */
function maxRolloutsOf(
  parsed: { maxRollouts?: number | undefined; minRollouts: number },
  defaults: MatcherDefaults,
  caller: string,
): number {
  const maxRollouts = layered('maxRollouts', parsed, defaults)
  if (parsed.minRollouts > maxRollouts) {
    throw new InvalidOptionError({
      caller,
      option: 'minRollouts',
      expected: `at most maxRollouts (${maxRollouts})`,
      received: String(parsed.minRollouts),
    })
  }
  return maxRollouts
}

/** Parses `never` / `always` options. */
export function parseZeroTolerance<K extends string>(
  claim: ClaimOfGate<K>,
  caller: string,
  options: unknown,
): ParsedGate<ResolvedZeroTolerance<K>> {
  const parsed = parseOptions(caller, ZeroToleranceOptionsSchema, options)
  return parsedGate(parsed, (common) => ({ ...common, claim: claim.kind, direction: claim.direction }))
}

/** Parses the options of a `matchesBaseline` claim: the gate's, and where the baseline lives and how it may change. */
export function parseBaselineClaim(
  caller: string,
  options: unknown,
): ParsedGate<ResolvedBaseline> & {
  file: string
  /** The entry's key as written: the file has always been keyed by the name untrimmed. */
  key: string
  update: BaselineClaimOptions['update']
} {
  const { file, name, update, ...parsed } = parseOptions(caller, BaselineClaimOptionsSchema, options)
  const key = (options as { name: string }).name
  return { file, key, update, ...parsedGate(parsed, (common) => ({ ...common, name })) }
}

/** Parses the options of an A/B comparison (`noWorseThan`, `toBeNoWorseThan`). */
export function parseComparison(caller: string, options: unknown): ParsedGate<ResolvedComparison> {
  const parsed = parseOptions(caller, NoWorseThanOptionsSchema, options)
  return parsedGate(parsed, (common, run) => ({
    ...common,
    maxRollouts: layered('maxRollouts', parsed, run.defaults),
  }))
}

/** `parsed` waiting for a run, which `complete` turns into the gate's resolved options. */
function parsedGate<Parsed extends ParsedCommon, Resolved>(
  parsed: Parsed,
  complete: (common: Omit<Parsed, RunKeys> & ResolvedCommon, run: ClaimRun) => Resolved,
): ParsedGate<Resolved> {
  return {
    seed: parsed.seed,
    label: parsed.label,
    forRun: (run, seed) => complete(withRun(parsed, run, seed), run),
  }
}

/**
 * `parsed` for one check in `run`: the run's defaults (the plugin's `confidence` and `concurrency`,
 * layered between the call and the built-in defaults), the chosen seed, and the check's
 * execution context, whose budget is an account of its own on the claim's (a fresh `Budget` from
 * limits, the user's own `Budget` shared).
 */
function withRun<Parsed extends ParsedCommon>(
  parsed: Parsed,
  run: ClaimRun,
  seed: number,
): Omit<Parsed, RunKeys> & ResolvedCommon {
  const {
    confidence: _confidence,
    concurrency: _concurrency,
    seed: _seed,
    budget,
    timeoutMs,
    maxSteps,
    ...claim
  } = parsed
  return {
    ...claim,
    confidence: layered('confidence', parsed, run.defaults),
    seed,
    execution: createExecution({
      budget: toBudget(budget).account({ rateLimit: run.rateLimit }),
      concurrency: layered('concurrency', parsed, run.defaults),
      modelConcurrency: run.defaults.modelConcurrency,
      timeoutMs,
      maxSteps,
      signal: run.signal,
      deadline: run.deadline,
      lockstep: run.lockstep,
    }),
  }
}
