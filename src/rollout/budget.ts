import { z } from 'zod'
import { expecting } from '../options/fields.js'
import { parseOptions, type DescribesSchema } from '../options/parse-options.js'

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
 * A shared spending account. Rollouts are charged *before* they start, so `maxRollouts` is never
 * exceeded even at high concurrency; cost is known only after a model call, so a rollout may not
 * start another policy call once the cost limit is reached. Pass one `Budget` to several calls
 * (a gate and its attribution) to make them share the limits.
 */
export class Budget {
  readonly maxRollouts: number
  readonly maxCostUsd: number
  private rollouts = 0
  private cost = 0

  constructor(limits?: BudgetLimits) {
    // No limits, no parse: every call without a budget makes one, and the first parse of the
    // empty limits set up a schema for nothing to check (see parseOptions for what it saved).
    const parsed =
      limits === undefined ? {} : parseOptions('new Budget', BudgetLimitsSchema, limits, 'limits')
    this.maxRollouts = parsed.maxRollouts ?? Infinity
    this.maxCostUsd = parsed.maxCostUsd ?? Infinity
  }

  /** Rollouts charged so far. */
  get spentRollouts(): number {
    return this.rollouts
  }

  /** USD charged so far. */
  get spentCostUsd(): number {
    return this.cost
  }

  /** Rollouts that may still start. */
  get remainingRollouts(): number {
    return this.maxRollouts - this.rollouts
  }

  /** Charges `count` rollouts if they fit; returns false (and charges nothing) if they do not. */
  tryChargeRollouts(count = 1): boolean {
    if (this.rollouts + count > this.maxRollouts) return false
    this.rollouts += count
    return true
  }

  /** Charges the cost of a policy call that already happened. */
  chargeCost(usd: number): void {
    this.cost += usd
  }

  /** True once the cost limit is reached: no further policy call may start. */
  get costExhausted(): boolean {
    // A relative tolerance: ten calls at $0.01 sum to 0.09999999999999999 in floating point, and
    // must still reach a $0.10 limit.
    return this.cost >= this.maxCostUsd * (1 - 1e-9)
  }

  /** A one-line account for messages: "37/40 rollouts, $0.0123/$0.50". */
  describe(): string {
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
