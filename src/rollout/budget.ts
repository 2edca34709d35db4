import { z } from 'zod'
import { expecting } from '../options/fields.js'
import { parseOptions, type DescribesSchema } from '../options/parse-options.js'
import { BudgetAccount, type ModelSpend, type SubAccountOptions } from './budget-account.js'

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

export type { ModelSpend } from './budget-account.js'

// Set by Budget's static block, which alone can read its private account.
let accountOfBudget: (budget: Budget) => BudgetAccount

/**
 * A shared spending limit: what may be spent, and what has been. Rollouts are charged *before*
 * they start, so `maxRollouts` is never exceeded even at high concurrency; cost is known only after
 * a model call, so a rollout may not start another policy call once the cost limit is reached.
 * Pass one `Budget` to several calls (a gate and its attribution) to make them share the limits.
 *
 * It shows limits and spending; the engine charges through an internal account. Each `check`
 * spends through its own {@link account} of the budget it was given, so the cost its verdict
 * reports is its own even when several checks share one budget, at once or in turn.
 */
export class Budget {
  // Not readonly: `account` sets a sub-account's after construction.
  #account: BudgetAccount

  static {
    accountOfBudget = (budget) => budget.#account
  }

  constructor(limits?: BudgetLimits) {
    // No limits, no parse: every call without a budget makes one, and the first parse of the
    // empty limits set up a schema for nothing to check (see parseOptions for what it saved).
    const parsed =
      limits === undefined ? {} : parseOptions('new Budget', BudgetLimitsSchema, limits, 'limits')
    this.#account = new BudgetAccount(parsed.maxRollouts ?? Infinity, parsed.maxCostUsd ?? Infinity)
  }

  /** Default: unlimited (Infinity). Rollouts that may start, in all (a sub-account's are its parent's). */
  get maxRollouts(): number {
    return this.#account.maxRollouts
  }

  /** Default: unlimited (Infinity). USD that policy calls may cost, in all (a sub-account's are its parent's). */
  get maxCostUsd(): number {
    return this.#account.maxCostUsd
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
  account(options: SubAccountOptions = {}): Budget {
    // Unlimited itself (no parse): every limit is checked against this one's.
    const child = new Budget()
    child.#account = this.#account.subAccount(options)
    return child
  }

  /** Rollouts charged so far. */
  get spentRollouts(): number {
    return this.#account.spentRollouts
  }

  /** USD charged so far. */
  get spentCostUsd(): number {
    return this.#account.spentCostUsd
  }

  /** The model calls charged so far: a copy. */
  get spend(): ModelSpend {
    return this.#account.spend
  }

  /** Rollouts that may still start. */
  get remainingRollouts(): number {
    return this.#account.remainingRollouts
  }

  /** A one-line account for messages: "37/40 rollouts, $0.0123/$0.50" (of the budget whose limits hold). */
  describe(): string {
    return this.#account.describe()
  }
}

/** The engine's account of `budget`: where its rollouts, cost and model calls are charged. */
export function accountOf(budget: Budget): BudgetAccount {
  return accountOfBudget(budget)
}

/** A budget from limits, or the given budget itself (so callers can share one). */
export function toBudget(budget: Budget | BudgetLimits | undefined): Budget {
  return budget instanceof Budget ? budget : new Budget(budget)
}

/**
 * The `budget` option checked and kept as given: what a claim holds, since each check of it makes
 * its own `Budget` from limits. Here rather than with the other fields in `options/`, which sits
 * below `rollout/` and cannot know the class.
 */
export const BudgetInputField = expecting(
  z.union([z.instanceof(Budget), BudgetLimitsSchema]),
  'a Budget or limits { maxRollouts?, maxCostUsd? }',
).optional()

/**
 * The `budget` option of every entry point: limits or a shared `Budget`, resolved to a `Budget`
 * (a fresh unlimited one when absent).
 */
export const BudgetField = BudgetInputField.transform(toBudget)
