import { clopperPearson } from '../stats/clopper-pearson.js'
import type { Estimate, Interval } from '../stats/estimate.js'
import { meanScoreInterval, type MeanScoreOptions } from '../stats/mean-score.js'
import type { RolloutError, Trajectory } from '../trajectory/schema.js'
import { checkPredicateResult } from '../trajectory/predicate-result.js'
import type { Predicate } from '../trajectory/queries.js'
import { isPromiseLike } from './promise-like.js'

/** A graded outcome: a label for people and a score in [0, 1] for statistics. */
export interface ScoredOutcome {
  label: string
  score: number
}

/** Scores a trajectory: a number in [0, 1] or `{ label, score }`; may be async (an LLM judge). */
export type Scorer = (trajectory: Trajectory) => number | ScoredOutcome | Promise<number | ScoredOutcome>

/** A rollout that ended in an error: counted and shown, never scored as good or bad. */
export interface RolloutFailure {
  rollout: number
  error: RolloutError
}

/**
 * The result of running or replaying a scenario K times: a distribution, never one path.
 * Trajectories are in rollout order; those that ended in an error are kept apart from the rates.
 */
export class RolloutSet {
  constructor(
    /** Every trajectory, in rollout order (error outcomes included). */
    readonly trajectories: readonly Trajectory[],
    /** The run seed: with the same seed, the same trajectories. */
    readonly seed: number,
    /** The intervention's label for replays; undefined for plain rollouts. */
    readonly intervention: string | undefined = undefined,
  ) {}

  /** Trajectories that finished: the ones rates are computed over. */
  get completed(): Trajectory[] {
    return this.trajectories.filter((trajectory) => trajectory.error === undefined)
  }

  /** Rollouts that threw, timed out, looped or were aborted, with their messages. */
  get errors(): RolloutFailure[] {
    return this.trajectories.flatMap((trajectory) =>
      trajectory.error === undefined ? [] : [{ rollout: trajectory.rollout, error: trajectory.error }],
    )
  }

  /**
   * The rate at which `predicate` holds over completed rollouts, with a Clopper–Pearson interval at
   * `confidence` (default 0.95), which covers the rate at least that often whatever it is. Error
   * outcomes are not in `n`; see `errors`. An async predicate (an LLM judge) gives a promise.
   */
  rate(predicate: (trajectory: Trajectory) => boolean, confidence?: number): Estimate
  rate(predicate: Predicate, confidence?: number): Estimate | Promise<Estimate>
  rate(predicate: Predicate, confidence = 0.95): Estimate | Promise<Estimate> {
    const completed = this.completed
    const verdicts = completed.map((trajectory) => predicate(trajectory))
    // A predicate that forgets to `return` must not silently count as "false" everywhere.
    const count = (values: readonly unknown[]) => {
      const holds = values.map((value, i) =>
        checkPredicateResult(value, {
          caller: 'rate',
          option: 'predicate',
          rollout: (completed[i] as Trajectory).rollout,
        }),
      )
      return clopperPearson(holds.filter(Boolean).length, holds.length, confidence)
    }
    if (verdicts.some(isPromiseLike))
      return Promise.all(verdicts.map((verdict) => Promise.resolve(verdict))).then(count)
    return count(verdicts)
  }

  /**
   * The mean outcome score over completed rollouts with its interval: a seeded percentile bootstrap
   * by default (`options.method: 'clt'` for the CLT), Clopper–Pearson when the scores are all 0/1,
   * Wilson when they are all equal, where a bootstrap would collapse to zero width. Scores must lie
   * in [0, 1].
   */
  meanScore(scorer: Scorer, options: MeanScoreOptions = {}): Promise<Interval> {
    const scoreOf = (outcome: number | ScoredOutcome) =>
      typeof outcome === 'number' ? outcome : outcome.score
    return Promise.all(this.completed.map((trajectory) => Promise.resolve(scorer(trajectory)))).then(
      (outcomes) => meanScoreInterval(outcomes.map(scoreOf), { seed: this.seed, ...options }),
    )
  }

  /** Held steps reached in replay, over all rollouts (0 for plain rollouts). */
  get heldSteps(): number {
    return this.trajectories.reduce((sum, trajectory) => sum + (trajectory.replay?.heldSteps ?? 0), 0)
  }

  /** Held steps whose name and context digest matched the recording. */
  get matchedSteps(): number {
    return this.trajectories.reduce((sum, trajectory) => sum + (trajectory.replay?.matchedSteps ?? 0), 0)
  }

  /** Share of held steps that matched the recording: 1 is a faithful replay. 1 when nothing was held. */
  get actionMatchRate(): number {
    const held = this.heldSteps
    return held === 0 ? 1 : this.matchedSteps / held
  }

  /** USD the policy calls of these rollouts cost. */
  get costUsd(): number {
    return this.trajectories.reduce((sum, trajectory) => sum + (trajectory.costUsd ?? 0), 0)
  }

  /** Plain data, for JSON files. */
  toJSON(): { seed: number; intervention?: string; trajectories: readonly Trajectory[] } {
    return this.intervention === undefined
      ? { seed: this.seed, trajectories: this.trajectories }
      : { seed: this.seed, intervention: this.intervention, trajectories: this.trajectories }
  }
}
