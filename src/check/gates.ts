// The gates that decide claims, one per kind of verdict: how each checks a claim's options when the
// claim is made, resolves them for a run and runs. `CLAIM_GATES` in `claims.ts` names the gate of
// each kind of claim, so `check` and the builders treat every claim alike.
import { isAbsolute, relative, resolve } from 'node:path'
import type { Scenario } from '../agent/types.js'
import { withCassette } from '../cassette/attach.js'
import type { Cassette } from '../cassette/cassette.js'
import { isCi, type Environment } from '../options/environment.js'
import type { ModelRateLimit } from '../rollout/rate-limit.js'
import type { Predicate } from '../trajectory/queries.js'
import type { TrajectoryScorer } from '../trajectory/score-result.js'
import { runBaselineGate, type BaselineTarget } from '../verdict/baseline-gate.js'
import { runComparisonGate } from '../verdict/comparison-gate.js'
import type { GateRun, GateSubject } from '../verdict/gate.js'
import {
  checkBaselineClaimOptions,
  resolveBaseline,
  resolveComparison,
  resolveScoreGate,
  resolveSequentialGate,
  resolveZeroTolerance,
  type BaselineClaimOptions,
  type Deadline,
  type MatcherDefaults,
  type ResolvedCommon,
} from '../verdict/options.js'
import { runScoreGate } from '../verdict/score-gate.js'
import { runSequentialGate } from '../verdict/sequential-gate.js'
import { runZeroToleranceGate } from '../verdict/zero-tolerance-gate.js'

/** What a gate reads of a claim about a predicate's rate: its kind, its predicate and its options. */
interface PredicateClaim<K extends string, Options = unknown> {
  readonly kind: K
  readonly predicate: Predicate
  readonly options: Options
}

/** What a gate reads of a score claim. */
interface ScorerClaim<K extends string> {
  readonly kind: K
  readonly scorer: TrajectoryScorer
  readonly threshold: number
  readonly options: unknown
}

/** What a gate needs of the run a claim is checked in. */
export interface GateContext {
  /** Defaults for every claim of the run (the plugin's `confidence`, `maxRollouts`, `concurrency`). */
  defaults: MatcherDefaults
  /** The project root, which baseline paths in messages are relative to. */
  root: string
  /**
   * The environment, read where the library was entered: `CAUSAL_REPLAY_SEED` seeds claims that
   * set no seed, and under `CI` a baseline claim that sets no `update` records nothing.
   */
  env: Environment
  /**
   * Default: none. The rate limit live model calls wait for: the plugin's run-wide one, or the
   * process-wide one of `check`'s `rateLimit`.
   */
  rateLimit?: ModelRateLimit | undefined
  /**
   * Default: none. When the surrounding test times out, less a margin for the message and files:
   * the gate and its attribution stop in time to report instead of being killed with the test.
   */
  deadline?: Deadline | undefined
  /**
   * Default: none. The cassette the gate's and the attribution's rollouts go through: model calls
   * it holds are replayed, the others made and recorded (the caller saves it).
   */
  cassette?: Cassette | null
}

/** A claim's resolved options and the gate that runs it. */
export interface ResolvedGate {
  options: ResolvedCommon
  /** Runs the gate; the subject's predicate (or scorer) is the claim's. */
  run(
    scenario: Scenario<unknown, unknown>,
    subject: Omit<GateSubject, 'predicate'>,
    signal: AbortSignal | undefined,
  ): Promise<GateRun>
}

/** The gate that decides claims shaped as `C` (a claim of one kind, or of any of some kinds). */
export interface ClaimGate<C> {
  /**
   * Checks the claim's options (and threshold) when the claim is made, so a typo fails where it was
   * written; `caller` names the builder or matcher. The run's defaults are filled in later.
   */
  check(claim: C, caller: string): void
  /** Resolves the claim's options (claim > run defaults > built-in) for `seed` and returns its gate. */
  resolve(claim: C, caller: string, context: GateContext, seed: number): ResolvedGate
}

/**
 * `resolved` spending through a sub-account of its budget (the limits are the budget's, the
 * spending counted there is this claim's alone, even when other checks share the budget) and
 * stopping by the test's deadline.
 */
function accounted<Resolved extends ResolvedCommon>(resolved: Resolved, context: GateContext): Resolved {
  return {
    ...resolved,
    budget: resolved.budget.account({ rateLimit: context.rateLimit }),
    deadline: context.deadline,
  }
}

/**
 * A gate for a claim about a predicate's rate that one resolver reads and one runner decides: its
 * options checked at build time with no run defaults, resolved for a run, run on the claim's
 * predicate.
 */
function rateGate<K extends string, Resolved extends ResolvedCommon>(
  resolveFor: (
    kind: K,
    caller: string,
    options: unknown,
    defaults: MatcherDefaults,
    seed: number,
  ) => Resolved,
  runWith: (
    scenario: Scenario<unknown, unknown>,
    subject: GateSubject,
    options: Resolved,
    signal: AbortSignal | undefined,
  ) => Promise<GateRun>,
): ClaimGate<PredicateClaim<K>> {
  return {
    check(claim, caller) {
      resolveFor(claim.kind, caller, claim.options, {}, 0)
    },
    resolve(claim, caller, context, seed) {
      const options = accounted(
        resolveFor(claim.kind, caller, claim.options, context.defaults, seed),
        context,
      )
      return {
        options,
        run: (scenario, subject, signal) =>
          runWith(scenario, { ...subject, predicate: claim.predicate }, options, signal),
      }
    },
  }
}

/** The sequential rate gate: samples until its confidence sequence decides. */
export const sequentialGate = rateGate(resolveSequentialGate, runSequentialGate)

/** The zero-tolerance gate: a fixed number of rollouts, stopped by the first occurrence. */
export const zeroToleranceGate = rateGate(resolveZeroTolerance, runZeroToleranceGate)

/** The baseline gate: the rate against the one stored in the claim's file, under its key. */
export const baselineGate: ClaimGate<PredicateClaim<'baseline', BaselineClaimOptions>> = {
  check(claim, caller) {
    checkBaselineClaimOptions(caller, claim.options)
  },
  resolve(claim, caller, context, seed) {
    const { file, name, update, ...rest } = claim.options
    const options = accounted(resolveBaseline(caller, { ...rest, name }, context.defaults, seed), context)
    const absolute = isAbsolute(file) ? file : resolve(context.root, file)
    const target: BaselineTarget = {
      file: absolute,
      displayFile: relativeTo(context.root, absolute),
      key: name,
      updateState: update ?? (isCi(context.env) ? 'none' : 'new'),
    }
    return {
      options,
      run: (scenario, subject, signal) =>
        runBaselineGate(scenario, { ...subject, predicate: claim.predicate }, options, target, signal),
    }
  },
}

/** The paired comparison gate: the candidate against a baseline agent, on the same seed. */
export const comparisonGate: ClaimGate<
  PredicateClaim<'noWorseThan'> & { readonly baseline: Scenario<unknown, unknown> }
> = {
  check(claim, caller) {
    resolveComparison(caller, claim.options, {}, 0)
  },
  resolve(claim, caller, context, seed) {
    const options = accounted(resolveComparison(caller, claim.options, context.defaults, seed), context)
    const baseline = { name: claim.baseline.agent.name, scenario: claim.baseline }
    return {
      options,
      // The baseline's model calls go through the cassette too, so a warm run replays both agents.
      run: (scenario, subject, signal) =>
        runComparisonGate(
          scenario,
          {
            ...baseline,
            scenario:
              context.cassette == null
                ? baseline.scenario
                : withCassette(baseline.scenario, context.cassette),
          },
          { ...subject, predicate: claim.predicate },
          options,
          signal,
        ),
    }
  },
}

/** The score gate: an anytime-valid betting test of the scorer's mean against the threshold. */
export const scoreGate: ClaimGate<ScorerClaim<Parameters<typeof resolveScoreGate>[0]>> = {
  check(claim, caller) {
    resolveScoreGate(claim.kind, caller, claim.threshold, claim.options, {}, 0)
  },
  resolve(claim, caller, context, seed) {
    const options = accounted(
      resolveScoreGate(claim.kind, caller, claim.threshold, claim.options, context.defaults, seed),
      context,
    )
    const scorer = claim.scorer
    return {
      options,
      run: (scenario, subject, signal) => runScoreGate(scenario, { ...subject, scorer }, options, signal),
    }
  },
}

/** `file` relative to `root` with forward slashes, or as given when outside it. */
function relativeTo(root: string, file: string): string {
  const path = relative(root, file)
  return (path.startsWith('..') || isAbsolute(path) ? file : path).replaceAll('\\', '/')
}
