import type { ModelRateLimit } from './rate-limit.js'

/**
 * What model calls cost, counted step by step: every step that names a `model` and either called
 * its policy (a live call) or was answered from a cassette (a hit).
 */
export interface ModelSpend {
  /** Model calls, live and cassette hits. */
  modelCalls: number
  /** Of those, the ones a cassette answered: no call, nothing spent. */
  cassetteHits: number
  /** Of the hits, those answered by a call made earlier in the same run (a repeated key), not by the file. */
  reusedHits: number
  /** Input tokens of live calls, as the adapters record them in the step's meta (cached ones included). */
  inputTokens: number
  /** Output tokens of live calls. */
  outputTokens: number
  /** USD of the live calls that were priced (their step has a `costUsd`). */
  usd: number
  /** Live calls without a price: their cost is not in `usd`. */
  unpricedCalls: number
  /** USD that cassette hits would have cost (their `savedUsd`). */
  savedUsd: number
  /** Cassette hits without a price: what they saved is not in `savedUsd`. */
  unpricedHits: number
  /**
   * Rollouts cancelled while they ran, once the claim that started them had decided (or its test
   * was stopped): paid for, never scored.
   */
  abortedRollouts: number
  /** Model calls those rollouts made before they were cancelled (counted in `modelCalls` too). */
  abortedModelCalls: number
  /** Live model calls in flight when their rollout was cancelled: cut off, not in `modelCalls`. */
  cutModelCalls: number
}

/** One model step, as the engine reports it to the account once the step is recorded. */
export type ModelCallCharge =
  | {
      kind: 'live'
      inputTokens: number
      outputTokens: number
      /** Undefined when the call was not priced. */
      usd: number | undefined
    }
  | {
      kind: 'cassette-hit'
      /** Undefined when the hit was not priced. */
      savedUsd: number | undefined
      /** True when a call made earlier in the run answered it (a repeated key), not the file. */
      reused: boolean
    }

/** What a sub-account takes besides its parent. */
export interface SubAccountOptions {
  /** Default: the parent's. The rate limit the live model calls charged to the sub-account wait for. */
  rateLimit?: ModelRateLimit | undefined
  /** Default: none of its own. The most rollouts the sub-account may charge. */
  maxRollouts?: number
}

/**
 * The engine's side of a `Budget`: where rollouts, cost and model calls are charged. Rollouts are
 * charged *before* they start, so `maxRollouts` is never exceeded even at high concurrency; cost is
 * known only after a model call, so a rollout may not start another policy call once the cost limit
 * is reached. A sub-account spends from its parent's limits (what it spends, the parent spends too)
 * and counts its own spending apart, so that a check sharing a budget still reports its own cost.
 */
export class BudgetAccount {
  private rollouts = 0
  private cost = 0
  private readonly calls: ModelSpend = {
    modelCalls: 0,
    cassetteHits: 0,
    reusedHits: 0,
    inputTokens: 0,
    outputTokens: 0,
    usd: 0,
    unpricedCalls: 0,
    savedUsd: 0,
    unpricedHits: 0,
    abortedRollouts: 0,
    abortedModelCalls: 0,
    cutModelCalls: 0,
  }

  /**
   * @param rolloutLimit the rollouts that may start in all (a sub-account: its parent's)
   * @param costLimit the USD policy calls may cost in all (a sub-account: its parent's)
   * @param parent the account a sub-account spends from, whose limits hold
   * @param cap a sub-account's own cap on the rollouts it may charge (Infinity: none)
   * @param rateLimit the rate limit every live model call charged here waits for
   */
  constructor(
    private readonly rolloutLimit: number,
    private readonly costLimit: number,
    private readonly parent: BudgetAccount | undefined = undefined,
    private readonly cap = Infinity,
    readonly rateLimit: ModelRateLimit | undefined = undefined,
  ) {}

  /** A sub-account of this one (see the class comment). */
  subAccount(options: SubAccountOptions): BudgetAccount {
    // Its own limits are unlimited: every limit is checked against the parent's.
    return new BudgetAccount(
      Infinity,
      Infinity,
      this,
      Math.max(0, Math.floor(options.maxRollouts ?? Infinity)),
      options.rateLimit ?? this.rateLimit,
    )
  }

  /** Rollouts that may start, in all. */
  get maxRollouts(): number {
    return this.parent?.maxRollouts ?? this.rolloutLimit
  }

  /** USD that policy calls may cost, in all. */
  get maxCostUsd(): number {
    return this.parent?.maxCostUsd ?? this.costLimit
  }

  /** Rollouts charged so far. */
  get spentRollouts(): number {
    return this.rollouts
  }

  /** USD charged so far. */
  get spentCostUsd(): number {
    return this.cost
  }

  /** The model calls charged so far: a copy. */
  get spend(): ModelSpend {
    return { ...this.calls }
  }

  /** Rollouts that may still start. */
  get remainingRollouts(): number {
    return this.parent === undefined
      ? this.maxRollouts - this.rollouts
      : Math.min(this.parent.remainingRollouts, this.cap - this.rollouts)
  }

  /** Charges `count` rollouts if they fit; returns false (and charges nothing) if they do not. */
  tryChargeRollouts(count = 1): boolean {
    if (this.parent === undefined) {
      if (this.rollouts + count > this.maxRollouts) return false
    } else if (this.rollouts + count > this.cap || !this.parent.tryChargeRollouts(count)) return false
    this.rollouts += count
    return true
  }

  /**
   * Gives back `count` rollouts charged by {@link tryChargeRollouts} (here and in the parents):
   * rollouts an attribution ran ahead of its next look and then cut off, which held their charge
   * only while they ran, so that what the budget counts, and where it runs out, are the rollouts the
   * attribution used (see `RolloutPool.withdraw`).
   */
  refundRollouts(count: number): void {
    this.parent?.refundRollouts(count)
    this.rollouts -= count
  }

  /** Charges the cost of a policy call that already happened. */
  chargeCost(usd: number): void {
    this.parent?.chargeCost(usd)
    this.cost += usd
  }

  /** Counts a model step (a live call or a cassette hit). Its USD goes through {@link chargeCost}. */
  chargeModelCall(charge: ModelCallCharge): void {
    this.parent?.chargeModelCall(charge)
    const calls = this.calls
    calls.modelCalls++
    if (charge.kind === 'cassette-hit') {
      calls.cassetteHits++
      if (charge.reused) calls.reusedHits++
      if (charge.savedUsd === undefined) calls.unpricedHits++
      else calls.savedUsd += charge.savedUsd
      return
    }
    calls.inputTokens += charge.inputTokens
    calls.outputTokens += charge.outputTokens
    if (charge.usd === undefined) calls.unpricedCalls++
    else calls.usd += charge.usd
  }

  /**
   * Counts a rollout cancelled while it ran: the model calls it had made (already counted by
   * {@link chargeModelCall}) and the live calls its cancellation cut off.
   */
  chargeAbortedRollout(modelCalls: number, cutModelCalls: number): void {
    this.parent?.chargeAbortedRollout(modelCalls, cutModelCalls)
    this.calls.abortedRollouts++
    this.calls.abortedModelCalls += modelCalls
    this.calls.cutModelCalls += cutModelCalls
  }

  /** True once the cost limit is reached: no further policy call may start. */
  get costExhausted(): boolean {
    if (this.parent !== undefined) return this.parent.costExhausted
    // A relative tolerance: ten calls at $0.01 sum to 0.09999999999999999 in floating point, and
    // must still reach a $0.10 limit.
    return this.cost >= this.maxCostUsd * (1 - 1e-9)
  }

  /** A one-line account for messages: "37/40 rollouts, $0.0123/$0.50" (of the account whose limits hold). */
  describe(): string {
    if (this.parent !== undefined) return this.parent.describe()
    const rollouts = Number.isFinite(this.maxRollouts)
      ? `${this.rollouts}/${this.maxRollouts}`
      : `${this.rollouts}`
    const cost = Number.isFinite(this.maxCostUsd) ? `, $${this.cost.toFixed(4)}/$${this.maxCostUsd}` : ''
    return `${rollouts} rollouts${cost}`
  }
}
