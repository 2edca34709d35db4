import { describe, expect, it } from 'vitest'
import { formatSummaryTable, type SummaryRow } from '../../../src/text/summary-table.js'
import { wilson } from '../../../src/stats/wilson.js'

const plain: SummaryRow = {
  test: 'coin > rarely tails',
  file: 'coin.test.ts',
  verdict: 'pass',
  rate: wilson(1, 72),
  rollouts: 72,
  locus: null,
  cost: {
    modelCalls: 0,
    cassetteHits: 0,
    inputTokens: 0,
    outputTokens: 0,
    usd: null,
    unpricedCalls: 0,
    savedUsd: null,
  },
}

const withModel: SummaryRow = {
  test: 'support > injected: rarely refunds',
  file: 'support.test.ts',
  verdict: 'fail',
  rate: wilson(9, 16),
  rollouts: 16,
  locus: { index: 0, name: 'decide#1' },
  cost: {
    modelCalls: 412,
    cassetteHits: 380,
    inputTokens: 90_000,
    outputTokens: 8210,
    usd: 0.0123,
    unpricedCalls: 0,
    savedUsd: 0.118,
  },
}

describe('formatSummaryTable with model calls', () => {
  it('adds a cost column and the run total only when an assertion made model calls', () => {
    expect(formatSummaryTable([withModel, plain])).toMatchInlineSnapshot(`
      "causal-replay: 2 rate assertions — 1 fail, 0 inconclusive, 1 pass
        test                                                  verdict  rate [interval]                 rollouts  cost                               locus
        support.test.ts > support > injected: rarely refunds  fail     56.3% [33.2%–76.9%] 95% Wilson        16  412 calls (380 cassette), $0.0123  0 decide#1
        coin.test.ts > coin > rarely tails                    pass     1.4% [0.25%–7.5%] 95% Wilson          72  —                                  —
        total cost: 412 model calls (380 from the cassette), 98,210 tokens, $0.0123; the cassette saved $0.1180"
    `)
  })

  it('keeps the table of a run without model calls as it was', () => {
    const { cost: _cost, ...withoutCost } = plain
    expect(formatSummaryTable([plain])).toBe(formatSummaryTable([withoutCost]))
    expect(formatSummaryTable([plain])).not.toMatch(/cost/)
  })
})
