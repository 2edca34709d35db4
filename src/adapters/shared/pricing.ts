import { InvalidOptionError } from '../../errors.js'

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
  if (typeof prices !== 'object' || prices === null || Array.isArray(prices)) {
    throw new InvalidOptionError(`${caller}: \`prices\` must be an object of token prices by model id.`)
  }
  for (const [id, price] of Object.entries(prices)) {
    for (const field of ['inputPerMTok', 'outputPerMTok', 'cachedInputPerMTok'] as const) {
      const value = (price as Partial<TokenPrice> | undefined)?.[field]
      if (value === undefined && field === 'cachedInputPerMTok') continue
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        throw new InvalidOptionError(
          `${caller}: \`prices["${id}"].${field}\` must be a non-negative number of USD per million tokens, got ${String(value)}.`,
        )
      }
    }
  }
  priceOf(prices, modelId, caller)
}

/** The price of `modelId`, or an error naming the table's models. */
export function priceOf(prices: PriceTable, modelId: string, caller: string): TokenPrice {
  const price = Object.hasOwn(prices, modelId) ? prices[modelId] : undefined
  if (price === undefined) {
    const known = Object.keys(prices)
    throw new InvalidOptionError(
      `${caller}: \`prices\` has no entry for model "${modelId}" (it prices ${known.length === 0 ? 'no model' : known.map((id) => `"${id}"`).join(', ')}); add one so its calls count against budget.maxCostUsd.`,
    )
  }
  return price
}

/** USD for `tokens` at `price`. Cached input tokens are part of the input tokens, priced apart when the table says so. */
export function tokenCost(price: TokenPrice, tokens: TokenCounts): number {
  const input = tokens.inputTokens ?? 0
  const cached = Math.min(tokens.cachedInputTokens ?? 0, input)
  const cachedPrice = price.cachedInputPerMTok ?? price.inputPerMTok
  const output = tokens.outputTokens ?? 0
  return ((input - cached) * price.inputPerMTok + cached * cachedPrice + output * price.outputPerMTok) / 1e6
}
