import { cassetteOf } from '../../cassette/attach.js'
import { deriveSeed } from '../../random/streams.js'
import type { Plan } from '../../rollout/plan.js'
import { PAIRED_E_PROCESS_METHOD } from '../../stats/paired-confidence-sequence.js'
import { clopperPearson, holm, type Estimate, type Interval } from '../../stats/index.js'
import type { Trajectory } from '../../trajectory/schema.js'
import type { ContextAttributionResult } from '../context-schema.js'
import type { ContrastiveResult, ContrastiveStep } from '../schema.js'
import type { ArmSampling } from './arm-options.js'
import {
  compareArms,
  comparisonKind,
  comparisonMethod,
  effectIntervalConfidence,
  fixedRescuePValue,
  intersectLook,
  rescueLogEValue,
  sequentialEffect,
  unboundedEffect,
  type ComparisonKind,
  type RunningEffectBounds,
} from './arm-comparison.js'
import { isFutile, sequentialStop } from './arm-decision.js'
import { LookPipeline } from './look-pipeline.js'
import { combinedPValue, signTestPValue, type FixedSizeTest } from './probe-tests.js'
import {
  actionMatchRate,
  Arm,
  pairedCounts,
  ReplayArms,
  type ArmRequest,
  type ReplayArmsSettings,
} from './replay-arms.js'

/** Where a tested arm stands: not evaluated yet, sampling, or stopped with a decision. */
export type ArmState = 'idle' | 'running' | 'rescue' | 'worsens' | 'negligible' | 'futile' | 'capped'

/** An arm tested against the reference arm of a {@link PairedArms}: its data and its running tests. */
export interface TestedArm {
  readonly arm: Arm
  state: ArmState
  /** Running maximum of ln e-value for "the intervention rescues" over the looks (sequential). */
  maxLogE: number
  /** Running intersection of the effect's confidence sequence over the looks (sequential). */
  bounds: RunningEffectBounds
  /** The most pairs this arm may run: `rollouts`, raised when a search extends it. */
  cap: number
  /** The share of the rescue test's level the e-process keeps; the fixed-sample tests take the rest. */
  readonly eProcessShare: number
  /** Exact sign tests at sample sizes fixed in advance (sequential only): none for most arms. */
  readonly fixedTests: readonly FixedSizeTest[]
  /** Each fixed test's p-value on exactly its first `pairs` pairs; undefined until the arm has them. */
  readonly fixedPValues: Array<number | undefined>
}

/** What an attribution's arms share: the replay settings and the design of the tests. */
export interface PairedArmsSettings extends Omit<ReplayArmsSettings, 'caller' | 'total'>, ArmSampling {
  seed: number
  confidence: number
}

/** Decides, at one look, which arms the caller's multiple-testing procedure rejects now. */
export type RescueRejections<T extends TestedArm> = () => (tested: T) => boolean

/** What every attribution reports of one tested arm (a contrastive step, a context part). */
export type ArmReport = Pick<
  ContrastiveStep,
  'evaluated' | 'pBad' | 'effect' | 'pValue' | 'direction' | 'errors'
>

/**
 * The paired-arms engine under contrastive and context attribution: a reference arm (the baseline,
 * or the intact context) and tested arms (one intervention each), compared pair by pair.
 *
 * Sequential arms advance in batches of `batchSize` pairs up to their cap; after each batch, at a
 * look, each running arm's e-process for "the intervention rescues" (P(bad | arm) < P(bad |
 * reference)) and its effect's confidence sequence are updated, and the arm stops on a rescue the
 * caller's multiple-testing procedure rejects (Holm over the steps or parts, Bonferroni over the
 * spans), on a worsening, once effects of ±`minEffect` are ruled out (see `sequentialStop`), as
 * futile when it only steers a search (see `isFutile`), or at its cap. A fixed-K arm runs its cap
 * in one batch. The reference arm is extended to the longest arm of each batch, first, so every
 * arm's pairs exist when it is looked at. Rollouts go through one pool: a spent budget ends the
 * attribution cleanly (`truncated`) with what was done. Decisions are made at looks, on the looked-at
 * batches' rollouts alone: the next batches run ahead meanwhile ({@link LookPipeline}) but reach no
 * arm until a look asks for them, so a seeded run is byte-identical at any concurrency.
 */
export class PairedArms {
  readonly kind: ComparisonKind
  /** The level of each one-sided rescue test before adjustment: 1 − confidence. */
  readonly alpha: number
  readonly reference: Arm
  /** True once the budget stopped a batch: nothing more runs. */
  truncated = false
  private readonly replay: ReplayArms

  /**
   * `caller` names the attribution in messages; `total` is the most it can spend, reported in
   * progress. The reference arm replays `referencePlan`, under its own seed derived from
   * `referenceLabel` when arms do not share random numbers.
   */
  constructor(
    private readonly settings: PairedArmsSettings,
    referencePlan: Plan,
    referenceLabel: string,
    caller: string,
    total: number,
  ) {
    this.kind = comparisonKind(settings.crn, settings.sequential)
    this.alpha = 1 - settings.confidence
    this.reference = this.arm(referencePlan, referenceLabel)
    this.replay = new ReplayArms({ ...settings, caller, total })
  }

  /** An arm replaying `plan`: under the shared seed (CRN), or under its own, derived from `label`. */
  arm(plan: Plan, label: string): Arm {
    const { crn, seed } = this.settings
    return new Arm(plan, crn ? seed : deriveSeed(seed, label))
  }

  /**
   * `arm` to test against the reference. Default: idle, capped at `rollouts`, the e-process keeping
   * the whole level; `fixedTests` add exact sign tests that take their shares of it.
   */
  tested(
    arm: Arm,
    design: { state?: ArmState; eProcessShare?: number; fixedTests?: readonly FixedSizeTest[] } = {},
  ): TestedArm {
    const fixedTests = design.fixedTests ?? []
    return {
      arm,
      state: design.state ?? 'idle',
      maxLogE: 0,
      bounds: unboundedEffect(),
      cap: this.settings.rollouts,
      eProcessShare: design.eProcessShare ?? 1,
      fixedTests,
      fixedPValues: fixedTests.map(() => undefined),
    }
  }

  /** Rollouts spent so far, the reference arm's included. */
  get rolloutsUsed(): number {
    return this.replay.rolloutsUsed
  }

  /**
   * Runs batches for the running arms of `group`, in `group`'s order (the reference arm first),
   * until none is running or the budget is spent. `futility`: the arms only steer a search, so
   * they may also stop as futile.
   */
  async advance<T extends TestedArm>(
    group: readonly T[],
    rejections: RescueRejections<T>,
    futility = false,
  ): Promise<void> {
    const { sequential, concurrency, lockstep, scenario, runAhead } = this.settings
    // Lockstep unless the user lets replays run ahead (`runAhead`, which costs money), and where
    // nothing runs ahead on purpose: one slot (nothing to fill), the bench's old schedule, and a cassette, whose recorded calls must stay a function of the seed (a replay cut
    // off midway would leave a hole that a warm run fills with a live call).
    const pipelined =
      runAhead > 0 &&
      sequential &&
      concurrency > 1 &&
      lockstep !== true &&
      cassetteOf(scenario.agent) === undefined
    if (!pipelined) {
      await this.advanceInLockstep(group, rejections, futility)
      return
    }
    const pipeline = new LookPipeline(
      this.replay,
      this.reference,
      this.settings.batchSize,
      concurrency,
      runAhead,
    )
    try {
      while (!this.truncated) {
        const running = group.filter((tested) => tested.state === 'running')
        if (running.length === 0) return
        const look = pipeline.look(this.lookRequests(running))
        pipeline.queueAhead(running)
        const { budgetSpent } = await look
        if (budgetSpent) this.truncated = true
        this.look(running, rejections, futility)
      }
    } finally {
      pipeline.withdrawAll()
    }
  }

  /** {@link advance} one batch at a time, each submitted once the look before it has decided. */
  private async advanceInLockstep<T extends TestedArm>(
    group: readonly T[],
    rejections: RescueRejections<T>,
    futility: boolean,
  ): Promise<void> {
    while (!this.truncated) {
      const running = group.filter((tested) => tested.state === 'running')
      if (running.length === 0) return
      const { budgetSpent } = await this.replay.run(this.lookRequests(running))
      if (budgetSpent) this.truncated = true
      this.look(running, rejections, futility)
    }
  }

  /**
   * The batch of the next look: each running arm's next `batchSize` pairs (all `rollouts` at a fixed
   * K) up to its cap, and first the reference arm's extension to the longest of them.
   */
  private lookRequests(running: readonly TestedArm[]): ArmRequest[] {
    const { rollouts, sequential, batchSize } = this.settings
    const batch = sequential ? batchSize : rollouts
    const { reference } = this
    const requests: ArmRequest[] = running.map((tested) => ({
      arm: tested.arm,
      from: tested.arm.requested,
      to: Math.min(tested.cap, tested.arm.requested + batch),
    }))
    const referenceTo = Math.max(...requests.map((request) => request.to))
    if (reference.requested < referenceTo) {
      requests.unshift({ arm: reference, from: reference.requested, to: referenceTo })
    }
    return requests
  }

  /** Decides, after a batch, which running arms stop. */
  private look<T extends TestedArm>(
    running: readonly T[],
    rejections: RescueRejections<T>,
    futility: boolean,
  ): void {
    const { sequential, minEffect, confidence } = this.settings
    const { reference } = this
    if (sequential) {
      for (const tested of running) {
        tested.maxLogE = Math.max(tested.maxLogE, rescueLogEValue(tested.arm, reference))
        // The fixed-sample tests take the rest of the arm's level from the e-process, and the
        // effect's upper end with it (see `sequentialEffect`).
        intersectLook(tested.bounds, tested.arm, reference, confidence, tested.eProcessShare)
        tested.fixedTests.forEach((test, i) => {
          // Exactly the first `pairs` pairs, once: the test's sample size is fixed in advance.
          if (tested.fixedPValues[i] === undefined && tested.arm.rolloutsRun >= test.pairs) {
            tested.fixedPValues[i] = signTestPValue(pairedCounts(tested.arm, reference, test.pairs))
          }
        })
      }
    }
    const rejected = rejections()
    for (const tested of running) {
      if (sequential) {
        if (rejected(tested)) tested.state = 'rescue'
        else {
          const stop = sequentialStop(tested.arm, reference, this.alpha, minEffect)
          tested.state = stop ?? (futility && isFutile(tested.arm, reference) ? 'futile' : 'running')
        }
      }
      if (tested.state === 'running' && tested.arm.rolloutsRun >= tested.cap) tested.state = 'capped'
    }
  }

  /**
   * Raw one-sided p-value of "the intervention rescues", before any multiple-testing adjustment:
   * 1 for an arm not evaluated; sequential, 1 / the e-process's running maximum combined with the
   * arm's fixed-sample tests by weighted Bonferroni; at a fixed K, the fixed-sample test
   * ({@link fixedRescuePValue}).
   */
  rawPValue(tested: TestedArm): number {
    if (tested.state === 'idle' || tested.arm.rolloutsRun === 0) return 1
    if (this.kind === 'sequential') {
      return combinedPValue(tested.maxLogE, tested.eProcessShare, tested.fixedTests, tested.fixedPValues)
    }
    return fixedRescuePValue(this.kind, tested.arm, this.reference)
  }

  /** Holm-adjusted p-values of `arms`, one family: an arm not evaluated counts with p = 1. */
  holmAdjusted(arms: readonly TestedArm[]): number[] {
    return holm(arms.map((tested) => this.rawPValue(tested)))
  }

  /**
   * P(bad | arm) − P(bad | reference), two-sided at {@link effectIntervalConfidence}. Sequential:
   * the running intersection of its confidence sequence, capped below 0 when the arm's own
   * unadjusted rescue test rejects (adjustment only raises a p-value), so a rescue never prints an
   * interval that reaches 0. An arm not evaluated: [−1, 1] around 0.
   */
  effect(tested: TestedArm): Interval {
    const { confidence } = this.settings
    const { arm } = tested
    if (arm.rolloutsRun === 0) {
      return {
        point: 0,
        low: -1,
        high: 1,
        confidence: effectIntervalConfidence(confidence),
        method: comparisonMethod(this.kind),
      }
    }
    if (this.kind === 'sequential') {
      return sequentialEffect(
        arm,
        this.reference,
        confidence,
        tested.bounds,
        this.rawPValue(tested) <= this.alpha,
      )
    }
    return this.compare(arm, this.reference)
  }

  /** P(bad | first) − P(bad | second) at a fixed look (see `compareArms`). */
  compare(first: Arm, second: Arm): Interval {
    return compareArms(this.kind, first, second, this.settings.confidence)
  }

  /**
   * What a result reports of `tested`, whose adjusted p-value is `pValue`. A pair with an error on
   * either side is left out of every test (see `pairedCounts`), so an arm that lost pairs to errors
   * and decided nothing is `undecided`: the lost replays could have gone either way.
   */
  report(tested: TestedArm, pValue: number): ArmReport {
    const { arm } = tested
    const evaluated = arm.rolloutsRun > 0
    const effect = this.effect(tested)
    const errors = arm.errors()
    const lostPairs = errors !== undefined || this.reference.errorsBelow(arm.requested) !== undefined
    return {
      evaluated,
      pBad: this.rate(arm),
      effect,
      pValue,
      direction: !evaluated
        ? 'none'
        : pValue <= this.alpha
          ? 'rescues'
          : effect.low > 0
            ? 'worsens'
            : lostPairs
              ? 'undecided'
              : 'none',
      ...(errors === undefined ? {} : { errors }),
    }
  }

  /**
   * P(bad | arm) over its scored rollouts, with the Clopper–Pearson interval: it holds its level at
   * every rate, where Wilson's dips under it near 0 and 1, which is where arms that rescue or
   * reproduce a failure live.
   */
  rate(arm: Arm): Estimate {
    const { bad, n } = arm.scored()
    return clopperPearson(bad, n, this.settings.confidence)
  }

  /** The run a result explains: agent, factual handle and replay seed. */
  subject(factual: Trajectory): Pick<ContextAttributionResult, 'agent' | 'factual' | 'seed'> {
    return {
      agent: factual.agent,
      factual: { seed: factual.seed, rollout: factual.rollout },
      seed: this.settings.seed,
    }
  }

  /** What the run spent: the action match rate over the reference and `arms`, and the rollouts. */
  spend(arms: readonly Arm[]): Pick<ContrastiveResult, 'actionMatchRate' | 'rolloutsUsed'> {
    return { actionMatchRate: actionMatchRate([this.reference, ...arms]), rolloutsUsed: this.rolloutsUsed }
  }

  /**
   * How the arms were compared, with the method names: `sequentialEffect` names a sequential
   * arm's effect intervals, `sequentialRules` adds the caller's own rules to the stopping rule.
   */
  design(
    sequentialEffectMethod: string,
    sequentialRules = '',
  ): Pick<ContrastiveResult, 'crn' | 'sequential' | 'confidence' | 'correction' | 'methods'> {
    const { crn, sequential, confidence, batchSize, minEffect } = this.settings
    return {
      crn,
      sequential,
      confidence,
      correction: 'holm',
      methods: {
        proportion: 'clopper-pearson',
        effect: this.kind === 'sequential' ? sequentialEffectMethod : comparisonMethod(this.kind),
        sequential: sequential
          ? `${PAIRED_E_PROCESS_METHOD}: looks every ${batchSize} rollouts; an arm stops on a Holm-significant rescue, on a worsening, or once effects of ±${minEffect} or more are ruled out${sequentialRules}`
          : null,
      },
    }
  }
}
