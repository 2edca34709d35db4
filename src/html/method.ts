import type { ContrastiveResult, ShapleyResult } from '../attribute/schema.js'
import { PAIRED_E_PROCESS_METHOD } from '../stats/paired-confidence-sequence.js'
import { extendedProbeRollouts } from '../text/attribution.js'
import { pairingText } from '../text/comparison-lines.js'
import { SEED_SOURCES, SEQUENTIAL_POINT } from '../text/verdict-message.js'
import { claimDirection, type Artifact, type Verdict } from '../verdict/schema.js'
import { shapleyIntervalMethods } from './attribution.js'
import { markup, type Markup } from './markup.js'
import { oneSidedLevel } from './claim.js'
import { describeMethod, signedInterval } from './numbers.js'
import { confidenceLevel, methodName, percent, rateIntervalText, scoreNumber } from '../text/numbers.js'

/**
 * How the numbers were made, so a reader can judge them: rollouts per step, CRN, the multiple
 * testing correction, action-match rate, replay fidelity, rollouts spent and every interval method.
 */
export function renderMethod(artifact: Artifact): Markup {
  const { verdict, contrastive, shapley } = artifact
  const total = verdict.rolloutsRun + (contrastive?.rolloutsUsed ?? 0) + (shapley?.rolloutsUsed ?? 0)
  return markup`<section id="method">
<h2>Method</h2>
<ul class="method-list">
${gateLine(verdict)}
${contrastive === null ? null : contrastiveLine(contrastive)}
${shapley === null ? null : shapleyLine(shapley)}
<li data-method="total">Rollouts spent in all: <strong>${total}</strong>.</li>
</ul>
${errorList(verdict)}
</section>`
}

function gateLine(verdict: Verdict): Markup {
  const what = verdict.gate === 'score' ? 'mean' : 'rate'
  const errors = `${verdict.errors.count} rollout${verdict.errors.count === 1 ? '' : 's'} ended in an error${verdict.allowErrors ? ` (left out of the ${what}: allowErrors)` : ''}`
  const seed = `seed ${verdict.seed} (${SEED_SOURCES[verdict.seedSource]})`
  const observed =
    verdict.gate === 'score'
      ? `share of rollouts scoring on the claim's side of ${scoreNumber(verdict.score.threshold)} ${percent(verdict.observed.point)} (${rateIntervalText(verdict.observed)})`
      : `observed rate ${verdict.gate === 'sequential' ? `${SEQUENTIAL_POINT} ` : ''}${percent(verdict.observed.point)} (${rateIntervalText(verdict.observed)})`
  return markup`<li data-method="gate"><strong>Gate:</strong> ${gateSampling(verdict)}; ${seed}; ${observed}; ${errors}.</li>`
}

/** How the gate sampled and decided. */
function gateSampling(verdict: Verdict): string {
  switch (verdict.gate) {
    case 'sequential': {
      const decision = verdict.decision
      const test = `an anytime-valid sequential test (${decision?.method ?? 'no rollout completed'})`
      const bounds =
        decision === null
          ? ''
          : `, ${oneSidedLevel(decision.interval.confidence)} one-sided confidence bounds ${percent(decision.interval.low)}–${percent(decision.interval.high)}`
      return `${verdict.rolloutsUsed} of at most ${verdict.maxRollouts} rollouts, decided by ${test}${bounds}, so stopping early keeps the error rate`
    }
    case 'zero-tolerance': {
      const interval = verdict.oneSidedBound
      const bound =
        interval === null
          ? ''
          : `; ${confidenceLevel(interval.confidence)} one-sided ${methodName(interval.method)} bound ${percent(claimDirection(verdict) === 'atMost' ? interval.high : interval.low)}`
      return `${verdict.rolloutsUsed} of ${verdict.rollouts} rollouts, stopping at the first occurrence${bound}`
    }
    case 'score': {
      const { mean, method, range } = verdict.score
      const bounds =
        mean === null
          ? ''
          : `, mean score ${SEQUENTIAL_POINT} ${scoreNumber(mean.point)}, ${oneSidedLevel(mean.confidence)} one-sided confidence bounds ${scoreNumber(mean.low)}–${scoreNumber(mean.high)} (intersected over looks)`
      const rescaled =
        range[0] === 0 && range[1] === 1
          ? ''
          : `, on scores rescaled from [${scoreNumber(range[0])}, ${scoreNumber(range[1])}] to [0, 1]`
      return `${verdict.rolloutsUsed} of at most ${verdict.maxRollouts} rollouts, decided by an anytime-valid sequential test (${method})${rescaled}${bounds}, so stopping early keeps the error rate`
    }
    case 'baseline': {
      const difference = verdict.baseline.difference
      const compared =
        difference === null
          ? ''
          : `; new − stored ${signedInterval(difference)} (${confidenceLevel(difference.confidence)} ${methodName(difference.method)})`
      const pairs = verdict.baseline.pairs ?? null
      const pairing =
        pairs === null
          ? ''
          : `, rollout by rollout on the stored seed (${pairs.worse} worse, ${pairs.better} better, ${pairs.same} alike: the two runs share their random numbers, so they are compared as pairs)`
      return `a fixed sample of ${verdict.rolloutsUsed} rollouts compared with the stored rate${pairing}${compared}`
    }
    case 'comparison': {
      const { comparison } = verdict
      const difference = comparison.difference
      const compared =
        difference === null
          ? ''
          : `; ${verdict.agent} − ${comparison.baselineAgent} ${signedInterval(difference)} (${oneSidedLevel(difference.confidence)} one-sided bounds, ${PAIRED_E_PROCESS_METHOD})`
      return `${verdict.rolloutsUsed} of at most ${verdict.maxRollouts} rollouts of each agent on the same seed, ${pairingText(comparison)}${compared}; the paired test is checked after every pair, so stopping early keeps the error rate`
    }
  }
}

function contrastiveLine(result: ContrastiveResult): Markup {
  const evaluated = result.steps.filter((step) => step.evaluated).length
  const most = extendedProbeRollouts(result)
  const extended = most === null ? '' : ` (${most} on the probe the search extended)`
  const sampling = result.sequential
    ? `at most ${result.rolloutsPerStep} rollouts per step${extended}, sequential${result.methods.sequential === null ? '' : ` (${describeMethod(result.methods.sequential)})`}: an arm stops once its test is decided`
    : `${result.rolloutsPerStep} rollouts per step`
  return markup`<li data-method="contrastive"><strong>Contrastive:</strong> ${sampling}; ${result.search} search (${evaluated} of ${result.steps.length} steps evaluated); ${result.crn ? 'CRN on: every arm uses the same random streams, so arms are paired' : 'CRN off: independent arms'}; Holm-corrected one-sided tests at ${confidenceLevel(result.confidence)}; action-match rate ${percent(result.actionMatchRate)}; replay fidelity ${percent(result.baseline.point)} (${rateIntervalText(result.baseline)}); ${result.seed === undefined ? '' : `replay seed ${result.seed}; `}${result.rolloutsUsed} rollouts spent; intervals: P(bad) ${describeMethod(result.methods.proportion)}, effects ${describeMethod(result.methods.effect)}.${result.truncated ? markup` <span class="warning">The budget stopped the attribution early; the steps show the work done.</span>` : null}</li>`
}

function shapleyLine(result: ShapleyResult): Markup {
  const how =
    result.method === 'exact'
      ? `exact enumeration (${result.evaluations} coalition evaluations × ${result.allocation === 'adaptive' ? `up to ${result.samplesPerEval} rollouts, Neyman-allocated in rounds` : `${result.samplesPerEval} rollouts`})`
      : `permutation sampling (${result.permutations} permutations${result.antithetic ? ', antithetic pairs' : ''}, ${result.evaluations} coalition evaluations × ${result.samplesPerEval} rollout${result.samplesPerEval === 1 ? '' : 's'}, no caching across permutations)`
  return markup`<li data-method="shapley"><strong>Shapley:</strong> ${how}; ${result.actionMatchRate === undefined ? '' : `action-match rate ${percent(result.actionMatchRate)}; `}${result.seed === undefined ? '' : `replay seed ${result.seed}; `}${result.rolloutsUsed} rollouts spent; intervals at ${confidenceLevel(result.confidence)}: ${shapleyIntervalMethods(result)}.${result.truncated ? markup` <span class="warning">The budget stopped the run early; the values are from the work done.</span>` : null}</li>`
}

function errorList(verdict: Verdict): Markup | null {
  if (verdict.errors.examples.length === 0) return null
  return markup`<p class="note">Rollouts that ended in an error (counted, never scored):</p>
<ul class="errors-list">${verdict.errors.examples.map(
    (example) =>
      markup`<li>rollout ${example.rollout}: ${example.error.kind} — ${example.error.name}: ${example.error.message}</li>`,
  )}</ul>`
}
