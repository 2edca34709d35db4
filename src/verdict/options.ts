import type { MatcherName } from './schema.js'
import { InvalidOptionError } from '../errors.js'
import { toBudget, type Budget, type BudgetLimits } from '../rollout/budget.js'

/** What attribution runs on a failing rollout; `false` turns it off. */
export interface AttributeOptions {
  /**
   * Default 64. The most rollouts per step arm; arms stop as soon as their sequential test decides
   * (about 80 rollouts in all for a three-step run with a 0.4 rescue), so the cap buys power for
   * weak effects without costing clear ones: at 32 the support agent's locus is found in 98 of 100
   * seeds, at 48 and 64 in all of them, at the same average cost.
   */
  rollouts?: number
  /**
   * Default `'contrastive'`. `'contrastive'` resamples one step at a time and names the causal
   * locus; `'shapley'` splits credit between steps that only cause the failure together; `'both'`
   * runs both (Shapley costs 2ⁿ coalitions up to 10 steps, sampled permutations above).
   */
  method?: 'contrastive' | 'shapley' | 'both'
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
  /** Default 60 000. A rollout running longer becomes an error outcome (`timeout`). */
  timeoutMs?: number
  /** Default 100. A rollout taking more steps (or tool calls) becomes an error outcome (`max-steps`). */
  maxSteps?: number
  /**
   * Default: unlimited. Limits (`{ maxRollouts, maxCostUsd }`) or a `Budget` shared with other
   * calls; the gate and its attribution spend from it. When it runs out the gate stops: undecided
   * becomes inconclusive, and attribution reports the work it did.
   */
  budget?: Budget | BudgetLimits
  /** Default `{ rollouts: 64, method: 'contrastive' }`. Attribution of the first failing rollout; `false` skips it. */
  attribute?: false | AttributeOptions
  /**
   * Default false. A rollout that throws, times out or loops is an error outcome. By default the
   * first one fails the assertion (with its replay handle): an agent that crashes is not "rarely
   * bad". With `allowErrors: true` errors are counted and shown, and left out of the rate.
   */
  allowErrors?: boolean
  /** Default: words from the predicate's function name (`refundWrongly` → "refund wrongly"). How the message names the predicate. */
  label?: string
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
   * Default 0. How much worse than the baseline the rate may get before the gate fails: it fails
   * when the Newcombe interval of (new − baseline) lies entirely beyond `tolerance` on the worse side.
   */
  tolerance?: number
  /** Default 100. Rollouts per measurement (a fixed sample, so baseline and new rate are comparable). */
  rollouts?: number
  /** Default `'lower'`. Which direction is better: `'lower'` for a bad-outcome predicate, `'higher'` for a success predicate. */
  better?: 'lower' | 'higher'
}

/** Defaults a plugin (or the environment) sets for every matcher in a run. */
export interface MatcherDefaults {
  confidence?: number
  maxRollouts?: number
  concurrency?: number
}

/** Built-in defaults, in one place so docs, plugin and matchers agree. */
export const DEFAULTS = {
  confidence: 0.95,
  maxRollouts: 400,
  minRollouts: 0,
  concurrency: 8,
  timeoutMs: 60_000,
  maxSteps: 100,
  zeroToleranceRollouts: 100,
  baselineRollouts: 100,
  attributeRollouts: 64,
  atMost: 0.05,
  atLeast: 0.95,
  tolerance: 0,
} as const

/** Attribution settings with defaults filled in. */
export interface ResolvedAttribute {
  rollouts: number
  method: 'contrastive' | 'shapley' | 'both'
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
}

/** A resolved sequential gate (`toRarely`, `toUsually`). */
export interface ResolvedSequentialGate extends ResolvedCommon {
  kind: 'sequential'
  direction: 'atMost' | 'atLeast'
  bound: number
  maxRollouts: number
  minRollouts: number
  onInconclusive: 'fail' | 'pass'
}

/** A resolved zero-tolerance gate (`toNever`, `toAlways`). */
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

const COMMON_KEYS = [
  'confidence',
  'seed',
  'concurrency',
  'timeoutMs',
  'maxSteps',
  'budget',
  'attribute',
  'allowErrors',
  'label',
] as const
const SEQUENTIAL_KEYS = [...COMMON_KEYS, 'maxRollouts', 'minRollouts', 'onInconclusive'] as const

/** The option names each matcher accepts (an unknown key is a typo, and an error). */
export const OPTION_KEYS: Record<MatcherName, readonly string[]> = {
  toRarely: [...SEQUENTIAL_KEYS, 'atMost'],
  toUsually: [...SEQUENTIAL_KEYS, 'atLeast'],
  toNever: [...COMMON_KEYS, 'rollouts'],
  toAlways: [...COMMON_KEYS, 'rollouts'],
  toMatchRateBaseline: [...COMMON_KEYS, 'name', 'tolerance', 'rollouts', 'better'],
}

/** Resolves `toRarely` / `toUsually` options; `seed` is the already chosen seed. */
export function resolveSequentialGate(
  matcher: 'toRarely' | 'toUsually',
  options: RarelyOptions & UsuallyOptions,
  defaults: MatcherDefaults,
  seed: number,
): ResolvedSequentialGate {
  checkKeys(matcher, options)
  const direction = matcher === 'toRarely' ? 'atMost' : 'atLeast'
  const boundOption = matcher === 'toRarely' ? 'atMost' : 'atLeast'
  const bound = options[boundOption] ?? DEFAULTS[boundOption]
  if (!(typeof bound === 'number' && bound > 0 && bound < 1)) {
    const hint =
      matcher === 'toRarely'
        ? bound === 0
          ? ' For "never", use toNever(pred, { rollouts }).'
          : ''
        : bound === 1
          ? ' For "always", use toAlways(pred, { rollouts }).'
          : ''
    throw new InvalidOptionError(
      `${matcher}: \`${boundOption}\` must be a rate strictly between 0 and 1 (e.g. ${DEFAULTS[boundOption]}), got ${String(bound)}.${hint}`,
    )
  }
  const common = resolveCommon(matcher, options, defaults, seed)
  const maxRollouts = positiveInteger(
    matcher,
    'maxRollouts',
    options.maxRollouts ?? defaults.maxRollouts ?? DEFAULTS.maxRollouts,
  )
  const minRollouts = nonNegativeInteger(matcher, 'minRollouts', options.minRollouts ?? DEFAULTS.minRollouts)
  if (minRollouts > maxRollouts) {
    throw new InvalidOptionError(
      `${matcher}: \`minRollouts\` (${minRollouts}) is larger than \`maxRollouts\` (${maxRollouts}).`,
    )
  }
  const onInconclusive = options.onInconclusive ?? 'fail'
  if (onInconclusive !== 'fail' && onInconclusive !== 'pass') {
    throw new InvalidOptionError(
      `${matcher}: \`onInconclusive\` must be 'fail' or 'pass', got ${JSON.stringify(onInconclusive)}.`,
    )
  }
  return { ...common, kind: 'sequential', direction, bound, maxRollouts, minRollouts, onInconclusive }
}

/** Resolves `toNever` / `toAlways` options. */
export function resolveZeroTolerance(
  matcher: 'toNever' | 'toAlways',
  options: ZeroToleranceOptions,
  defaults: MatcherDefaults,
  seed: number,
): ResolvedZeroTolerance {
  checkKeys(matcher, options)
  return {
    ...resolveCommon(matcher, options, defaults, seed),
    kind: 'zero-tolerance',
    direction: matcher === 'toNever' ? 'atMost' : 'atLeast',
    rollouts: positiveInteger(matcher, 'rollouts', options.rollouts ?? DEFAULTS.zeroToleranceRollouts),
  }
}

/** Resolves `toMatchRateBaseline` options. */
export function resolveBaseline(
  options: BaselineOptions,
  defaults: MatcherDefaults,
  seed: number,
): ResolvedBaseline {
  const matcher = 'toMatchRateBaseline'
  checkKeys(matcher, options)
  const tolerance = options.tolerance ?? DEFAULTS.tolerance
  if (!(typeof tolerance === 'number' && tolerance >= 0 && tolerance < 1)) {
    throw new InvalidOptionError(
      `${matcher}: \`tolerance\` must be a rate in [0, 1), e.g. 0.02, got ${String(tolerance)}.`,
    )
  }
  const better = options.better ?? 'lower'
  if (better !== 'lower' && better !== 'higher') {
    throw new InvalidOptionError(
      `${matcher}: \`better\` must be 'lower' or 'higher', got ${JSON.stringify(better)}.`,
    )
  }
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name === '')) {
    throw new InvalidOptionError(`${matcher}: \`name\` must be a non-empty string.`)
  }
  return {
    ...resolveCommon(matcher, options, defaults, seed),
    kind: 'baseline',
    name: options.name,
    tolerance,
    rollouts: positiveInteger(matcher, 'rollouts', options.rollouts ?? DEFAULTS.baselineRollouts),
    better,
  }
}

function resolveCommon(
  matcher: MatcherName,
  options: CommonMatcherOptions,
  defaults: MatcherDefaults,
  seed: number,
): ResolvedCommon {
  const confidence = options.confidence ?? defaults.confidence ?? DEFAULTS.confidence
  if (!(typeof confidence === 'number' && confidence > 0.5 && confidence < 1)) {
    throw new InvalidOptionError(
      `${matcher}: \`confidence\` must be in (0.5, 1), e.g. 0.95, got ${String(confidence)}.`,
    )
  }
  if (!Number.isSafeInteger(seed)) {
    throw new InvalidOptionError(`${matcher}: \`seed\` must be an integer, got ${String(seed)}.`)
  }
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0)) {
    throw new InvalidOptionError(
      `${matcher}: \`timeoutMs\` must be a positive number of milliseconds, got ${String(timeoutMs)}.`,
    )
  }
  if (options.allowErrors !== undefined && typeof options.allowErrors !== 'boolean') {
    throw new InvalidOptionError(
      `${matcher}: \`allowErrors\` must be true or false, got ${String(options.allowErrors)}.`,
    )
  }
  if (options.label !== undefined && (typeof options.label !== 'string' || options.label.trim() === '')) {
    throw new InvalidOptionError(`${matcher}: \`label\` must be a non-empty string.`)
  }
  let budget: Budget
  try {
    budget = toBudget(options.budget)
  } catch (error) {
    throw new InvalidOptionError(`${matcher}: ${(error as Error).message}`)
  }
  return {
    confidence,
    seed,
    concurrency: positiveInteger(
      matcher,
      'concurrency',
      options.concurrency ?? defaults.concurrency ?? DEFAULTS.concurrency,
    ),
    timeoutMs,
    maxSteps: positiveInteger(matcher, 'maxSteps', options.maxSteps ?? DEFAULTS.maxSteps),
    budget,
    attribute: resolveAttribute(matcher, options.attribute),
    allowErrors: options.allowErrors ?? false,
    label: options.label?.trim(),
  }
}

function resolveAttribute(
  matcher: MatcherName,
  attribute: CommonMatcherOptions['attribute'],
): ResolvedAttribute | false {
  if (attribute === false) return false
  if (attribute === undefined) return { rollouts: DEFAULTS.attributeRollouts, method: 'contrastive' }
  if (typeof attribute !== 'object' || attribute === null) {
    throw new InvalidOptionError(
      `${matcher}: \`attribute\` must be false or { rollouts?, method? }, got ${JSON.stringify(attribute)}.`,
    )
  }
  const method = attribute.method ?? 'contrastive'
  if (method !== 'contrastive' && method !== 'shapley' && method !== 'both') {
    throw new InvalidOptionError(
      `${matcher}: \`attribute.method\` must be 'contrastive', 'shapley' or 'both', got ${JSON.stringify(method)}.`,
    )
  }
  return {
    rollouts: positiveInteger(
      matcher,
      'attribute.rollouts',
      attribute.rollouts ?? DEFAULTS.attributeRollouts,
    ),
    method,
  }
}

function checkKeys(matcher: MatcherName, options: object): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidOptionError(`${matcher}: the options must be an object, got ${JSON.stringify(options)}.`)
  }
  const allowed = OPTION_KEYS[matcher]
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new InvalidOptionError(
        `${matcher}: unknown option \`${key}\`. It accepts: ${allowed.join(', ')}.`,
      )
    }
  }
}

function positiveInteger(matcher: MatcherName, option: string, value: unknown): number {
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= 1)) {
    throw new InvalidOptionError(
      `${matcher}: \`${option}\` must be a positive integer, got ${String(value)}.`,
    )
  }
  return value
}

function nonNegativeInteger(matcher: MatcherName, option: string, value: unknown): number {
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= 0)) {
    throw new InvalidOptionError(
      `${matcher}: \`${option}\` must be a non-negative integer, got ${String(value)}.`,
    )
  }
  return value
}
