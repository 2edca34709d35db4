import { describe, expect, it } from 'vitest'
import { costCell, formatCostLine, sumCosts } from '../../../src/text/cost.js'
import type { ModelCost } from '../../../src/verdict/schema.js'

const NONE: ModelCost = {
  modelCalls: 0,
  cassetteHits: 0,
  inputTokens: 0,
  outputTokens: 0,
  usd: null,
  unpricedCalls: 0,
  savedUsd: null,
}
const cost = (fields: Partial<ModelCost>): ModelCost => ({ ...NONE, ...fields })

describe('formatCostLine', () => {
  it('is absent without model calls (a synthetic agent), and for verdicts from before it was counted', () => {
    expect(formatCostLine(NONE)).toBeNull()
    expect(formatCostLine(undefined)).toBeNull()
  })

  it('counts calls, cassette hits, tokens of live calls, USD, and what the cassette saved', () => {
    expect(
      formatCostLine(
        cost({
          modelCalls: 412,
          cassetteHits: 380,
          inputTokens: 90_000,
          outputTokens: 8210,
          usd: 0.0123,
          savedUsd: 0.118,
        }),
      ),
    ).toBe(
      'cost: 412 model calls (380 from the cassette), 98,210 tokens, $0.0123; the cassette saved $0.1180',
    )
  })

  it('says USD is unknown when no call was priced, and counts the unpriced calls beside a partial price', () => {
    expect(formatCostLine(cost({ modelCalls: 12, inputTokens: 3000, outputTokens: 400 }))).toBe(
      'cost: 12 model calls, 3,400 tokens, USD unknown (no prices)',
    )
    expect(
      formatCostLine(
        cost({ modelCalls: 12, inputTokens: 3000, outputTokens: 400, usd: 0.004, unpricedCalls: 2 }),
      ),
    ).toBe('cost: 12 model calls, 3,400 tokens, $0.0040 + 2 unpriced calls')
  })

  it('says nothing was spent when a cassette answered every call; unpriced hits say nothing about savings', () => {
    expect(formatCostLine(cost({ modelCalls: 40, cassetteHits: 40, savedUsd: 0.095 }))).toBe(
      'cost: 40 model calls (all from the cassette), nothing spent; the cassette saved $0.0950',
    )
    expect(formatCostLine(cost({ modelCalls: 1, cassetteHits: 1 }))).toBe(
      'cost: 1 model call (all from the cassette), nothing spent',
    )
  })
})

describe('formatCostLine on repeats within a run', () => {
  it('calls repeats of a call the run made "reused within this run", apart from hits read from the file', () => {
    expect(
      formatCostLine(
        cost({
          modelCalls: 330,
          cassetteHits: 130,
          reusedHits: 130,
          inputTokens: 24_000,
          outputTokens: 4000,
          usd: 0.054,
          savedUsd: 0.033,
        }),
      ),
    ).toBe(
      'cost: 330 model calls (130 reused within this run), 28,000 tokens, $0.0540; the cassette saved $0.0330',
    )
    expect(formatCostLine(cost({ modelCalls: 50, cassetteHits: 45, reusedHits: 5, usd: 0.01 }))).toBe(
      'cost: 50 model calls (40 from the cassette, 5 reused within this run), 0 tokens, $0.0100',
    )
    expect(formatCostLine(cost({ modelCalls: 8, cassetteHits: 8, reusedHits: 8 }))).toBe(
      'cost: 8 model calls (all reused within this run), nothing spent',
    )
    expect(costCell(cost({ modelCalls: 50, cassetteHits: 45, reusedHits: 5, usd: 0.01 }))).toBe(
      '50 calls (40 cassette, 5 reused), $0.0100',
    )
    expect(
      sumCosts([cost({ modelCalls: 2, cassetteHits: 1, reusedHits: 1 }), cost({ modelCalls: 1 })]),
    ).toMatchObject({
      cassetteHits: 1,
      reusedHits: 1,
    })
  })
})

describe('costCell', () => {
  it('is short enough for a table column', () => {
    expect(costCell(undefined)).toBe('—')
    expect(costCell(NONE)).toBe('—')
    expect(costCell(cost({ modelCalls: 412, cassetteHits: 380, usd: 0.0123 }))).toBe(
      '412 calls (380 cassette), $0.0123',
    )
    expect(costCell(cost({ modelCalls: 1 }))).toBe('1 call, unpriced')
    expect(costCell(cost({ modelCalls: 3, cassetteHits: 3 }))).toBe('3 calls (3 cassette), nothing spent')
  })
})

describe('sumCosts', () => {
  it('adds up counts; USD stays null only when no assertion priced a call', () => {
    expect(sumCosts([undefined, undefined])).toBeUndefined()
    const total = sumCosts([
      cost({ modelCalls: 2, inputTokens: 10, outputTokens: 1, usd: 0.5, savedUsd: null }),
      undefined,
      cost({
        modelCalls: 3,
        cassetteHits: 1,
        inputTokens: 5,
        outputTokens: 2,
        unpricedCalls: 2,
        savedUsd: 0.25,
      }),
    ])
    expect(total).toEqual({
      modelCalls: 5,
      cassetteHits: 1,
      inputTokens: 15,
      outputTokens: 3,
      usd: 0.5,
      unpricedCalls: 2,
      savedUsd: 0.25,
    })
    expect(sumCosts([cost({ modelCalls: 1 }), cost({ modelCalls: 2 })])?.usd).toBeNull()
  })
})
