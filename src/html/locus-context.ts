import type { Json } from '../json.js'
import type { Observation, Trajectory } from '../trajectory/schema.js'
import type { Artifact } from '../verdict/schema.js'
import { renderContextParts, renderContextTable } from './context-attribution.js'
import { prettyJson } from './json-text.js'
import { markup, type Markup } from './markup.js'
import { actionDetails, stepSummary, toolCalls } from './steps.js'

/**
 * What the causal locus step decided from: its recorded context (with the digest replay checks)
 * and every tool result the run had seen before it; when the context attribution ran, the context
 * part by part with the culprit span marked, and each part's effect. Null when there is no locus
 * to explain.
 */
export function renderLocusContext(artifact: Artifact): Markup | null {
  const { failing, contrastive } = artifact
  if (failing === null || contrastive === null || contrastive.locus === null) return null
  const step = failing.steps.find((candidate) => candidate.index === contrastive.locus)
  if (step === undefined) return null
  const seen = observationsBefore(failing, step.index)
  // The context attribution of this step, when it ran: the context is then shown part by part, the
  // culprit span marked, with the recorded JSON folded below.
  const attribution =
    artifact.contextAttribution != null && artifact.contextAttribution.step === step.index
      ? artifact.contextAttribution
      : null
  const context =
    step.context === undefined
      ? markup`<p class="muted">The agent recorded no context for this step (pass <code>{ context }</code> to <code>ctx.step</code> to see it here).</p>`
      : attribution === null
        ? markup`<pre>${prettyJson(step.context)}</pre>`
        : markup`${renderContextParts(attribution)}<details class="context-json"><summary>as recorded (JSON)</summary><pre>${prettyJson(step.context)}</pre></details>`
  return markup`<section id="locus-context">
<h2>What step ${step.index} (${step.name}) decided from</h2>
${chosen(step.action, stepSummary(failing, step.index))}
<div class="context-grid">
<div class="panel"><div class="field-label">context${step.contextDigest === null ? '' : ` · digest ${step.contextDigest}`}</div>${context}</div>
<div class="panel"><div class="field-label">tool results before step ${step.index}</div>${
    seen.length === 0
      ? markup`<p class="muted">None: no tool had been called yet.</p>`
      : seen.map(
          ({ after, observations }) =>
            markup`<div class="field-label">${after}</div>${toolCalls(observations)}`,
        )
  }</div>
</div>
${attribution === null ? null : renderContextTable(attribution)}
</section>`
}

/**
 * The section's lead and what the step chose: its adapter's summary with the whole action folded
 * below (a `<details>` cannot sit inside the paragraph), or its JSON.
 */
function chosen(action: Json, summary: string | null): Markup {
  const lead = 'The context the policy saw and the tool results the run had returned before it.'
  return summary === null
    ? markup`<p class="section-lead">${lead} It chose <code>${JSON.stringify(action)}</code>.</p>`
    : markup`<p class="section-lead">${lead} It chose:</p>${actionDetails(summary, action)}`
}

/** The tool calls made before step `index`, grouped by the step they followed (the preamble first). */
function observationsBefore(
  trajectory: Trajectory,
  index: number,
): Array<{ after: string; observations: readonly Observation[] }> {
  const groups: Array<{ after: string; observations: readonly Observation[] }> = []
  if (trajectory.preamble.length > 0)
    groups.push({ after: 'before the first step', observations: trajectory.preamble })
  for (const step of trajectory.steps) {
    if (step.index >= index) break
    if (step.observations.length > 0)
      groups.push({ after: `after step ${step.index} (${step.name})`, observations: step.observations })
  }
  return groups
}
