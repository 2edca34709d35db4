import { isDatasetScenario, overDataset } from '../agent/define-agent.js'
import type { DatasetScenario, Scenario } from '../agent/types.js'
import type { CheckResult } from '../check/check.js'
import { CLAIM_OF_MATCHER, type Claim, type MatcherName } from '../check/claims.js'
import { casesOfShard, parseShard, type DatasetShard } from '../dataset/shard.js'
import { InvalidOptionError } from '../errors.js'
import { DEFAULTS } from '../options/defaults.js'
import type { Environment } from '../options/environment.js'
import { CLAIMS } from '../verdict/claim-table.js'
import type { ShardPart } from './shard-part.js'

/** The environment variable that splits every dataset claim's cases across machines: `i/n`. */
export const SHARD_ENV = 'CAUSAL_REPLAY_SHARD'

/** The shard `CAUSAL_REPLAY_SHARD` names, or null when it is unset or empty. */
export function shardFromEnvironment(env: Environment): DatasetShard | null {
  const text = env[SHARD_ENV]?.trim()
  if (text === undefined || text === '') return null
  return parseShard(text, SHARD_ENV, SHARD_ENV)
}

/** A dataset claim as one shard runs it: its cases only, K times each, and no attribution. */
export interface ShardRun {
  shard: DatasetShard
  /** The agent over this shard's cases only. */
  scenario: DatasetScenario<unknown, unknown>
  /** The matcher's arguments, with the options the shard adds. */
  args: unknown[]
  /** The part of the meta entry known before any run: the claim, the shard, the dataset's size. */
  part: Omit<ShardPart, 'table'>
}

/**
 * How `matcher` runs under `shard`: null for a claim about one input (it runs on every shard, as it
 * would without one). A claim over a dataset must be a population claim with a fixed number of runs
 * per case (`toRarely` / `toUsually` / `toSometimes` with `runsPerCase`): a sequential test that
 * stops on one shard's cases has decided about those cases, not about the mean over all of them, so
 * each shard runs its cases K times and leaves the deciding to `--merge-reports`. The shard does not
 * attribute: nothing is decided there. `claim` is the claim as made from the user's options, already
 * checked.
 */
export function shardRun(
  matcher: MatcherName,
  received: Scenario<unknown, unknown>,
  args: readonly unknown[],
  claim: Claim,
  shard: DatasetShard,
  defaults: { confidence?: number | undefined },
): ShardRun | null {
  if (!isDatasetScenario(received)) return null
  const caller = `${matcher} over dataset "${received.dataset.name}" under ${SHARD_ENV}=${shard.index}/${shard.count}`
  const row = CLAIMS[CLAIM_OF_MATCHER[matcher]]
  if (row.gate !== 'sequential') {
    throw new InvalidOptionError({
      caller,
      option: SHARD_ENV,
      expected: 'unset for this matcher',
      received: `"${shard.index}/${shard.count}"`,
      hint: 'Only the mean over cases with a fixed number of runs per case (toRarely, toUsually or toSometimes with runsPerCase) is split across shards; run this claim in a project without the variable.',
    })
  }
  const options = claim.options as {
    per?: unknown
    runsPerCase?: unknown
    confidence?: number
    onInconclusive?: 'fail' | 'pass'
    atMost?: number
    atLeast?: number
  }
  if (options.per === 'case') {
    throw new InvalidOptionError({
      caller,
      option: 'per',
      expected: "'dataset' (the default) when the cases are split across shards",
      received: "'case'",
      hint: 'Per-case decisions are corrected across every case with Holm, which no shard sees; run a per-case claim unsharded.',
    })
  }
  const runsPerCase = options.runsPerCase
  if (typeof runsPerCase !== 'number') {
    throw new InvalidOptionError({
      caller,
      option: 'runsPerCase',
      expected: 'a positive integer when the cases are split across shards',
      received: 'nothing',
      hint: 'A sequential test stopped on one shard would decide about its cases, not the mean over all of them: give every case a fixed number of runs, e.g. { runsPerCase: 4 }, and --merge-reports decides on all of them.',
    })
  }
  const direction = row.direction === 'atLeast' ? 'atLeast' : 'atMost'
  const count = ARGUMENTS_BEFORE_OPTIONS
  const given = (args[count] ?? {}) as object
  const subset = casesOfShard(received.dataset, shard)
  return {
    shard,
    scenario: overDataset(received.agent, subset, `${matcher}(shard)`),
    args: [...args.slice(0, count), { ...given, attribute: false }],
    part: {
      index: shard.index,
      count: shard.count,
      runsPerCase,
      direction,
      bound: options[direction] ?? DEFAULTS[direction],
      confidence: options.confidence ?? defaults.confidence ?? DEFAULTS.confidence,
      onInconclusive: options.onInconclusive ?? DEFAULTS.onInconclusive,
      dataset: received.dataset.name,
      cases: received.dataset.cases.length,
    },
  }
}

// The sequential claims take one argument (the predicate) before their options.
const ARGUMENTS_BEFORE_OPTIONS = 1

/** The part of the population claim this shard ran, for its meta entry: the claim and its cases' tallies. */
export function shardPartOf(run: ShardRun, result: CheckResult): ShardPart {
  const table = result.verdict.dataset?.table ?? []
  return {
    ...run.part,
    table: table.map(({ id, runs, failures, errors }) => ({ id, runs, failures, errors })),
  }
}

/** True when no case of the dataset falls on this shard (a dataset of fewer cases than shards). */
export function isEmptyShard(run: ShardRun): boolean {
  return run.scenario.dataset.cases.length === 0
}

/**
 * What the matcher says on a shard: a pass, since nothing is decided there, unless a run ended in an
 * error (which fails the claim wherever it runs, as it does unsharded).
 */
export function shardOutcome(run: ShardRun, result: CheckResult): { pass: boolean; message: () => string } {
  if (result.verdict.errors.count > 0) return { pass: false, message: () => result.message }
  const { index, count } = run.shard
  return {
    pass: true,
    message: () =>
      `shard ${index}/${count} of dataset "${run.part.dataset}": ${result.verdict.rolloutsUsed} runs recorded; vitest --merge-reports decides the claim on every shard's runs`,
  }
}
