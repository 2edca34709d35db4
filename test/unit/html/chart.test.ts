import { describe, expect, it } from 'vitest'
import { niceDomain, renderIntervalChart } from '../../../src/html/chart.js'

describe('niceDomain', () => {
  it('holds 0 and every value on a grid of 0.25', () => {
    expect(niceDomain([0.42, 0.3, 0.55, -0.05])).toEqual({
      domain: [-0.25, 0.75],
      ticks: [-0.25, 0, 0.25, 0.5, 0.75],
    })
    expect(niceDomain([0, 0])).toEqual({ domain: [0, 0.25], ticks: [0, 0.25] })
  })

  it('uses a grid of 0.5 for wide ranges and ignores non-finite values', () => {
    expect(niceDomain([-1.1, 0.9, Number.NaN])).toEqual({
      domain: [-1.5, 1],
      ticks: [-1.5, -1, -0.5, 0, 0.5, 1],
    })
  })
})

describe('renderIntervalChart', () => {
  const chart = renderIntervalChart({
    kind: 'contrastive',
    title: 'effects',
    rows: [
      {
        label: '0  <lookup>',
        interval: { point: -0.5, low: -0.7, high: -0.3 },
        tone: 'rescues',
        highlight: false,
        valueText: '-0.50',
      },
      {
        label: '1  decide',
        interval: { point: 2, low: 1.5, high: 3 },
        tone: 'worsens',
        highlight: true,
        valueText: '+2.00',
      },
      { label: '2  reply', interval: null, tone: 'none', highlight: false, valueText: '' },
    ],
    domain: [-1, 1],
    ticks: [-1, 0, 1],
    axisTitle: 'effect',
  }).source

  it('places points on the axis and clamps what lies outside it', () => {
    // Plot from x = 200 (−1) to x = 540 (+1): −0.5 is at 285; 2 is clamped to the right end.
    expect(chart).toContain('cx="285"')
    expect(chart).toContain('cx="540"')
    expect(chart).toContain('not evaluated')
  })

  it('escapes labels and highlights the locus row', () => {
    expect(chart).toContain('&lt;lookup&gt;')
    expect(chart).not.toContain('<lookup>')
    expect(chart.match(/class="row-locus"/g)).toHaveLength(1)
  })
})
