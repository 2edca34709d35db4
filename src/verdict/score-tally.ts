import { CausalReplayError } from '../errors.js'
import { checkScoreResult, type TrajectoryScorer } from '../trajectory/score-result.js'
import type { RolloutError, Trajectory } from '../trajectory/schema.js'
import { countErrorOutcome, thrownMessage, type RolloutTally } from './sampling.js'

/** The side of the threshold a score gate asks the mean to be on. */
export type ScoreDirection = 'atLeast' | 'atMost'

/**
 * The running account of a score gate: each completed rollout's score (in rollout-index order,
 * rescaled from the scorer's `range` to [0, 1] for the betting test), its error outcomes, and the
 * worst-scoring rollout (lowest for `atLeast`, highest for `atMost`; the lowest index among ties),
 * the one attribution explains. Only that trajectory and the first errored one are kept.
 */
export class ScoreTally implements RolloutTally {
  rollouts = 0
  errorCount = 0
  readonly errorExamples: Array<{ rollout: number; error: RolloutError }> = []
  firstError: Trajectory | null = null
  /** The completed rollouts' scores, rescaled to [0, 1], in rollout order. */
  readonly values: number[] = []
  /** Completed rollouts that scored on the claim's side of the threshold (ties count as good). */
  good = 0
  /** The worst score so far (user units) and its rollout. */
  worst: { trajectory: Trajectory; score: number } | null = null
  /** The lowest and highest score so far (user units). */
  lowest: number | null = null
  highest: number | null = null

  constructor(
    private readonly scorer: TrajectoryScorer,
    private readonly label: string,
    private readonly range: readonly [number, number],
    private readonly direction: ScoreDirection,
    private readonly threshold: number,
  ) {}

  /** Completed rollouts: the n of the mean. */
  get n(): number {
    return this.values.length
  }

  /** Scores the next rollout (callers go in rollout order). A scorer that throws or returns a non-score throws. */
  async add(trajectory: Trajectory): Promise<void> {
    this.rollouts++
    if (trajectory.error !== undefined) {
      countErrorOutcome(this, trajectory, trajectory.error)
      return
    }
    const score = await this.score(trajectory, trajectory.rollout)
    const [min, max] = this.range
    this.values.push((score - min) / (max - min))
    if (!this.isBadScore(score)) this.good++
    this.lowest = this.lowest === null ? score : Math.min(this.lowest, score)
    this.highest = this.highest === null ? score : Math.max(this.highest, score)
    const worse =
      this.direction === 'atLeast'
        ? score < (this.worst?.score ?? Infinity)
        : score > (this.worst?.score ?? -Infinity)
    if (worse) this.worst = { trajectory, score }
  }

  /** Whether a score is on the wrong side of the threshold: below it for `atLeast`, above it for `atMost`. */
  isBadScore(score: number): boolean {
    return this.direction === 'atLeast' ? score < this.threshold : score > this.threshold
  }

  /**
   * Whether a completed trajectory scores on the wrong side of the threshold (used again by
   * attribution, on replays, whose errors name no rollout).
   */
  async isBad(trajectory: Trajectory): Promise<boolean> {
    return this.isBadScore(await this.score(trajectory, null))
  }

  private async score(trajectory: Trajectory, rollout: number | null): Promise<number> {
    let value: unknown
    try {
      value = await this.scorer(trajectory)
    } catch (error) {
      const where = rollout === null ? '' : ` on rollout ${rollout}`
      throw new CausalReplayError(`The scorer "${this.label}" threw${where}: ${thrownMessage(error)}`, {
        cause: error,
      })
    }
    return checkScoreResult(value, { caller: `the scorer "${this.label}"`, rollout, range: this.range })
  }
}
