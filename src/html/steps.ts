import type { ContrastiveResult, ContrastiveStep } from '../attribute/schema.js'
import type { Json } from '../json.js'
import type { Observation, Trajectory } from '../trajectory/schema.js'
import type { Artifact } from '../verdict/schema.js'
import { badOutcomeLabel } from './claim.js'
import { cutEnd, jsonSummary, prettyJson } from './json-text.js'
import { markup, type Markup } from './markup.js'
import { pValueText, signedInterval } from './numbers.js'
import { confidenceLevel, methodName, percent, rateIntervalText } from '../text/numbers.js'
import { renderOutcomeBar } from './outcome-bar.js'
import { erroredReplays } from '../text/replay-errors.js'

/** What a card shows of one step; from the failing trajectory, or (without one) from the attribution. */
interface CardStep {
  index: number
  name: string
  action: Json
  /** The adapter's one-line summary of the action (`meta.summary`), when it recorded one. */
  summary: string | null
  source: string | null
  diverged: boolean
  observations: readonly Observation[]
}

/**
 * The failing run, one card per step (name, action, how the action was obtained, the tool calls
 * that followed), each with the outcome distribution when that step is resampled. The causal
 * locus's card is highlighted.
 */
export function renderTrajectory(artifact: Artifact): Markup {
  const { failing, contrastive, verdict } = artifact
  const steps = cardSteps(failing, contrastive)
  if (steps.length === 0) {
    const why =
      failing === null
        ? verdict.kind === 'pass'
          ? 'No rollout was bad, so there is no failing run to show.'
          : 'The artifact holds no failing run.'
        : 'The failing run took no steps.'
    return markup`<section id="trajectory"><h2>The failing run</h2><p class="section-lead">${why}</p>${failing === null ? null : runEnds(failing)}</section>`
  }
  const bad = badOutcomeLabel(verdict)
  const handle = failing ?? contrastive?.factual
  const lead =
    handle === undefined
      ? null
      : markup`Rollout ${handle.rollout} of seed ${handle.seed}, agent <strong>${artifact.verdict.agent}</strong>. `
  const attributionNote =
    contrastive === null
      ? 'No contrastive attribution was run, so the cards show no resampling distributions.'
      : `Each bar is the outcome over replays that hold the steps before it and resample it: red is “${bad}”.`
  return markup`<section id="trajectory">
<h2>The failing run</h2>
<p class="section-lead">${lead}${attributionNote}</p>
${contrastive === null ? null : legend(contrastive)}
${failing === null ? null : inputBlock(failing)}
<ol class="steps">
${failing !== null && failing.preamble.length > 0 ? preambleCard(failing.preamble) : null}
${steps.map((step) => stepCard(step, contrastive))}
</ol>
${failing === null ? null : runEnds(failing)}
</section>`
}

function cardSteps(failing: Trajectory | null, contrastive: ContrastiveResult | null): CardStep[] {
  if (failing !== null) {
    return failing.steps.map((step) => ({
      index: step.index,
      name: step.name,
      action: step.action,
      summary: typeof step.meta?.['summary'] === 'string' ? step.meta['summary'] : null,
      source: step.source,
      diverged: step.diverged === true,
      observations: step.observations,
    }))
  }
  return (contrastive?.steps ?? []).map((step) => ({
    index: step.index,
    name: step.name,
    action: step.action,
    summary: null,
    source: null,
    diverged: false,
    observations: [],
  }))
}

function legend(contrastive: ContrastiveResult): Markup {
  return markup`<p class="legend">
<span><span class="swatch swatch-bad"></span>P(bad | resample step)</span>
<span><span class="swatch swatch-good"></span>not bad</span>
<span><span class="swatch swatch-baseline"></span>replay fidelity ${percent(contrastive.baseline.point)} (every step held)</span>
<span>whisker: ${confidenceLevel(contrastive.confidence)} ${methodName(contrastive.baseline.method)} interval</span>
</p>`
}

function inputBlock(failing: Trajectory): Markup {
  return markup`<details class="panel input-block">
<summary>Input <code>${jsonSummary(failing.input, 80)}</code></summary>
<pre>${prettyJson(failing.input)}</pre>
</details>`
}

function preambleCard(preamble: readonly Observation[]): Markup {
  return markup`<li class="step-card" id="preamble">
<div class="step-head"><span class="step-index">–</span><span class="step-name">preamble</span><span class="tag">tool calls before the first step</span></div>
<div>${toolCalls(preamble)}</div>
</li>`
}

function stepCard(step: CardStep, contrastive: ContrastiveResult | null): Markup {
  const isLocus = contrastive !== null && contrastive.locus === step.index
  const attribution = contrastive?.steps.find((candidate) => candidate.index === step.index)
  return markup`<li class="step-card${isLocus ? ' is-locus' : ''}" id="step-${step.index}" data-step="${step.index}"${isLocus ? markup` data-locus="true" aria-current="step"` : null}>
<div class="step-head">
<span class="step-index">${step.index}</span><span class="step-name">${step.name}</span>
${step.source === null ? null : markup`<span class="tag" title="how the action was obtained">${step.source}</span>`}
${step.diverged ? markup`<span class="tag tag-diverged" title="the held step's name or context differed from the recording">diverged</span>` : null}
${isLocus ? markup`<span class="tag tag-locus">causal locus</span>` : null}
</div>
<div><div class="field-label">action</div>${actionBlock(step)}</div>
<div><div class="field-label">tool calls</div>${step.observations.length === 0 ? markup`<p class="muted no-calls">none</p>` : toolCalls(step.observations)}</div>
${contrastive === null ? null : markup`<div class="step-outcome">${stepOutcome(step.index, attribution, contrastive)}</div>`}
</li>`
}

/**
 * A step's action. An adapter's model call records a large result object whose JSON hides what the
 * model did, so where the adapter left a one-line summary (`issue_refund({"amount":99})`, or the
 * text's start) the card leads with it and keeps the whole action one click away.
 */
function actionBlock(step: CardStep): Markup {
  if (step.summary === null || step.summary === '') return markup`<pre>${prettyJson(step.action)}</pre>`
  return actionDetails(step.summary, step.action)
}

/** An action shown by its adapter's one-line summary, the whole action folded in a `<details>` below. */
export function actionDetails(summary: string, action: Json): Markup {
  return markup`<details class="action-details">
<summary><code class="action-summary">${cutEnd(summary, SUMMARY_LENGTH)}</code></summary>
<pre>${prettyJson(action)}</pre>
</details>`
}

/** The one-line summary the adapter recorded for step `index` of `failing` (`meta.summary`), if any. */
export function stepSummary(failing: Trajectory | null, index: number): string | null {
  const summary = failing?.steps.find((step) => step.index === index)?.meta?.['summary']
  return typeof summary === 'string' && summary !== '' ? summary : null
}

// A summary is one line already; the cut only guards the card against an adapter that says more.
const SUMMARY_LENGTH = 160

function stepOutcome(
  index: number,
  step: ContrastiveStep | undefined,
  contrastive: ContrastiveResult,
): Markup {
  if (step === undefined || !step.evaluated) {
    const why =
      contrastive.search === 'binary'
        ? 'Not evaluated: the binary search over steps did not need this step.'
        : 'Not evaluated (the attribution stopped before this step).'
    return markup`<p class="bar-caption">${why}</p>`
  }
  const what = `P(bad | resample ${index})`
  const direction =
    step.direction === 'none'
      ? markup`no significant change`
      : step.direction === 'undecided'
        ? markup`<span class="direction-undecided">undecided: replays errored</span>`
        : markup`<span class="direction-${step.direction}">${step.direction === 'rescues' ? 'rescues' : 'worsens'}</span>`
  const errors = step.errors === undefined ? null : markup`<br>${erroredReplays(step.errors)}, never scored`
  // The marginal rescue is positive when it rescues, the effect negative: on one line both read in
  // the effect's sign, P(bad | resample k) − P(bad | resample k + 1), so a rescue is negative twice.
  const alone =
    step.rescues === null
      ? null
      : markup` · this step's own part of the effect ${signedInterval({
          ...step.rescues,
          point: -step.rescues.point,
          low: -step.rescues.high,
          high: -step.rescues.low,
        })}`
  return markup`${renderOutcomeBar(step.pBad, what, contrastive.baseline)}
<p class="bar-caption"><strong>${what} ${percent(step.pBad.point)}</strong> · ${step.pBad.successes}/${step.pBad.n} replays · ${rateIntervalText(step.pBad)}<br>
effect ${signedInterval(step.effect)} · ${direction} (Holm-adjusted ${pValueText(step.pValue)})${alone}${errors}</p>`
}

/** A list of tool calls: name, arguments, and the result or the error the agent saw. */
export function toolCalls(observations: readonly Observation[]): Markup {
  return markup`<ul class="tool-calls">${observations.map(
    (observation) => markup`<li class="tool-call">
<span class="tool-name">${observation.tool}</span><code>(${jsonSummary(observation.args, 90)})</code>${observation.source === 'live' ? null : markup` <span class="tag">${observation.source}</span>`}
${
  observation.error !== undefined
    ? markup`<pre class="tool-error">threw: ${observation.error}</pre>`
    : markup`<pre>${prettyJson(observation.result)}</pre>`
}
</li>`,
  )}</ul>`
}

function runEnds(failing: Trajectory): Markup {
  if (failing.error !== undefined) {
    return markup`<p class="note warning">The run ended in an error: ${failing.error.name}: ${failing.error.message}</p>`
  }
  return markup`<div class="panel output-block"><div class="field-label">output</div><pre>${prettyJson(failing.output)}</pre></div>`
}
