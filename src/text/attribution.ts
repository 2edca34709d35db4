import type { ContrastiveResult, ContrastiveStep, ReplayErrors, ShapleyResult } from '../attribute/schema.js'
import type { Json } from '../json.js'
import type { IntervalMethod } from '../stats/estimate.js'
import { PAIRED_DIFFERENCE_METHOD } from '../stats/paired-difference.js'
import type { Trajectory } from '../trajectory/schema.js'
import { cutMiddle, shortenContext } from './context.js'
import {
  confidenceLevel,
  count,
  effect,
  effectUpperEnd,
  methodName,
  percent,
  plural,
  probability,
} from './numbers.js'
import { erroredReplays } from './replay-errors.js'
import { formatTable } from './table.js'
import { showName, showOnOneLine } from './visible.js'

/** Width of the action column: enough for a tool name or a short reply. */
const ACTION_WIDTH = 18

/** Options of {@link formatContrastive}. */
export interface ContrastiveTextOptions {
  /**
   * Default 'summary'. 'summary' shows the evaluated steps, the locus and the steps either side of
   * it, and folds every other run of unevaluated steps into one line; 'all' shows every step.
   */
  steps?: 'all' | 'summary'
  /**
   * Default false. The attribution explains one failing rollout of a baseline gate: its locus is
   * labelled as that rollout's, not the cause of the change in rate the gate measured.
   */
  baseline?: boolean
  /**
   * Default false. A model judge was asked about the failing run: when no step is the locus and the
   * failure seldom reproduces with every step held, the message blames the judge's noise instead of
   * suggesting Shapley values.
   */
  judged?: boolean
}

/**
 * Whether an abstaining attribution points at the judge rather than at the run: a judge was asked,
 * and the replay fidelity's upper end is under one half, so holding every step reproduces the
 * failure less often than not. Such a failure is the judge's answer more than the agent's doing:
 * Shapley values would split a v(N) near 0 among the steps.
 */
export function judgeNoiseLikely(result: ContrastiveResult, judged: boolean): boolean {
  return judged && result.locus === null && result.baseline.high < 0.5
}

/** The line that says so, with the fidelity that shows it. */
export function judgeNoiseText(result: ContrastiveResult): string {
  const { baseline } = result
  return `the judge's verdict does not reproduce on replay (replay fidelity ${probability(baseline.point)} [${probability(baseline.low)}, ${probability(baseline.high)}] with every step held): likely judge noise, not a step of the run — sharpen the rubric, or calibrate the judge so the gate corrects for its errors`
}

/** The locus mark of a baseline gate's attribution: the change in rate is not one rollout's. */
export const BASELINE_LOCUS_NOTE = '← locus of one failing rollout, not the cause of the change'

/**
 * The rollouts of the probe a binary search extended past `rolloutsPerStep` (it may extend the probe
 * that decides its answer), or null when no step went past it.
 */
export function extendedProbeRollouts(result: ContrastiveResult): number | null {
  const most = Math.max(...result.steps.map((step) => step.rolloutsUsed))
  return most > result.rolloutsPerStep ? most : null
}

/**
 * The contrastive attribution block of a failure message: per step, P(bad | resample)
 * with its interval and the effect against the replay baseline with its interval; the causal locus
 * marked; then the replay fidelity, what the intervals are, the arms whose replays errored (a step
 * that lost pairs to errors and decided nothing is undecided, never "no effect"), which test named
 * the locus, and what the locus step decided from. The effect column carries the effect's own
 * level (two-sided 90% for a 95% attribution, so its upper end is the one-sided bound the rescue
 * test uses).
 */
export function formatContrastive(
  result: ContrastiveResult,
  failing: Trajectory | null,
  /** What "bad" is when it is not the predicate itself (an "at least" claim: "not reply politely"). */
  badOutcome: string | null = null,
  options: ContrastiveTextOptions = {},
): string[] {
  const level = confidenceLevel(result.confidence)
  const arms = result.crn ? 'CRN' : 'independent arms'
  const search = result.search === 'binary' ? ', binary search' : ''
  const most = extendedProbeRollouts(result)
  const extended = most === null ? '' : ` (${most} on an extended probe)`
  const perStep = result.sequential
    ? `≤ ${result.rolloutsPerStep} rollouts/step${extended}, sequential`
    : `${result.rolloutsPerStep} rollouts/step`
  const bad = badOutcome === null ? '' : `, bad = ${badOutcome}`
  const lines = [
    `causal attribution of rollout ${result.factual.rollout} (${perStep}, ${arms}, Holm${search}${bad}):`,
  ]
  const shown = visibleSteps(result, options.steps ?? 'summary')
  const rows = shown.steps.map((step) => {
    const isLocus = step.index === result.locus
    const note = isLocus
      ? options.baseline === true
        ? BASELINE_LOCUS_NOTE
        : '← causal locus'
      : step.direction === 'worsens'
        ? '(resampling makes it worse)'
        : step.direction === 'undecided'
          ? '(undecided: replays errored)'
          : ''
    return [
      `${isLocus ? '▶' : ' '} ${step.index}`,
      showName(step.name),
      actionText(step.action, ACTION_WIDTH, summaryOf(failing, step.index)),
      step.evaluated
        ? `${probability(step.pBad.point)} [${probability(step.pBad.low)}, ${probability(step.pBad.high)}]`
        : '—',
      step.evaluated
        ? `${effect(step.effect.point)} [${effect(step.effect.low)}, ${effectUpperEnd(step.effect.high)}]`
        : '—',
      note,
    ]
  })
  const table = formatTable(
    [
      { header: '  step' },
      { header: 'name' },
      { header: 'action' },
      { header: 'P(bad|resample)' },
      { header: `effect [${confidenceLevel(effectLevel(result))} CI]` },
      { header: '' },
    ],
    rows,
  )
  lines.push(...withGaps(table, shown.gaps, gapReason(result)))

  const baseline = result.baseline
  lines.push(
    `replay fidelity ${probability(baseline.point)} [${probability(baseline.low)}, ${probability(baseline.high)}] ` +
      `(P(bad) with every step held), action match ${percent(result.actionMatchRate)}, ${plural(result.rolloutsUsed, 'rollout')} in all`,
    ...intervalLines(result),
  )
  lines.push(...contrastiveErrorLines(result))
  if (result.truncated)
    lines.push('attribution stopped early (the budget ran out): the table shows the work done')
  const evaluated = result.steps.filter((step) => step.evaluated)
  const undecided = evaluated.filter((step) => step.direction === 'undecided').length
  if (judgeNoiseLikely(result, options.judged === true)) {
    lines.push(judgeNoiseText(result))
  } else if (result.locus === null && evaluated.length > 0 && undecided === evaluated.length) {
    lines.push(
      `undecided: replays errored in every evaluated step's comparison, so no step could be tested (nor found not to matter); fix the error above, then attribute again`,
    )
  } else if (result.locus === null) {
    const unsure = undecided === 0 ? '' : `; ${plural(undecided, 'step')} undecided because replays errored`
    lines.push(
      `no step's resampling significantly reduces P(bad) (Holm, ${level})${unsure}: the failure is not pinned to one step — attribute: { method: 'shapley' } splits it`,
    )
  } else {
    lines.push(...formatLocusContext(failing, result.locus))
  }
  return lines
}

/**
 * One line per arm whose replays errored (never scored, so left out of every test): the baseline's,
 * then each step's, "step 3 "lookup_order": 16 of 16 replays errored (SyntaxError: …)".
 */
function contrastiveErrorLines(result: ContrastiveResult): string[] {
  const lines = result.steps.flatMap((step) =>
    step.errors === undefined
      ? []
      : [`  step ${step.index} "${showOnOneLine(step.name)}": ${erroredReplays(step.errors)}`],
  )
  if (result.baselineErrors !== undefined) {
    lines.unshift(`  the baseline (every step held): ${erroredReplays(result.baselineErrors)}`)
  }
  if (lines.length === 0) return []
  return [
    'replays that errored are never scored (a step that lost pairs to them and decided nothing is undecided, not "no effect"):',
    ...lines,
  ]
}

/** A run of consecutive steps left out of the table, `first` to `last`: one line before row `before`. */
interface Gap {
  first: number
  last: number
  before: number
}

/**
 * The steps the table shows, and the gaps between them. A binary search over a long run evaluates
 * a handful of steps out of thousands: a row per unevaluated step would bury the few that carry
 * numbers. A lone unevaluated step keeps its row (its gap line would be no shorter), and so do the
 * locus and its neighbours, which a reader compares it with.
 */
function visibleSteps(
  result: ContrastiveResult,
  mode: 'all' | 'summary',
): { steps: ContrastiveStep[]; gaps: Gap[] } {
  if (mode === 'all') return { steps: result.steps, gaps: [] }
  const locus = result.locus
  const kept = (step: ContrastiveStep) =>
    step.evaluated || (locus !== null && Math.abs(step.index - locus) <= 1)
  const steps: ContrastiveStep[] = []
  const gaps: Gap[] = []
  let hidden: ContrastiveStep[] = []
  const flush = () => {
    const [first] = hidden
    const last = hidden[hidden.length - 1]
    if (hidden.length === 1 && first !== undefined) steps.push(first)
    else if (first !== undefined && last !== undefined)
      gaps.push({ first: first.index, last: last.index, before: steps.length })
    hidden = []
  }
  for (const step of result.steps) {
    if (kept(step)) {
      flush()
      steps.push(step)
    } else hidden.push(step)
  }
  flush()
  return { steps, gaps }
}

/** Why steps went unevaluated, for the gap lines. */
function gapReason(result: ContrastiveResult): string {
  if (result.search === 'binary') return ' (binary search)'
  return result.truncated ? ' (the budget ran out)' : ''
}

/** The table lines (header first) with each gap's line in its place among the rows. */
function withGaps(table: readonly string[], gaps: readonly Gap[], reason: string): string[] {
  const [header = '', ...rows] = table
  const lines = [header]
  const gapLine = (gap: Gap) => `  …  steps ${count(gap.first)}–${count(gap.last)} not evaluated${reason}`
  rows.forEach((row, index) => {
    for (const gap of gaps) if (gap.before === index) lines.push(gapLine(gap))
    lines.push(row)
  })
  for (const gap of gaps) if (gap.before === rows.length) lines.push(gapLine(gap))
  return lines
}

/** What the locus step decided from, shortened; nothing when the failing run is not at hand. */
function formatLocusContext(failing: Trajectory | null, locus: number): string[] {
  const step = failing?.steps.find((candidate) => candidate.index === locus)
  if (step === undefined) return []
  if (step.context === undefined) {
    return [
      `step ${step.index} "${showName(step.name)}" chose ${actionText(step.action, 60, summaryOf(failing, step.index))} (no context recorded: pass { context } to ctx.step to see it here)`,
    ]
  }
  return [
    `step ${step.index} "${showName(step.name)}" chose ${actionText(step.action, 60, summaryOf(failing, step.index))} from:`,
    ...shortenContext(step.context, { width: 110 }).map((line) => `  ${line}`),
  ]
}

/** The Shapley block: each step's share of v(N) − v(∅), with intervals, and the efficiency sum. */
export function formatShapley(result: ShapleyResult, failing: Trajectory | null = null): string[] {
  const level = confidenceLevel(result.confidence)
  const how =
    result.method === 'exact'
      ? `exact over ${plural(result.evaluations, 'coalition evaluation')}`
      : `${plural(result.permutations, 'permutation')}${result.antithetic ? ' (antithetic)' : ''}`
  const perEvaluation =
    result.allocation === 'adaptive'
      ? `Neyman-allocated, ≤ ${result.samplesPerEval} rollouts/evaluation`
      : `${result.samplesPerEval} rollouts/evaluation`
  const errors = result.errors === undefined ? [] : [shapleyErrorLine(result.errors)]
  if (result.steps.length === 0 && result.truncated) return [unestimatedShapley(result), ...errors]
  const sum = result.efficiencySum
  const lines = [
    `Shapley values of rollout ${result.factual.rollout} (${how}, ${perEvaluation}, ${plural(result.rolloutsUsed, 'rollout')}):`,
  ]
  const table = formatTable(
    [{ header: '  step' }, { header: 'name' }, { header: 'action' }, { header: `value [${level} CI]` }],
    result.steps.map((step) => [
      `  ${step.index}`,
      showName(step.name),
      actionText(step.action, ACTION_WIDTH, summaryOf(failing, step.index)),
      `${effect(step.value)} [${effect(step.low)}, ${effect(step.high)}]`,
    ]),
  )
  lines.push(...table)
  lines.push(
    `sum ${effect(sum.point).trim()} [${effect(sum.low).trim()}, ${effect(sum.high).trim()}] = P(bad | all held) − P(bad | none held) (${methodName(sum.method)})` +
      (result.truncated ? '; stopped early by the budget' : ''),
  )
  lines.push(...errors)
  return lines
}

/**
 * How many coalition replays errored: the values and the sum are estimated on the others, so each
 * coalition's P(bad) is conditional on its replays running.
 */
export function shapleyErrorLine(errors: ReplayErrors): string {
  return `${erroredReplays(errors)} over the coalitions: never scored, so each coalition's P(bad) is estimated on its replays that ran`
}

/** A Shapley run the budget stopped before any value could be estimated, and what it would take. */
export function unestimatedShapley(result: ShapleyResult): string {
  const spent =
    result.rolloutsUsed === 0
      ? 'not started: the budget left too few rollouts'
      : `the budget ran out after ${plural(result.rolloutsUsed, 'rollout')}`
  const needed =
    result.minimumRollouts === undefined
      ? ''
      : `; estimating them takes at least ${result.minimumRollouts.toLocaleString('en-US')} rollouts (${result.method === 'exact' ? 'every coalition once' : `two ${result.antithetic ? 'antithetic pairs' : 'permutations'} of every prefix`}), so raise budget.maxRollouts`
  return `Shapley values of rollout ${result.factual.rollout}: ${spent}${needed}`
}

/**
 * The level of the printed effect intervals: the first evaluated step's (they all share it), else
 * the attribution's confidence.
 */
export function effectLevel(result: ContrastiveResult): number {
  return result.steps.find((step) => step.evaluated)?.effect.confidence ?? result.confidence
}

/**
 * True when the effects are two-sided at 1 − 2α: each upper end is then the one-sided bound at
 * 1 − α that the rescue test inverts. Results of earlier versions carry two-sided 1 − α effects.
 */
export function effectMatchesLocusTest(result: ContrastiveResult): boolean {
  return Math.abs(effectLevel(result) - (2 * result.confidence - 1)) < 1e-9
}

/**
 * What the printed intervals are and which test named the locus. Why both: the locus comes from a
 * one-sided test, Holm-adjusted over every step, while an interval is per step and unadjusted, so
 * a reader must know which of the two a column can be checked against.
 */
function intervalLines(result: ContrastiveResult): string[] {
  const level = confidenceLevel(result.confidence)
  const alpha = confidenceLevel(1 - result.confidence)
  const effectMethod = result.steps.find((step) => step.evaluated)?.effect.method
  const proportion = `intervals: P(bad) ${methodName(result.baseline.method)} ${level}`
  if (effectMethod === undefined) return [`${proportion}; locus test one-sided, Holm-adjusted`]
  const method = effectMethodText(effectMethod, result.methods.effect)
  const effectLevelText = confidenceLevel(effectLevel(result))
  if (!effectMatchesLocusTest(result)) {
    // An artifact of an earlier version: its effects are two-sided at 1 − α.
    return [
      `${proportion}; effect two-sided ${effectLevelText} ${method}; locus test one-sided at ${alpha}, Holm-adjusted (it matches the two-sided ${confidenceLevel(2 * result.confidence - 1)} interval, so a locus's interval here may reach past 0)`,
    ]
  }
  return [
    `${proportion}; effect two-sided ${effectLevelText} ${method} (its upper end is the one-sided ${level} bound)`,
    `locus: the latest step whose one-sided rescue test${result.sequential ? ' (e-value)' : ''} rejects at ${alpha} after Holm over ${plural(result.steps.length, 'step')} (intervals are not Holm-adjusted)`,
  ]
}

/**
 * How the effect's interval method reads: a confidence sequence is worth saying is anytime-valid,
 * and how it was made (`described`, the attribution's `methods.effect`: the running intersection
 * over the looks; artifacts of earlier versions carry the bare method name).
 */
function effectMethodText(method: IntervalMethod, described: string): string {
  if (method === 'confidence-sequence') {
    return described === 'confidence-sequence' ? 'anytime-valid confidence sequence' : described
  }
  if (method === 'tango-corrected') return PAIRED_DIFFERENCE_METHOD
  return `${methodName(method)} score interval`
}

/**
 * An action as compact JSON, cut to `width`; or the step's one-line `summary` when its adapter
 * recorded one (a model call's action is a large result object, its summary reads
 * `issue_refund({"amount":99})`). A summary that starts with a tool call keeps the tool's name
 * whole, however long, and cuts its arguments instead (`transfer_funds(…)`): the name is what the
 * reader compares steps by. Control characters and line breaks show as escapes (a bidi override in
 * an action would otherwise reorder the line), before the cut, so the width counts what is seen.
 */
export function actionText(action: Json, width = ACTION_WIDTH, summary?: string): string {
  const text = showOnOneLine(summary ?? JSON.stringify(action))
  if (text.length <= width) return text
  const call = summary === undefined ? null : /^([A-Za-z_$][\w$.:-]*)\(/.exec(text)
  if (call === null) return cutMiddle(text, width)
  const name = call[1] as string
  const rest = text.slice(name.length + 1)
  // Room for the arguments after "name(": a few characters at least, else only "name(…)".
  const room = width - name.length - 1
  return room < 5 ? `${name}(…)` : `${name}(${cutMiddle(rest, room)}`
}

/** The `meta.summary` an adapter recorded for step `index` of the failing run, if any. */
function summaryOf(failing: Trajectory | null, index: number): string | undefined {
  const summary = failing?.steps.find((step) => step.index === index)?.meta?.['summary']
  return typeof summary === 'string' ? summary : undefined
}
