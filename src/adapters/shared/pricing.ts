import { z } from 'zod'
import { InvalidOptionError } from '../../errors.js'
import type { Json } from '../../json.js'
import { expecting } from '../../options/fields.js'
import { describeReceived } from '../../options/received.js'

/** What a model's tokens cost, in USD per million tokens. */
export interface TokenPrice {
  /** USD per million input (prompt) tokens. */
  readonly inputPerMTok: number
  /** USD per million output (completion, reasoning included) tokens. */
  readonly outputPerMTok: number
  /** Default: `inputPerMTok`. USD per million input tokens read from the provider's prompt cache. */
  readonly cachedInputPerMTok?: number
}

/** Token prices by model id, e.g. `{ 'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 } }`. */
export type PriceTable = Readonly<Record<string, TokenPrice>>

const PRICE_TABLE = 'an object of token prices by model id'

/**
 * The `prices` option of a `wrapModel` schema: only its shape, because {@link checkPriceTable}
 * checks the entries once the wrapped model's id is known (which it must price).
 */
export const PriceTableField = expecting(z.custom<PriceTable>(isObject), PRICE_TABLE)

/** The tokens of one model call; counts a provider did not report are undefined (and cost nothing). */
export interface TokenCounts {
  readonly inputTokens: number | undefined
  readonly cachedInputTokens: number | undefined
  readonly outputTokens: number | undefined
}

/**
 * Checks a price table once, when a model is wrapped, so a typo fails at once and not after the
 * first paid call: every price must be a finite non-negative number, and `modelId` must be priced.
 */
export function checkPriceTable(prices: PriceTable, modelId: string, caller: string): void {
  if (!isObject(prices)) {
    throw new InvalidOptionError({
      caller,
      option: 'prices',
      expected: PRICE_TABLE,
      received: describeReceived(prices),
    })
  }
  for (const [id, price] of Object.entries(prices)) {
    for (const field of ['inputPerMTok', 'outputPerMTok', 'cachedInputPerMTok'] as const) {
      const value = (price as Partial<TokenPrice> | undefined)?.[field]
      if (value === undefined && field === 'cachedInputPerMTok') continue
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        throw new InvalidOptionError({
          caller,
          option: `prices[${JSON.stringify(id)}].${field}`,
          expected: 'a non-negative number of USD per million tokens',
          received: describeReceived(value),
        })
      }
    }
  }
  priceOf(prices, modelId, caller)
}

/** The price of `modelId`, or an error naming the table's models. */
export function priceOf(prices: PriceTable, modelId: string, caller: string): TokenPrice {
  const price = Object.hasOwn(prices, modelId) ? prices[modelId] : undefined
  if (price === undefined) {
    const known = Object.keys(prices).map((id) => JSON.stringify(id))
    throw new InvalidOptionError({
      caller,
      option: 'prices',
      expected: `a table with an entry for model ${JSON.stringify(modelId)}`,
      received: known.length === 0 ? 'an empty table' : `entries for ${known.join(', ')} only`,
      hint: 'Add one so its calls count against budget.maxCostUsd.',
    })
  }
  return price
}

/**
 * The `costUsd` option of an adapter's model step: its answer priced from `prices` by the model that
 * answered (`modelOf`) and the tokens it used (`tokensOf`). No option without a price table, so an
 * unpriced call counts its tokens and no USD.
 */
export function costOption(
  prices: PriceTable | undefined,
  caller: string,
  modelOf: (action: Json) => string,
  tokensOf: (action: Json) => TokenCounts,
): { costUsd?: (action: Json) => number } {
  if (prices === undefined) return {}
  return { costUsd: (action) => tokenCost(priceOf(prices, modelOf(action), caller), tokensOf(action)) }
}

/** USD for `tokens` at `price`. Cached input tokens are part of the input tokens, priced apart when the table says so. */
export function tokenCost(price: TokenPrice, tokens: TokenCounts): number {
  const input = tokens.inputTokens ?? 0
  const cached = Math.min(tokens.cachedInputTokens ?? 0, input)
  const cachedPrice = price.cachedInputPerMTok ?? price.inputPerMTok
  const output = tokens.outputTokens ?? 0
  return ((input - cached) * price.inputPerMTok + cached * cachedPrice + output * price.outputPerMTok) / 1e6
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
