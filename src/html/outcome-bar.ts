import type { Estimate } from '../stats/estimate.js'
import { markup, type Markup } from './markup.js'
import { percent, rateIntervalText } from '../text/numbers.js'

/** A share in [0, 1] as a CSS percentage, clamped so a rounding error cannot break the layout. */
function cssPercent(value: number): string {
  return `${(Math.min(1, Math.max(0, value)) * 100).toFixed(2)}%`
}

/**
 * The outcome distribution of one arm as a bar: the bad share in red, the rest in green, the
 * interval of P(bad) as a whisker, and the replay fidelity (P(bad) with every step held) as a
 * dashed tick to compare against.
 */
export function renderOutcomeBar(pBad: Estimate, what: string, fidelity: Estimate | null): Markup {
  const label = `${what} = ${percent(pBad.point)}, ${rateIntervalText(pBad)}`
  const baselineTick =
    fidelity === null
      ? null
      : markup`<div class="bar-baseline" style="left: ${cssPercent(fidelity.point)}" title="replay fidelity ${percent(fidelity.point)}"></div>`
  return markup`<div class="outcome-bar" role="img" aria-label="${label}">
<div class="bar-bad" style="width: ${cssPercent(pBad.point)}"></div>
<div class="bar-ci" style="left: ${cssPercent(pBad.low)}; width: ${cssPercent(pBad.high - pBad.low)}"></div>
${baselineTick}
</div>`
}
