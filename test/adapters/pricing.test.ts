import { describe, expect, test } from 'vitest'
import { checkPriceTable, priceOf, tokenCost } from '../../src/adapters/shared/pricing.js'
import { InvalidOptionError } from '../../src/entries/errors.js'

describe('token pricing', () => {
  test('cost = input × input price + cached input × cached price + output × output price, per million', () => {
    const price = { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 }
    // 1000 input tokens of which 400 cached, 200 output: (600 × 2.5 + 400 × 1.25 + 200 × 10) / 1e6
    expect(tokenCost(price, { inputTokens: 1000, cachedInputTokens: 400, outputTokens: 200 })).toBeCloseTo(
      0.004,
      15,
    )
    // Without a cached price, cached tokens cost the input price.
    expect(
      tokenCost(
        { inputPerMTok: 2.5, outputPerMTok: 10 },
        { inputTokens: 1000, cachedInputTokens: 400, outputTokens: 200 },
      ),
    ).toBeCloseTo(0.0045, 15)
    // Counts a provider did not report cost nothing; cached never exceeds input.
    expect(
      tokenCost(price, { inputTokens: undefined, cachedInputTokens: undefined, outputTokens: undefined }),
    ).toBe(0)
    expect(tokenCost(price, { inputTokens: 10, cachedInputTokens: 50, outputTokens: 0 })).toBeCloseTo(
      (10 * 1.25) / 1e6,
      15,
    )
  })

  test('a bad table fails when the model is wrapped, naming the entry and field', () => {
    expect(() =>
      checkPriceTable({ m: { inputPerMTok: 1, outputPerMTok: Number.NaN } }, 'm', 'wrapModel'),
    ).toThrow(
      'wrapModel: `prices["m"].outputPerMTok` must be a non-negative number of USD per million tokens, got NaN.',
    )
    expect(() =>
      checkPriceTable({ m: { inputPerMTok: 1, outputPerMTok: 1, cachedInputPerMTok: -1 } }, 'm', 'wrapModel'),
    ).toThrow(/prices\["m"\]\.cachedInputPerMTok/)
    expect(() => checkPriceTable([] as never, 'm', 'wrapModel')).toThrow(
      'wrapModel: `prices` must be an object of token prices by model id, got an array.',
    )
    expect(() => checkPriceTable({ a: { inputPerMTok: 1, outputPerMTok: 1 } }, 'b', 'wrapModel')).toThrow(
      InvalidOptionError,
    )
  })

  test('a model missing from the table is named, with the models the table has', () => {
    expect(() => priceOf({ a: { inputPerMTok: 1, outputPerMTok: 1 } }, 'b', 'wrapModel')).toThrow(
      'wrapModel: `prices` must be a table with an entry for model "b", got entries for "a" only. Add one so its calls count against budget.maxCostUsd.',
    )
    // Inherited keys are not entries.
    expect(() => priceOf({}, 'toString', 'wrapModel')).toThrow(
      /with an entry for model "toString", got an empty table\./,
    )
  })
})
