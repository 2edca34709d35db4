// The gates that decide claims, one per kind of verdict: how each parses a claim's options when the
// claim is made, resolves them for a run and runs. Each claim's row in the claims table names its
// gate (`GATES` in `claims.ts` maps the names to these), so `check` and the builders treat every
// claim alike. A gate's options are
// parsed when its claim is made; the gate itself (its statistics, and the engine under it) is loaded
// when a claim of its kind is first checked, not with the package root that every test file imports.
import { isAbsolute, relative, resolve } from 'node:path'
import { isDatasetScenario } from '../agent/define-agent.js'
import type { Agent, Scenario } from '../agent/types.js'
import { withCassette } from '../cassette/attach.js'
import type { Cassette } from '../cassette/cassette.js'
import { isCi, type Environment } from '../options/environment.js'
import { comparisonBaseline } from './comparison-baseline.js'
import type { Predicate } from '../trajectory/queries.js'
import type { TrajectoryScorer } from '../trajectory/score-result.js'
import type { BaselineTarget } from '../verdict/baseline-gate.js'
import { claimRow, type ClaimKindOfGate } from '../verdict/claim-table.js'
import type { GateRun, GateSubject } from '../verdict/gate.js'
import {
  parseBaselineClaim,
  parseComparison,
  parseScoreGate,
  parseSequentialGate,
  parseZeroTolerance,
  type ClaimRun,
  type ParsedGate,
  type ResolvedCommon,
} from '../verdict/options.js'

/** What a gate reads of a claim about a predicate's rate: its kind, its predicate and its options. */
interface PredicateClaim<K extends string> {
  readonly kind: K
  readonly predicate: Predicate
  readonly options: unknown
}

/** What a gate reads of a score claim. */
interface ScorerClaim<K extends string> {
  readonly kind: K
  readonly scorer: TrajectoryScorer
  readonly threshold: number
  readonly options: unknown
}

/** What a gate needs of the run a claim is checked in, besides what every claim's options get from it. */
export interface GateContext extends ClaimRun {
  /** The project root, which baseline paths in messages are relative to. */
  root: string
  /**
   * The environment, read where the library was entered: `CAUSAL_REPLAY_SEED` seeds claims that
   * set no seed, and under `CI` a baseline claim that sets no `update` records nothing.
   */
  env: Environment
  /**
   * Default: none. The cassette the gate's and the attribution's rollouts go through: model calls
   * it holds are replayed, the others made and recorded (the caller saves it).
   */
  cassette?: Cassette | null
}

/** A claim's resolved options and the gate that runs it. */
export interface ResolvedGate {
  options: ResolvedCommon
  /** Runs the gate in its execution context; the subject's predicate (or scorer) is the claim's. */
  run(scenario: Scenario<unknown, unknown>, subject: Omit<GateSubject, 'predicate'>): Promise<GateRun>
}

/**
 * A claim whose options its gate parsed when it was made: each check resolves it into its gate for
 * its run (the run's defaults, the seed, a fresh execution context) without parsing again.
 */
export type ParsedClaim = ParsedGate<ResolvedGate, GateContext>

/**
 * The gate that decides claims shaped as `C` (a claim of one kind, or of any of some kinds): it
 * parses the claim's options (and threshold) when the claim is made, so a typo fails where it was
 * written; `caller` names the builder or matcher. The run's defaults are filled in later.
 */
export type ClaimGate<C> = (claim: C, caller: string) => ParsedClaim

/** A parsed claim whose gate, for a check's resolved options and context, runs as `runner` says. */
function parsedClaim<Resolved extends ResolvedCommon>(
  parsed: ParsedGate<Resolved>,
  runner: (options: Resolved, context: GateContext) => ResolvedGate['run'],
): ParsedClaim {
  return {
    seed: parsed.seed,
    label: parsed.label,
    forRun(context, seed) {
      const options = parsed.forRun(context, seed)
      return { options, run: runner(options, context) }
    },
  }
}

/**
 * A gate for a claim about a predicate's rate that one parser reads and one runner decides, run on
 * the claim's predicate; `loadRunner` imports the runner when the claim is checked.
 */
function rateGate<K extends string, Resolved extends ResolvedCommon>(
  parseFor: (kind: K, caller: string, options: unknown) => ParsedGate<Resolved>,
  loadRunner: () => Promise<
    (scenario: Scenario<unknown, unknown>, subject: GateSubject, options: Resolved) => Promise<GateRun>
  >,
): ClaimGate<PredicateClaim<K>> {
  return (claim, caller) =>
    parsedClaim(
      parseFor(claim.kind, caller, claim.options),
      (options) => async (scenario, subject) =>
        (await loadRunner())(scenario, { ...subject, predicate: claim.predicate }, options),
    )
}

/** The sequential rate gate: samples until its confidence sequence decides. */
export const sequentialGate = rateGate(
  (kind: ClaimKindOfGate<'sequential'>, caller, options) =>
    parseSequentialGate(claimRow(kind), caller, options),
  async () => (await import('../verdict/sequential-gate.js')).runSequentialGate,
)

/** The zero-tolerance gate: a fixed number of rollouts, stopped by the first occurrence. */
export const zeroToleranceGate = rateGate(
  (kind: ClaimKindOfGate<'zero-tolerance'>, caller, options) =>
    parseZeroTolerance(claimRow(kind), caller, options),
  async () => (await import('../verdict/zero-tolerance-gate.js')).runZeroToleranceGate,
)

/** The baseline gate: the rate against the one stored in the claim's file, under its key. */
export const baselineGate: ClaimGate<PredicateClaim<ClaimKindOfGate<'baseline'>>> = (claim, caller) => {
  const parsed = parseBaselineClaim(caller, claim.options)
  return parsedClaim(parsed, (options, context) => {
    const absolute = isAbsolute(parsed.file) ? parsed.file : resolve(context.root, parsed.file)
    const target: BaselineTarget = {
      file: absolute,
      displayFile: relativeTo(context.root, absolute),
      key: parsed.key,
      updateState: parsed.update ?? (isCi(context.env) ? 'none' : 'new'),
    }
    return async (scenario, subject) => {
      const { runBaselineGate } = await import('../verdict/baseline-gate.js')
      return runBaselineGate(scenario, { ...subject, predicate: claim.predicate }, options, target)
    }
  })
}

/**
 * The paired comparison gate: the candidate against a baseline agent, on the same seed; over a
 * dataset (`agent.over(dataset)`), pair by pair on the same cases.
 */
export const comparisonGate: ClaimGate<
  PredicateClaim<ClaimKindOfGate<'comparison'>> & {
    readonly baseline: Scenario<unknown, unknown> | Agent<unknown, unknown>
  }
> = (claim, caller) =>
  parsedClaim(parseComparison(caller, claim.options), (options, context) => async (scenario, subject) => {
    const resolved = comparisonBaseline(scenario, claim.baseline, caller)
    // The baseline's model calls go through the cassette too, so a warm run replays both agents.
    const baseline = {
      name: resolved.agent.name,
      scenario: context.cassette == null ? resolved : withCassette(resolved, context.cassette),
    }
    const predicateSubject = { ...subject, predicate: claim.predicate }
    if (isDatasetScenario(scenario) && isDatasetScenario(baseline.scenario)) {
      const { runDatasetComparisonGate } = await import('../verdict/dataset-comparison-gate.js')
      return runDatasetComparisonGate(
        scenario,
        { name: baseline.name, scenario: baseline.scenario },
        predicateSubject,
        options,
      )
    }
    const { runComparisonGate } = await import('../verdict/comparison-gate.js')
    return runComparisonGate(scenario, baseline, predicateSubject, options)
  })

/** The score gate: an anytime-valid betting test of the scorer's mean against the threshold. */
export const scoreGate: ClaimGate<ScorerClaim<ClaimKindOfGate<'score'>>> = (claim, caller) =>
  parsedClaim(
    parseScoreGate(claimRow(claim.kind), caller, claim.threshold, claim.options),
    (options) => async (scenario, subject) => {
      const { runScoreGate } = await import('../verdict/score-gate.js')
      return runScoreGate(scenario, { ...subject, scorer: claim.scorer }, options)
    },
  )

/** `file` relative to `root` with forward slashes, or as given when outside it. */
function relativeTo(root: string, file: string): string {
  const path = relative(root, file)
  return (path.startsWith('..') || isAbsolute(path) ? file : path).replaceAll('\\', '/')
}
