import { judgeErrorIn, RolloutAbortedError } from '../../errors.js'
import type { Plan } from '../../rollout/plan.js'
import { createExecution, type Execution } from '../../rollout/options.js'
import { RolloutPool, type RolloutPoolSettings } from '../../rollout/rollout-pool.js'
import { checkPredicateResult } from '../../trajectory/predicate-result.js'
import type { Predicate } from '../../trajectory/queries.js'
import type { Trajectory } from '../../trajectory/schema.js'
import type { PairedCounts } from '../../stats/paired-confidence-sequence.js'
import { isPromiseLike } from '../../rollout/promise-like.js'
import type { ReplayErrors } from '../schema.js'

/** What one replayed rollout gave: scored bad or good, or an error outcome (never scored). */
export type RolloutOutcome = 'bad' | 'good' | 'error'

/**
 * One arm of an attribution: a plan (an intervention over the factual run) replayed under one seed.
 * Rollout r of the arm draws step j from stream (seed, r, j), so two arms with the same seed are
 * paired rollout by rollout (common random numbers). Outcomes are kept by rollout index; an index
 * the budget did not let run stays undefined.
 */
export class Arm {
  readonly outcomes: Array<RolloutOutcome | undefined> = []
  /** Rollouts started for this arm (errors included). */
  rolloutsRun = 0
  heldSteps = 0
  matchedSteps = 0
  /**
   * The error of the errored rollout with the lowest index, as `Name: message`: the lowest index,
   * not the first to finish, so a seeded run reports the same error at any concurrency.
   */
  private firstError: { rollout: number; text: string } | undefined

  constructor(
    readonly plan: Plan,
    readonly seed: number,
  ) {}

  /** Rollout indices requested so far: outcomes exist (or were refused by the budget) below it. */
  get requested(): number {
    return this.outcomes.length
  }

  /**
   * Takes the rollouts `other` ran as this arm's first ones: `other` must replay the same plan
   * under the same seed, so that its rollout r is this arm's rollout r. Nothing is taken when
   * `other` has a gap (a rollout the budget refused), which this arm would never fill.
   */
  reuse(other: Arm): void {
    // `filter` skips the holes a refused rollout leaves, so a shorter result means a gap.
    const ran = other.outcomes.filter((outcome) => outcome !== undefined)
    if (this.outcomes.length > 0 || ran.length !== other.outcomes.length) return
    this.outcomes.push(...other.outcomes)
    this.rolloutsRun = other.rolloutsRun
    this.heldSteps = other.heldSteps
    this.matchedSteps = other.matchedSteps
    this.firstError = other.firstError
  }

  /** Records that rollout `rollout` ended in an error described by `text`. */
  errored(rollout: number, text: string): void {
    this.outcomes[rollout] = 'error'
    if (this.firstError === undefined || rollout < this.firstError.rollout)
      this.firstError = { rollout, text }
  }

  /** The rollouts that ended in an error, or undefined when none did. */
  errors(): ReplayErrors | undefined {
    return this.errorsBelow(Infinity)
  }

  /** {@link errors} among rollout indices below `upTo`. */
  errorsBelow(upTo: number): ReplayErrors | undefined {
    let count = 0
    let of = 0
    const length = Math.min(this.outcomes.length, upTo)
    for (let r = 0; r < length; r++) {
      const outcome = this.outcomes[r]
      if (outcome !== undefined) of++
      if (outcome === 'error') count++
    }
    if (count === 0 || this.firstError === undefined) return undefined
    return { count, of, first: this.firstError.text }
  }

  /** Bad outcomes and scored rollouts (errors and unrun indices left out). */
  scored(): { bad: number; n: number } {
    let bad = 0
    let n = 0
    for (const outcome of this.outcomes) {
      if (outcome === 'bad') bad++
      if (outcome === 'bad' || outcome === 'good') n++
    }
    return { bad, n }
  }
}

/**
 * Differences bad(first) − bad(second) over the rollout indices both arms scored: a pair where either
 * rollout ended in an error (or did not run) is not evaluated and not counted. With `upTo`, only the
 * indices below it: a test at a sample size fixed in advance must not see later pairs.
 */
export function pairedCounts(
  first: Arm,
  second: Arm,
  upTo = Infinity,
): PairedCounts & { n11: number; n22: number } {
  let worse = 0
  let better = 0
  let n11 = 0
  let n22 = 0
  const length = Math.min(first.outcomes.length, second.outcomes.length, upTo)
  for (let r = 0; r < length; r++) {
    const a = first.outcomes[r]
    const b = second.outcomes[r]
    if (a === 'bad' && b === 'bad') n11++
    else if (a === 'bad' && b === 'good') worse++
    else if (a === 'good' && b === 'bad') better++
    else if (a === 'good' && b === 'good') n22++
  }
  return { worse, better, same: n11 + n22, n11, n22 }
}

/** Rollout indices [from, to) of an arm. */
export interface ArmRequest {
  readonly arm: Arm
  readonly from: number
  readonly to: number
}

/**
 * What every replayed rollout of an attribution shares: the attribution's resolved options, which
 * hold its execution context's fields (those of the matchers' attribution, the gate's).
 */
export interface ReplayArmsSettings extends Execution, Pick<RolloutPoolSettings, 'scenario'> {
  isBad: Predicate
  /** Names the caller in messages: `contrastive`, `shapley`. */
  caller: string
  /** The most rollouts the attribution can spend, reported as `total` in progress. */
  total: number
}

/** One requested rollout of an arm, as the pool runs it. */
interface ArmRollout {
  readonly arm: Arm
  readonly seed: number
  readonly plan: Plan
  readonly rollout: number
  readonly signal?: AbortSignal
}

/**
 * The rollouts of one {@link ArmRequest} submitted to the pool ({@link ReplayArms.submit}). A
 * tentative one runs ahead of the look that will ask for it: nothing of it reaches its arm (outcomes,
 * `rolloutsRun`, `requested`, progress) or the judge until it is confirmed, so a look sees exactly
 * the rollouts it would have seen had it been submitted then; withdrawn, it leaves no trace but
 * the cost of what had started.
 */
export interface ArmRun {
  readonly request: ArmRequest
  /**
   * Asked once the run is confirmed: settles once every rollout has settled and been scored,
   * `budgetSpent` when the budget refused some. Rejects with a RolloutAbortedError when the signal
   * aborted, or with what scoring threw (the lowest rollout index's).
   */
  settled(): Promise<{ budgetSpent: boolean }>
  /** The run is needed: its finished rollouts are scored into the arm, and the rest as they finish. */
  confirm(): void
  /** The run is not needed: rollouts not started never start, those running are cancelled. */
  withdraw(): void
}

/**
 * Runs the rollouts of several arms through one {@link RolloutPool}, so `concurrency` bounds the
 * whole attribution and the budget is charged in request order (see the pool), and scores each
 * finished rollout with `isBad` inside its pool slot (an async judge runs as concurrently as the
 * rollouts). Why not `replay` per arm: one pool over every arm keeps that order across arms, and a
 * spent budget stops every arm, not one.
 */
export class ReplayArms {
  errors = 0
  private completed = 0
  private readonly execution: Execution
  private readonly pool: RolloutPool

  constructor(private readonly settings: ReplayArmsSettings) {
    this.execution = createExecution(settings)
    this.pool = new RolloutPool({
      execution: this.execution,
      scenario: settings.scenario,
      onDivergence: 'count',
    })
  }

  /** Rollouts started over every `run` (errors, and a rollout the cost limit stopped, included). */
  get rolloutsUsed(): number {
    return this.pool.started
  }

  /** Rollouts of withdrawn runs that had started: run ahead of a look, then cut off. */
  get rolloutsCutOff(): number {
    return this.pool.cutOff
  }

  /** True once the budget refused a rollout: no later rollout of the attribution starts. */
  get budgetStopped(): boolean {
    return this.pool.budgetSpent
  }

  /**
   * Runs the requested rollouts, in request order. Returns when all have finished or been refused:
   * `budgetSpent` when the budget stopped them. Throws a RolloutAbortedError when `signal` aborted.
   * Errors thrown by `isBad` propagate: a predicate that fails is a bug to fix, not an outcome.
   */
  async run(requests: readonly ArmRequest[]): Promise<{ budgetSpent: boolean }> {
    const tasks: ArmRollout[] = []
    for (const { arm, from, to } of requests) {
      for (let rollout = from; rollout < to; rollout++) {
        // Reserve the index now, so `requested` grows even for rollouts the budget refuses.
        if (arm.outcomes.length <= rollout) arm.outcomes.length = rollout + 1
        tasks.push({ arm, seed: arm.seed, plan: arm.plan, rollout })
      }
    }
    const { ended } = await this.pool.run(tasks, {
      started: (task) => task.arm.rolloutsRun++,
      finished: (task, trajectory) => this.record(task, trajectory),
    })
    if (ended === 'cancelled') {
      throw new RolloutAbortedError(`${this.settings.caller}: cancelled after ${this.rolloutsUsed} rollouts.`)
    }
    return { budgetSpent: ended === 'budget' }
  }

  /**
   * Submits the rollouts of `request` as one run of the pool, queued after every run submitted
   * before it; `tentative`, it waits for {@link ArmRun.confirm} or {@link ArmRun.withdraw} (see
   * {@link ArmRun}). A scoring error is kept with its rollout index, so that the one `settled`
   * rejects with is the lowest index's, whichever order rollouts finished and runs were confirmed in.
   */
  submit(request: ArmRequest, tentative: boolean): ArmRun {
    const { arm, from, to } = request
    const stop = tentative ? new AbortController() : undefined
    const outer = this.execution.signal
    const signal =
      stop === undefined
        ? undefined
        : outer === undefined
          ? stop.signal
          : AbortSignal.any([outer, stop.signal])
    const tasks: ArmRollout[] = []
    for (let rollout = from; rollout < to; rollout++)
      tasks.push({
        arm,
        seed: arm.seed,
        plan: arm.plan,
        rollout,
        ...(signal === undefined ? {} : { signal }),
      })
    let confirmed = !tentative
    let withdrawn = false
    // Rollouts started, and those finished, while the run was tentative.
    let startedAhead = 0
    const finishedAhead: Array<{ task: ArmRollout; trajectory: Trajectory }> = []
    const scorings: Array<Promise<void>> = []
    const failures: Array<{ rollout: number; error: unknown }> = []
    const score = (task: ArmRollout, trajectory: Trajectory): void | Promise<void> => {
      try {
        const value = this.record(task, trajectory)
        if (value !== undefined)
          return value.then(
            undefined,
            (error: unknown) => void failures.push({ rollout: task.rollout, error }),
          )
      } catch (error) {
        failures.push({ rollout: task.rollout, error })
      }
    }
    const reserve = () => {
      // Reserve the indices, so `requested` grows even for rollouts the budget refuses.
      if (arm.outcomes.length < to) arm.outcomes.length = to
    }
    if (confirmed) reserve()
    const submission = this.pool.submit(
      tasks,
      {
        started: (task) => {
          if (confirmed) task.arm.rolloutsRun++
          else startedAhead++
        },
        finished: (task, trajectory) => {
          if (confirmed) return score(task, trajectory)
          finishedAhead.push({ task, trajectory })
        },
      },
      tentative,
    )
    const { result } = submission
    // Observed at once: a run withdrawn before anyone asks must not surface as an unhandled rejection.
    result.catch(() => {})
    const settled = async (): Promise<{ budgetSpent: boolean }> => {
      const { ended } = await result
      if (withdrawn) return { budgetSpent: false }
      await Promise.all(scorings)
      if (failures.length > 0) {
        throw failures.reduce((first, failure) => (failure.rollout < first.rollout ? failure : first)).error
      }
      if (ended === 'cancelled') {
        throw new RolloutAbortedError(
          `${this.settings.caller}: cancelled after ${this.rolloutsUsed} rollouts.`,
        )
      }
      return { budgetSpent: ended === 'budget' }
    }
    return {
      request,
      settled,
      confirm: () => {
        if (confirmed || withdrawn) return
        confirmed = true
        reserve()
        arm.rolloutsRun += startedAhead
        finishedAhead.sort((a, b) => a.task.rollout - b.task.rollout)
        for (const { task, trajectory } of finishedAhead) {
          const scoring = score(task, trajectory)
          if (scoring !== undefined) scorings.push(scoring)
        }
        finishedAhead.length = 0
        submission.confirm()
      },
      withdraw: () => {
        if (confirmed || withdrawn) return
        withdrawn = true
        finishedAhead.length = 0
        submission.withdraw()
        stop?.abort(new RolloutAbortedError('The attribution no longer needs this replay.'))
      },
    }
  }

  /**
   * Scores a finished rollout into its arm's outcomes, and reports progress. Synchronous when
   * `isBad` is: a promise and an async frame per rollout were a large share of what a fast
   * attribution allocated.
   */
  private record({ arm, rollout }: ArmRollout, trajectory: Trajectory): void | Promise<void> {
    arm.heldSteps += trajectory.replay?.heldSteps ?? 0
    arm.matchedSteps += trajectory.replay?.matchedSteps ?? 0
    const { error } = trajectory
    if (error !== undefined) return this.tally(arm, rollout, `${error.name}: ${error.message}`)
    let value: unknown
    try {
      value = this.settings.isBad(trajectory)
    } catch (thrown) {
      return this.tally(arm, rollout, judgeFailure(thrown))
    }
    if (!isPromiseLike(value)) return this.tally(arm, rollout, this.check(value, trajectory))
    return Promise.resolve(value).then(
      (settled) => this.tally(arm, rollout, this.check(settled, trajectory)),
      (thrown: unknown) => this.tally(arm, rollout, judgeFailure(thrown)),
    )
  }

  /** Whether `isBad` said bad, checked to be a boolean. */
  private check(value: unknown, trajectory: Trajectory): boolean {
    return checkPredicateResult(value, {
      caller: this.settings.caller,
      option: 'isBad',
      rollout: trajectory.rollout,
    })
  }

  /** Counts a rollout's outcome: bad, good, or an error (a string: what the rollout or the judge threw). */
  private tally(arm: Arm, rollout: number, bad: boolean | string): void {
    const { settings } = this
    if (typeof bad === 'string') {
      this.errors++
      arm.errored(rollout, bad)
    } else {
      arm.outcomes[rollout] = bad ? 'bad' : 'good'
    }
    this.completed++
    settings.onProgress?.({ completed: this.completed, total: settings.total, errors: this.errors })
  }
}

/**
 * What an error thrown by `isBad` makes of a rollout: an error outcome (its description) when a
 * judge could not say, as in the gates; any other error is rethrown, since a predicate that fails is
 * a bug.
 */
function judgeFailure(error: unknown): string {
  const judgeError = judgeErrorIn(error)
  if (judgeError !== undefined) return `${judgeError.name}: ${judgeError.message}`
  throw error
}

/**
 * The errored replays of many arms as one count, the first error taken from the first arm (in the
 * order they are added) that has one: arms added in a fixed order give the same report at any
 * concurrency. Shapley reports its coalitions' errors this way.
 */
export class ErrorTally {
  private count = 0
  private of = 0
  private first: string | undefined

  add(arm: Arm): void {
    const errors = arm.errors()
    this.of += arm.scored().n + (errors?.count ?? 0)
    if (errors === undefined) return
    this.count += errors.count
    this.first ??= errors.first
  }

  /** The errors of every arm added, or undefined when none errored. */
  report(): ReplayErrors | undefined {
    return this.first === undefined ? undefined : { count: this.count, of: this.of, first: this.first }
  }
}

/** Share of held steps that matched the recording, over every rollout of these arms (1 if none was held). */
export function actionMatchRate(arms: readonly Arm[]): number {
  let held = 0
  let matched = 0
  for (const arm of arms) {
    held += arm.heldSteps
    matched += arm.matchedSteps
  }
  return held === 0 ? 1 : matched / held
}
