import type { ContrastiveResult, ContrastiveStep } from '../attribute/schema.js'
import { claimDirection, type Artifact } from '../verdict/schema.js'
import { badOutcomeLabel, unattributedReason, verdictReason } from './claim.js'
import { attributionFailedText, claim, SEQUENTIAL_POINT } from '../text/verdict-message.js'
import { jsonSummary } from './json-text.js'
import { markup, type Markup } from './markup.js'
import { actionDetails, stepSummary } from './steps.js'
import { complement, pValueText, signedInterval } from './numbers.js'
import { confidenceLevel, methodName, percent, rateIntervalText, scoreNumber } from '../text/numbers.js'
import { passKLine } from '../text/pass-k.js'
import { judgeNoiseLikely, judgeNoiseText } from '../text/attribution.js'
import { NO_ROLLOUT_COMPLETED } from '../text/summary-table.js'

/** The contrastive step at the causal locus, if there is a locus. */
export function locusStep(contrastive: ContrastiveResult | null): ContrastiveStep | undefined {
  if (contrastive === null || contrastive.locus === null) return undefined
  return contrastive.steps.find((step) => step.index === contrastive.locus)
}

/**
 * The top of the report: the claim and verdict, then three numbers — the observed rate, the causal
 * locus, and how often resampling the locus rescues the run (next to the replay fidelity).
 */
export function renderHeadline(artifact: Artifact): Markup {
  const { verdict, contrastive } = artifact
  return markup`<header class="headline" data-verdict="${verdict.kind}">
<p class="test-path">${artifact.test.file} › ${artifact.test.name}</p>
<div class="title-row"><span class="badge badge-${verdict.kind}">${verdict.kind}</span><h1>${claim(verdict)}</h1></div>
<p class="verdict-reason">${verdictReason(verdict)}</p>
<div class="stats">
${observedStat(artifact)}
${locusStat(artifact)}
${rescueStat(contrastive, badOutcomeLabel(verdict))}
</div>
</header>`
}

function observedStat({ verdict }: Artifact): Markup {
  const { observed, errors } = verdict
  const errorNote =
    errors.count === 0
      ? null
      : markup`<div class="stat-detail warning">${errors.count} rollout${errors.count === 1 ? '' : 's'} ended in an error (not scored)</div>`
  if (verdict.gate === 'score') {
    const { mean, threshold } = verdict.score
    const good = claimDirection(verdict) === 'atLeast' ? '≥' : '≤'
    return markup`<div class="stat" data-stat="observed">
<div class="stat-label">Mean score: ${verdict.predicate}</div>
<div class="stat-value">${mean === null ? '—' : scoreNumber(mean.point)}</div>
<div class="stat-detail">${mean === null ? 'no completed rollout' : `${SEQUENTIAL_POINT} · ${confidenceLevel(mean.confidence)} betting confidence sequence ${scoreNumber(mean.low)}–${scoreNumber(mean.high)}`}</div>
<div class="stat-detail">${observed.successes}/${observed.n} rollouts scored ${good} ${scoreNumber(threshold)}</div>
${errorNote}
</div>`
  }
  return markup`<div class="stat" data-stat="observed">
<div class="stat-label">Observed: ${verdict.predicate}</div>
${
  observed.n === 0
    ? markup`<div class="stat-value">—</div>
<div class="stat-detail">${NO_ROLLOUT_COMPLETED}</div>`
    : markup`<div class="stat-value">${percent(observed.point)}</div>
<div class="stat-detail">${observed.successes}/${observed.n} rollouts${verdict.gate === 'sequential' && verdict.judgeCorrection !== undefined ? ' judged yes; judge-corrected rate' : ''}${verdict.gate === 'sequential' || verdict.gate === 'comparison' ? ` ${SEQUENTIAL_POINT}` : ''} · ${rateIntervalText(observed)}</div>`
}
${judgeCorrectionDetail(verdict)}
${passKDetail(verdict)}
${errorNote}
</div>`
}

/** For a calibrated judge: what the judge said and the calibration the rate was corrected with. */
function judgeCorrectionDetail(verdict: Artifact['verdict']): Markup | null {
  if (verdict.gate !== 'sequential' || verdict.judgeCorrection === undefined) return null
  const { apparent, sensitivity, specificity, method } = verdict.judgeCorrection
  return markup`<div class="stat-detail" data-judge-correction>Judge-corrected (${method}): the judge said yes in ${percent(apparent.point)} of runs; calibration sensitivity ${sensitivity.correct}/${sensitivity.of} (${percent(sensitivity.low)}–${percent(sensitivity.high)}), specificity ${specificity.correct}/${specificity.of} (${percent(specificity.low)}–${percent(specificity.high)}), Clopper–Pearson.</div>`
}

/** The verdict's pass^k under the rate it comes from, when it has one. */
function passKDetail(verdict: Artifact['verdict']): Markup | null {
  const line = passKLine(verdict)
  return line === null ? null : markup`<div class="stat-detail" data-pass-k>${line}</div>`
}

/**
 * The locus step's action: the adapter's summary (`transfer_funds({"account":"4471"})`) with the
 * whole action folded below it, or the action's JSON, cut, when it recorded none.
 */
function locusAction(artifact: Artifact, step: ContrastiveStep): Markup {
  const summary = stepSummary(artifact.failing, step.index)
  return summary === null
    ? markup`<code>${jsonSummary(step.action, 60)}</code>`
    : actionDetails(summary, step.action)
}

function locusStat(artifact: Artifact): Markup {
  const { contrastive, shapley } = artifact
  const step = locusStep(contrastive)
  if (step !== undefined && contrastive !== null) {
    return markup`<div class="stat stat-locus" data-stat="locus">
<div class="stat-label">${artifact.verdict.gate === 'baseline' ? 'Locus of one failing rollout, not the cause of the change' : 'Causal locus'}</div>
<div class="stat-value"><a href="#step-${step.index}">step ${step.index} · ${step.name}</a></div>
<div class="stat-detail">action ${locusAction(artifact, step)}</div>
<div class="stat-detail">effect on P(bad) ${signedInterval(step.effect)} (${methodName(step.effect.method)}, Holm-adjusted ${pValueText(step.pValue)})</div>
</div>`
  }
  const why =
    artifact.attributionError != null
      ? attributionFailedText(artifact.attributionError)
      : contrastive !== null && judgeNoiseLikely(contrastive, artifact.failingJudged === true)
        ? `No step: ${judgeNoiseText(contrastive)}.`
        : contrastive !== null
          ? 'No step: resampling no single step significantly reduces P(bad) (the attribution abstains).'
          : shapley !== null
            ? 'Not computed: this artifact has Shapley values only (see the chart).'
            : unattributedReason(artifact)
  return markup`<div class="stat" data-stat="locus">
<div class="stat-label">Causal locus</div>
<div class="stat-value">none</div>
<div class="stat-detail">${why}</div>
</div>`
}

function rescueStat(contrastive: ContrastiveResult | null, bad: string): Markup | null {
  if (contrastive === null) return null
  const fidelity = contrastive.baseline
  const step = locusStep(contrastive)
  if (step === undefined) {
    return markup`<div class="stat" data-stat="fidelity">
<div class="stat-label">Replay fidelity</div>
<div class="stat-value">${percent(fidelity.point)}</div>
<div class="stat-detail">of replays with every step held end in “${bad}” · ${rateIntervalText(fidelity)}</div>
</div>`
  }
  const rescue = complement(step.pBad)
  return markup`<div class="stat" data-stat="rescue">
<div class="stat-label">Resampling step ${step.index} rescues</div>
<div class="stat-value">${percent(rescue.point)}</div>
<div class="stat-detail">of ${step.pBad.n} replays avoid “${bad}” · ${rateIntervalText(rescue)}</div>
<div class="stat-detail">vs replay fidelity ${percent(fidelity.point)} (${rateIntervalText(fidelity)}): holding every step reproduces the failure that often</div>
</div>`
}
