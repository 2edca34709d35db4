import { z } from 'zod'
import { expecting } from '../options/fields.js'
import { parseOptions, type DescribesSchema } from '../options/parse-options.js'
import type { ModelRateLimit } from './rate-limit.js'

/** Spending limits. Every limit is optional; a missing one does not limit. */
export interface BudgetLimits {
  /** Default: unlimited. Rollouts (plain, replayed or attribution) that may start. */
  maxRollouts?: number | undefined
  /** Default: unlimited. USD that policy calls may cost (adapters price tokens with your table). */
  maxCostUsd?: number | undefined
}

// Infinity is a limit too (no limit, spelled out), which zod's `z.number()` refuses.
const BudgetLimitsSchema = z.strictObject({
  maxRollouts: expecting(
    z.custom<number>(
      (value) => typeof value === 'number' && value >= 0 && (Number.isInteger(value) || value === Infinity),
    ),
    'a non-negative integer',
  ).optional(),
  maxCostUsd: expecting(
    z.custom<number>((value) => typeof value === 'number' && value >= 0),
    'a non-negative number',
  ).optional(),
})
const _sameLimits: DescribesSchema<BudgetLimits, typeof BudgetLimitsSchema> = true

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
}

/** One model step, as the engine reports it to the budget once the step is recorded. */
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

/** A spend with nothing in it. */
export function emptySpend(): ModelSpend {
  return {
    modelCalls: 0,
    cassetteHits: 0,
    reusedHits: 0,
    inputTokens: 0,
    outputTokens: 0,
    usd: 0,
    unpricedCalls: 0,
    savedUsd: 0,
    unpricedHits: 0,
  }
}

/**
 * A shared spending account. Rollouts are charged *before* they start, so `maxRollouts` is never
 * exceeded even at high concurrency; cost is known only after a model call, so a rollout may not
 * start another policy call once the cost limit is reached. Pass one `Budget` to several calls
 * (a gate and its attribution) to make them share the limits.
 *
 * It also counts model calls ({@link spend}) and may carry the rate limit live model calls wait
 * for. Each `check` spends through its own {@link account} of the budget it was given, so the cost
 * its verdict reports is its own even when several checks share one budget, at once or in turn.
 */
export class Budget {
  private readonly rolloutLimit: number
  private readonly costLimit: number
  private rollouts = 0
  private cost = 0
  private readonly calls: ModelSpend = emptySpend()
  // Set only on a sub-account (see `account`): the account it spends from, whose limits hold.
  private parent: Budget | undefined
  /** A sub-account's own cap on the rollouts it may charge (Infinity: only its parent's limits). */
  private cap = Infinity
  private limit: ModelRateLimit | undefined

  constructor(limits?: BudgetLimits) {
    // No limits, no parse: every call without a budget makes one, and the first parse of the
    // empty limits set up a schema for nothing to check (see parseOptions for what it saved).
    const parsed =
      limits === undefined ? {} : parseOptions('new Budget', BudgetLimitsSchema, limits, 'limits')
    this.rolloutLimit = parsed.maxRollouts ?? Infinity
    this.costLimit = parsed.maxCostUsd ?? Infinity
  }

  /** Default: unlimited (Infinity). Rollouts that may start, in all (a sub-account's are its parent's). */
  get maxRollouts(): number {
    return this.parent?.maxRollouts ?? this.rolloutLimit
  }

  /** Default: unlimited (Infinity). USD that policy calls may cost, in all (a sub-account's are its parent's). */
  get maxCostUsd(): number {
    return this.parent?.maxCostUsd ?? this.costLimit
  }

  /**
   * A sub-account: it spends from this budget's limits (what it spends, this budget spends too)
   * and counts its own spending apart.
   * - `rateLimit` (default: this budget's): the rate limit the live model calls charged to the
   *   sub-account wait for.
   * - `maxRollouts` (default: none of its own): the most rollouts the sub-account may charge, so
   *   one part of a diagnosis cannot spend more than it was allotted however much is left here. A
   *   charge past it is refused before this budget is charged.
   */
  account(options: { rateLimit?: ModelRateLimit | undefined; maxRollouts?: number } = {}): Budget {
    // Unlimited itself (no parse): every limit is checked against `parent`.
    const child = new Budget()
    child.parent = this
    child.limit = options.rateLimit ?? this.limit
    child.cap = Math.max(0, Math.floor(options.maxRollouts ?? Infinity))
    return child
  }

  /** Default: none. The rate limit every live model call charged to this account waits for. */
  get rateLimit(): ModelRateLimit | undefined {
    return this.limit
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

  /** True once the cost limit is reached: no further policy call may start. */
  get costExhausted(): boolean {
    if (this.parent !== undefined) return this.parent.costExhausted
    // A relative tolerance: ten calls at $0.01 sum to 0.09999999999999999 in floating point, and
    // must still reach a $0.10 limit.
    return this.cost >= this.maxCostUsd * (1 - 1e-9)
  }

  /** A one-line account for messages: "37/40 rollouts, $0.0123/$0.50" (of the budget whose limits hold). */
  describe(): string {
    if (this.parent !== undefined) return this.parent.describe()
    const rollouts = Number.isFinite(this.maxRollouts)
      ? `${this.rollouts}/${this.maxRollouts}`
      : `${this.rollouts}`
    const cost = Number.isFinite(this.maxCostUsd) ? `, $${this.cost.toFixed(4)}/$${this.maxCostUsd}` : ''
    return `${rollouts} rollouts${cost}`
  }
}

/** A budget from limits, or the given budget itself (so callers can share one). */
export function toBudget(budget: Budget | BudgetLimits | undefined): Budget {
  return budget instanceof Budget ? budget : new Budget(budget)
}

/**
 * The `budget` option of every entry point: limits or a shared `Budget`, resolved to a `Budget`
 * (a fresh unlimited one when absent). Here rather than with the other fields in `options/`,
 * which sits below `rollout/` and cannot know the class.
 */
export const BudgetField = expecting(
  z.union([z.instanceof(Budget), BudgetLimitsSchema]),
  'a Budget or limits { maxRollouts?, maxCostUsd? }',
)
  .optional()
  .transform(toBudget)
