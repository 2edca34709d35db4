import type { ContrastiveResult, ShapleyResult } from '../attribute/schema.js'
import type { Artifact } from '../verdict/schema.js'
import { unattributedReason } from './claim.js'
import { niceDomain, renderIntervalChart, type ChartRow } from './chart.js'
import { markup, type Markup } from './markup.js'
import { describeMethod, signed, signedInterval } from './numbers.js'
import { confidenceLevel } from '../text/numbers.js'
import {
  effectLevel,
  effectMatchesLocusTest,
  shapleyErrorLine,
  unestimatedShapley,
} from '../text/attribution.js'
import { PAIRED_DIFFERENCE_METHOD } from '../stats/paired-difference.js'
import { attributionFailedText } from '../text/verdict-message.js'

/**
 * The attribution chart: per-step effects with interval whiskers, contrastive or Shapley, with a
 * toggle between the two. A view the artifact lacks is a disabled tab with a note saying why.
 */
export function renderAttribution(artifact: Artifact): Markup {
  const { contrastive, shapley } = artifact
  if (contrastive === null && shapley === null) {
    const why =
      artifact.attributionError == null
        ? unattributedReason(artifact)
        : attributionFailedText(artifact.attributionError)
    return markup`<section id="attribution" data-view="none"><h2>Attribution</h2><p class="section-lead">${why}</p></section>`
  }
  const view = contrastive !== null ? 'contrastive' : 'shapley'
  const locus = contrastive?.locus ?? null
  const missing =
    shapley === null
      ? 'Shapley values were not computed for this run, so the Shapley view is disabled.'
      : contrastive === null
        ? 'Contrastive attribution was not run, so the contrastive view is disabled.'
        : null
  return markup`<section id="attribution" data-view="${view}">
<h2>Attribution</h2>
<p class="section-lead">Which steps the failure depends on. Contrastive: what resampling one step does to P(bad). Shapley: how the failure's probability splits between steps that only cause it together.</p>
<div class="toggle" role="tablist" aria-label="Attribution method">
${tab('contrastive', 'Contrastive', view, contrastive === null)}
${tab('shapley', 'Shapley', view, shapley === null)}
</div>
${contrastive === null ? null : contrastiveFigure(contrastive, view !== 'contrastive')}
${shapley === null ? null : shapleyFigure(shapley, locus, view !== 'shapley')}
${missing === null ? null : markup`<p class="note" data-note="missing-view">${missing}</p>`}
</section>`
}

function tab(kind: string, label: string, view: string, disabled: boolean): Markup {
  const selected = kind === view
  return markup`<button type="button" role="tab" id="tab-${kind}" data-chart-tab="${kind}" aria-controls="chart-${kind}" aria-selected="${String(selected)}" tabindex="${selected ? 0 : -1}"${disabled ? markup` disabled title="not in this artifact"` : null}>${label}</button>`
}

function contrastiveFigure(result: ContrastiveResult, hidden: boolean): Markup {
  const rows: ChartRow[] = result.steps.map((step) => ({
    label: `${step.index}  ${step.name}`,
    interval: step.evaluated ? step.effect : null,
    // An undecided step is drawn as one without an effect; its card says why.
    tone: step.direction === 'undecided' ? 'none' : step.direction,
    highlight: step.index === result.locus,
    valueText: step.evaluated ? signedInterval(step.effect) : '',
  }))
  const overCount = result.steps
    .filter((step) => step.evaluated)
    .reduce((sum, step) => sum + Math.abs(step.effect.point), 0)
  const chart = renderIntervalChart({
    kind: 'contrastive',
    title: 'Contrastive effect of resampling each step on P(bad), with intervals',
    rows,
    domain: [-1, 1],
    ticks: [-1, -0.5, 0, 0.5, 1],
    axisTitle: 'P(bad | resample k) − P(bad | every step held)   ← rescues · worsens →',
  })
  return markup`<figure id="chart-contrastive" role="tabpanel" aria-labelledby="tab-contrastive"${hidden ? markup` hidden` : null}>
${chart}
<figcaption>Effect of resampling each step against the replay with every step held, ${contrastiveIntervals(result)}${result.crn ? ' (paired arms: common random numbers)' : ''}. Green: the one-sided rescue test rejects after Holm correction over all ${result.steps.length} steps (the intervals are not Holm-adjusted); the causal locus is the latest such step.${result.sequential ? ` ${SEQUENTIAL_POINT_NOTE}` : ''} Effects are total effects through the rest of the run, so they overlap: Σ|effect| = ${Math.abs(overCount).toFixed(2)}.</figcaption>
</figure>`
}

/**
 * Why the points of a sequential attribution are not unbiased, and by how much, as measured by
 * bench/sequential-bias.ts (1,000 seeded runs each of the pivotal and AND SCMs, K ≤ 32).
 */
const SEQUENTIAL_POINT_NOTE =
  'Points come from arms that stopped early once the evidence was strong, so they lean away from 0: by about 0.02 per effect (0.016–0.024 measured on models with known effects, at most 32 rollouts per arm), about 0.04 in Σ|effect|. The intervals are confidence sequences intersected over the looks and keep their coverage at the stop.'

/** The level, sidedness and method of the contrastive effect intervals, as the caption states them. */
function contrastiveIntervals(result: ContrastiveResult): string {
  const level = effectLevel(result)
  const method =
    result.methods.effect === 'tango-corrected'
      ? PAIRED_DIFFERENCE_METHOD
      : describeMethod(result.methods.effect) === result.methods.effect
        ? result.methods.effect
        : `${describeMethod(result.methods.effect)} intervals`
  if (!effectMatchesLocusTest(result)) return `${confidenceLevel(level)} ${method}`
  return `two-sided ${confidenceLevel(level)} ${method} — each upper end is the one-sided ${confidenceLevel(result.confidence)} bound that the rescue test inverts`
}

function shapleyFigure(result: ShapleyResult, locus: number | null, hidden: boolean): Markup {
  if (result.steps.length === 0 && result.truncated) {
    return markup`<figure id="chart-shapley" role="tabpanel" aria-labelledby="tab-shapley"${hidden ? markup` hidden` : null}>
<figcaption class="warning">${unestimatedShapley(result)}.${result.errors === undefined ? null : ` ${shapleyErrorLine(result.errors)}.`}</figcaption>
</figure>`
  }
  const rows: ChartRow[] = result.steps.map((step) => {
    const interval = { point: step.value, low: step.low, high: step.high }
    return {
      label: `${step.index}  ${step.name}`,
      interval,
      tone: 'value',
      highlight: step.index === locus,
      valueText: signedInterval(interval),
    }
  })
  const { domain, ticks } = niceDomain(result.steps.flatMap((step) => [step.low, step.high, step.value]))
  const chart = renderIntervalChart({
    kind: 'shapley',
    title: 'Shapley value of each step, with intervals',
    rows,
    domain,
    ticks,
    axisTitle: 'Shapley value: the step’s share of v(N) − v(∅)',
  })
  const sum = result.efficiencySum
  const total = result.steps.reduce((acc, step) => acc + step.value, 0)
  const how =
    result.method === 'exact'
      ? `exact enumeration of ${result.evaluations} coalitions, ${result.allocation === 'adaptive' ? `rollouts Neyman-allocated between them (at most ${result.samplesPerEval} each)` : `${result.samplesPerEval} rollouts each`}`
      : `${result.permutations} sampled permutations${result.antithetic ? ' (antithetic pairs)' : ''}, ${result.samplesPerEval} rollout${result.samplesPerEval === 1 ? '' : 's'} per evaluation`
  return markup`<figure id="chart-shapley" role="tabpanel" aria-labelledby="tab-shapley"${hidden ? markup` hidden` : null}>
${chart}
<figcaption>Shapley values over coalitions of steps held at their factual action, v(S) = P(bad | hold S): ${how}; ${confidenceLevel(result.confidence)} intervals (${shapleyIntervalMethods(result)}). They add up to ${signed(total)}; the efficiency sum v(N) − v(∅) = ${signedInterval(sum)}.${result.truncated ? ' The budget stopped the run early: the values are from the work done.' : ''}${result.errors === undefined ? '' : ` ${shapleyErrorLine(result.errors)}.`}</figcaption>
</figure>`
}

/** The interval methods of a Shapley result, as recorded (older artifacts name only the efficiency sum's). */
export function shapleyIntervalMethods(result: ShapleyResult): string {
  const sum = describeMethod(result.methods?.efficiencySum ?? result.efficiencySum.method)
  return result.methods === undefined
    ? `efficiency sum: ${sum}`
    : `values: ${describeMethod(result.methods.value)}; efficiency sum: ${sum}`
}
