import { markup, type Markup } from './markup.js'
import { cutEnd } from './json-text.js'

/** One row of an interval chart: a step, its point estimate and interval (or none), and how to draw it. */
export interface ChartRow {
  /** The row's label (agent text: escaped). */
  label: string
  /** Null draws a "not evaluated" note instead of a whisker. */
  interval: { point: number; low: number; high: number } | null
  /** Colors the whisker: rescue (good), worsen (bad), no significant effect (muted), or a plain value. */
  tone: 'rescues' | 'worsens' | 'none' | 'value'
  /** Draws the row on the locus background. */
  highlight: boolean
  /** The numbers printed at the right of the row. */
  valueText: string
}

/** An interval chart: rows of whiskers on a shared horizontal axis. */
export interface ChartSpec {
  /** `data-chart` of the SVG element ("contrastive", "shapley"). */
  kind: string
  /** The accessible name of the chart. */
  title: string
  rows: readonly ChartRow[]
  /** The axis range; values outside are clamped to it (and the printed numbers stay exact). */
  domain: readonly [number, number]
  ticks: readonly number[]
  axisTitle: string
}

const WIDTH = 760
const PLOT_LEFT = 200
const PLOT_RIGHT = 540
const VALUE_LEFT = 556
const TOP = 30
const ROW_HEIGHT = 34
const BOTTOM = 34
const LABEL_CHARACTERS = 26

/**
 * Inline SVG of a dot-and-whisker chart (point estimate and interval per row) with a zero line.
 * Colors come from CSS classes, so the chart follows the page's light or dark palette.
 */
export function renderIntervalChart(spec: ChartSpec): Markup {
  const [low, high] = spec.domain
  const x = (value: number) =>
    PLOT_LEFT + ((Math.min(high, Math.max(low, value)) - low) / (high - low)) * (PLOT_RIGHT - PLOT_LEFT)
  const height = TOP + spec.rows.length * ROW_HEIGHT + BOTTOM
  const plotBottom = TOP + spec.rows.length * ROW_HEIGHT
  const grid = spec.ticks.map(
    (
      tick,
    ) => markup`<line class="${tick === 0 ? 'zero' : 'grid'}" x1="${round(x(tick))}" x2="${round(x(tick))}" y1="${TOP - 6}" y2="${plotBottom}"/>
<text class="axis-text" x="${round(x(tick))}" y="${TOP - 12}" text-anchor="middle">${tickLabel(tick)}</text>`,
  )
  const rows = spec.rows.map((row, index) => {
    const middle = TOP + index * ROW_HEIGHT + ROW_HEIGHT / 2
    const background = row.highlight
      ? markup`<rect class="row-locus" x="2" y="${middle - ROW_HEIGHT / 2 + 2}" width="${WIDTH - 4}" height="${ROW_HEIGHT - 4}" rx="6"/>`
      : null
    const label = markup`<text class="row-label${row.highlight ? ' label-locus' : ''}" x="12" y="${middle + 4.5}">${cutEnd(row.label, LABEL_CHARACTERS)}<title>${row.label}</title></text>`
    if (row.interval === null) {
      return markup`<g class="chart-row" data-row="${index}">${background}${label}<text class="value-text is-muted" x="${PLOT_LEFT}" y="${middle + 4.5}">not evaluated</text></g>`
    }
    const { point, low: from, high: to } = row.interval
    return markup`<g class="chart-row" data-row="${index}" data-tone="${row.tone}">${background}${label}
<line class="whisker tone-${row.tone}" x1="${round(x(from))}" x2="${round(x(to))}" y1="${middle}" y2="${middle}"/>
<line class="whisker tone-${row.tone}" x1="${round(x(from))}" x2="${round(x(from))}" y1="${middle - 6}" y2="${middle + 6}"/>
<line class="whisker tone-${row.tone}" x1="${round(x(to))}" x2="${round(x(to))}" y1="${middle - 6}" y2="${middle + 6}"/>
<circle class="tone-${row.tone}" cx="${round(x(point))}" cy="${middle}" r="5.5"/>
<text class="value-text value-${row.tone}" x="${VALUE_LEFT}" y="${middle + 4.5}">${row.valueText}</text></g>`
  })
  return markup`<svg class="chart" data-chart="${spec.kind}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${spec.title}">
${grid}
${rows}
<text class="axis-text" x="${(PLOT_LEFT + PLOT_RIGHT) / 2}" y="${height - 10}" text-anchor="middle">${spec.axisTitle}</text>
</svg>`
}

/**
 * A readable axis for values that may leave [-1, 1] (Shapley intervals are CLT intervals):
 * the smallest range on a grid of 0.25 (0.5 for wide ranges) that holds 0 and every interval.
 */
export function niceDomain(values: readonly number[]): { domain: [number, number]; ticks: number[] } {
  const finite = values.filter(Number.isFinite)
  const min = Math.min(0, ...finite)
  const max = Math.max(0, ...finite)
  const step = max - min > 1.5 ? 0.5 : 0.25
  const low = Math.floor(min / step + 1e-9) * step
  let high = Math.ceil(max / step - 1e-9) * step
  if (high - low < step) high = low + step
  const ticks: number[] = []
  for (let tick = low; tick <= high + 1e-9; tick += step) ticks.push(Number(tick.toFixed(2)))
  return { domain: [low, high], ticks }
}

function tickLabel(tick: number): string {
  return tick === 0 ? '0' : tick.toFixed(2).replace(/0$/, '')
}

function round(value: number): number {
  return Math.round(value * 10) / 10
}
