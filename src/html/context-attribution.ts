import type { ContextAttributionResult, ContextPart } from '../attribute/context-schema.js'
import type { Interval } from '../stats/estimate.js'
import { formatContextAttribution, partName, rescueOf } from '../text/context-attribution.js'
import { confidenceLevel, percent, rateIntervalText } from '../text/numbers.js'
import { erroredReplays } from '../text/replay-errors.js'
import { markup, type Markup } from './markup.js'
import { describeMethod, pValueText, rescueLowerPercent, signedInterval } from './numbers.js'

/**
 * The locus step's context as the context attribution took it apart: one block per part (label,
 * then its text), the culprit span inside its part in a `<mark>` whose title gives the rescue.
 */
export function renderContextParts(result: ContextAttributionResult): Markup {
  const culprit = result.culprit
  return markup`<ol class="context-parts">${result.parts.map((part) => {
    const isCulprit = culprit !== null && samePath(part.path, culprit.path)
    const text =
      isCulprit && culprit.span.end <= part.text.length
        ? markup`${part.text.slice(0, culprit.span.start)}<mark class="culprit" title="${rescueTitle(culprit.effect)}">${part.text.slice(culprit.span.start, culprit.span.end)}</mark>${part.text.slice(culprit.span.end)}`
        : markup`${part.text}`
    return markup`<li class="context-part${isCulprit ? ' is-culprit' : ''}" data-part="${part.path.join('.')}"><div class="field-label">${part.label}</div><pre>${text}</pre></li>`
  })}</ol>`
}

/**
 * Each part's row: its label, P(bad) when the step decides without it, the effect against the intact
 * context as a bar with its interval, the Holm-adjusted p-value and the direction; then a caption
 * that says what was compared, at which level, and the summary line of the terminal message.
 */
export function renderContextTable(result: ContextAttributionResult): Markup {
  const level = confidenceLevel(effectLevelOf(result))
  const rows = result.parts.map(
    (
      part,
    ) => markup`<tr data-part="${part.path.join('.')}"${result.culprit !== null && samePath(part.path, result.culprit.path) ? markup` class="is-culprit"` : null}>
<th scope="row">${part.label}</th>
<td class="rate">${!part.evaluated ? 'not evaluated' : part.pBad.n === 0 ? 'no replay scored' : `${percent(part.pBad.point)} (${rateIntervalText(part.pBad)})`}</td>
<td>${part.evaluated ? effectBar(part) : null}<div class="bar-caption">${part.evaluated ? signedInterval(part.effect) : '—'}</div></td>
<td class="rate">${part.evaluated ? pValueText(part.pValue) : '—'}</td>
<td class="direction-${part.direction}">${DIRECTIONS[part.direction]}${part.errors === undefined ? null : markup`<div class="bar-caption">${erroredReplays(part.errors)}</div>`}</td>
</tr>`,
  )
  const ablation =
    result.ablation === 'placeholder'
      ? 'replaced by a placeholder'
      : result.ablation === 'custom'
        ? 'taken out by your ablate function'
        : 'left out'
  return markup`<div class="context-attribution" id="context-attribution">
<h3>Which part of the context it decided on</h3>
<table class="index context-table">
<thead><tr><th>part</th><th>P(bad) without it</th><th>effect [${level} CI]</th><th>p (Holm)</th><th>direction</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p class="note">Each part ${ablation}, step ${result.step} (${result.stepName}) drawn afresh, the steps before it held: P(bad) against the intact context, ${percent(result.intact.point)} (${rateIntervalText(result.intact)}). Effects: ${describeMethod(result.methods.effect)}, two-sided ${level} (each upper end is the one-sided ${confidenceLevel(result.confidence)} bound the rescue test inverts)${result.crn ? ', paired by common random numbers' : ''}; p-values one-sided, Holm-adjusted over the ${result.parts.length} parts. Action match of the held steps: ${percent(result.actionMatchRate)}. ${result.rolloutsUsed} rollouts.</p>
${formatContextAttribution(result).map((line) => markup`<p class="note${CAVEATS.some((caveat) => line.startsWith(caveat)) ? ' warning' : ''}">${line}</p>`)}
</div>`
}

/**
 * The summary lines that qualify the result (stopped early, replays that errored, an unfaithful
 * replay): shown as warnings.
 */
const CAVEATS = [
  'context attribution stopped early',
  'context attribution: undecided',
  'replays that errored',
  'held steps matched',
]

const DIRECTIONS: Record<ContextPart['direction'], string> = {
  rescues: 'removing it rescues',
  worsens: 'removing it makes it worse',
  none: 'no significant effect',
  undecided: 'undecided: replays errored',
}

/** The culprit mark's title: "removing it rescues 96% [84%, 100%] (effect -0.96 [-1.00, -0.84], 90% CI)". */
function rescueTitle(effect: Interval): string {
  const rescue = rescueOf(effect)
  return `removing it rescues ${percent(rescue.point)} [${rescueLowerPercent(rescue.low)}, ${percent(rescue.high)}] (effect ${signedInterval(effect)}, ${confidenceLevel(effect.confidence)} CI)`
}

/**
 * An effect in [-1, 1] as a horizontal bar: a zero line in the middle, the interval as a whisker and
 * the point as a dot, colored by direction. `role="img"` with the numbers as its name.
 */
function effectBar(part: ContextPart): Markup {
  const x = (value: number) => `${(((Math.max(-1, Math.min(1, value)) + 1) / 2) * 100).toFixed(2)}%`
  const { low, high, point } = part.effect
  return markup`<div class="effect-bar tone-${part.direction}" role="img" aria-label="${`${partName(part.label)}: effect ${signedInterval(part.effect)}`}">
<div class="effect-zero"></div>
<div class="effect-ci" style="left: ${x(low)}; width: ${(((Math.min(1, high) - Math.max(-1, low)) / 2) * 100).toFixed(2)}%"></div>
<div class="effect-point" style="left: ${x(point)}"></div>
</div>`
}

/** The level of the effect intervals: the first evaluated part's, else 1 − 2α. */
function effectLevelOf(result: ContextAttributionResult): number {
  return result.parts.find((part) => part.evaluated)?.effect.confidence ?? 2 * result.confidence - 1
}

function samePath(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index])
}
