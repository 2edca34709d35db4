import { JUDGE_BOX_TAIL } from '../stats/judge-corrected-test.js'
import { CLAIMS } from '../verdict/claim-table.js'
import { explainVerdict, type Explanation } from '../verdict/explain.js'
import {
  claimDirection,
  type Artifact,
  type BaselineComparison,
  type DatasetReport,
  type ScoreVerdict,
  type SequentialVerdict,
  type Verdict,
} from '../verdict/schema.js'
import { formatContrastive, formatShapley } from './attribution.js'
import { comparisonClaim, comparisonLines } from './comparison-lines.js'
import { formatContextAttribution } from './context-attribution.js'
import { formatCostLine } from './cost.js'
import { datasetLines, datasetTarget, perCaseDecisionText } from './dataset-lines.js'
import {
  confidenceLevel,
  count,
  methodName,
  percent,
  plural,
  rateIntervalText,
  scoreNumber,
  signedPercent,
} from './numbers.js'
import { passKLine } from './pass-k.js'
import { showControls, showName } from './visible.js'
import { wrapWords } from './wrap.js'

/** Options of {@link formatVerdictMessage}. */
export interface VerdictMessageOptions {
  /** Default: none. The report (or artifact) path to print on the last line. */
  report?: string
  /**
   * Default 'summary'. How many rows the attribution table shows: 'summary' folds each run of steps
   * the search never evaluated into one line (a long run stays readable in a test failure); 'all'
   * shows every step, as `causal-replay show` does.
   */
  steps?: 'all' | 'summary'
}

/**
 * The one formatter of a verdict: the text of a matcher failure, of `causal-replay show`, and of
 * anything else that prints a verdict in a terminal. Plain text, no colors: it also
 * lands in JSON reports and bug reports. Every rate comes with its interval and the method's name;
 * every failure with its replay handle.
 */
export function formatVerdictMessage(artifact: Artifact, options: VerdictMessageOptions = {}): string {
  const verdict = withShownNames(artifact.verdict)
  const explanation = explainVerdict(verdict)
  const lines: string[] = [claim(verdict)]
  const body: string[] = [
    observedLine(verdict),
    ...nonNull(passKLine(verdict)),
    ...decisionLines(verdict, explanation),
    ...judgeCorrectionLines(verdict),
    ...(verdict.gate === 'baseline' ? baselineLines(verdict.baseline, verdict.seed) : []),
    ...(verdict.gate === 'comparison' ? comparisonLines(verdict, explanation) : []),
    ...errorLines(verdict),
    ...(verdict.gate === 'score' ? attributedScoreLines(verdict) : []),
    ...(verdict.dataset === undefined ? [] : datasetLines(verdict, verdict.dataset)),
  ]
  body.push(...replayLines(verdict))
  const bad = badOutcomeText(verdict)
  if (artifact.contrastive !== null)
    body.push(
      ...formatContrastive(artifact.contrastive, artifact.failing, bad, {
        steps: options.steps ?? 'summary',
        baseline: verdict.gate === 'baseline',
        judged: artifact.failingJudged === true,
      }),
    )
  if (artifact.contextAttribution != null) body.push(...formatContextAttribution(artifact.contextAttribution))
  if (artifact.contextAttributionError != null)
    body.push(attributionFailedText(artifact.contextAttributionError, 'context attribution'))
  if (artifact.shapley !== null) body.push(...formatShapley(artifact.shapley, artifact.failing))
  if (artifact.attributionError != null) body.push(attributionFailedText(artifact.attributionError))
  // Over the gate and its attribution, so after both; none without model calls.
  const cost = formatCostLine(verdict.cost)
  if (cost !== null) body.push(cost)
  if (options.report !== undefined) body.push(`report: ${options.report}`)
  lines.push(...body.map((line) => `  ${line}`))
  return lines.join('\n')
}

/**
 * The verdict with every name it quotes made visible on one line (agent, label, a compared agent, a
 * stored baseline's owner): names come from the agent and the test, and a line feed or an escape
 * sequence in one would otherwise reach the terminal or a CI log raw, where a line starting with
 * `::error` is obeyed. Escaped once, here, so every line below quotes the shown name.
 */
function withShownNames(verdict: Verdict): Verdict {
  const shown = { ...verdict, agent: showName(verdict.agent), predicate: showName(verdict.predicate) }
  if (shown.gate === 'comparison')
    shown.comparison = { ...shown.comparison, baselineAgent: showName(shown.comparison.baselineAgent) }
  if (shown.gate === 'baseline' && shown.baseline.storedFor !== null) {
    const { agent, predicate } = shown.baseline.storedFor
    shown.baseline = {
      ...shown.baseline,
      storedFor: { agent: showName(agent), predicate: showName(predicate) },
    }
  }
  return shown
}

/**
 * What attribution calls a bad outcome, when it is not the predicate itself: the predicate failing
 * for an "at least" claim ("not reply politely"), a score on the wrong side for a score claim
 * ("helpfulness < 0.8").
 */
export function badOutcomeText(verdict: Verdict): string | null {
  if (verdict.gate === 'score')
    return `${verdict.predicate} ${scoreBadRelation(verdict)} ${scoreNumber(verdict.score.threshold)}`
  return claimDirection(verdict) === 'atLeast' ? `not ${verdict.predicate}` : null
}

/** The side of the threshold a bad score is on: "<" for an "at least" claim, ">" for "at most". */
function scoreBadRelation(verdict: ScoreVerdict): '<' | '>' {
  return claimDirection(verdict) === 'atLeast' ? '<' : '>'
}

/** "attributing rollout 12, score 0.12, as bad: score < 0.8", or why no rollout is attributed. */
function attributedScoreLines(verdict: ScoreVerdict): string[] {
  if (verdict.kind === 'pass' || verdict.stop === 'error') return []
  const { attributed, threshold } = verdict.score
  const relation = scoreBadRelation(verdict)
  if (attributed === null) {
    return verdict.observed.n === 0
      ? []
      : [`no rollout scored ${relation} ${scoreNumber(threshold)}, so none is attributed`]
  }
  const which = claimDirection(verdict) === 'atLeast' ? 'lowest' : 'highest'
  return [
    `attributing rollout ${attributed.rollout}, score ${scoreNumber(attributed.score)}, as bad: score ${relation} ${scoreNumber(threshold)} (the ${which}-scoring rollout)`,
  ]
}

/**
 * Where the attribution table would be when the attribution threw: "attribution failed: The
 * predicate "refunds" threw: judge is down (replay rollout 3)". The HTML report prints it too.
 */
export function attributionFailedText(
  failure: NonNullable<Artifact['attributionError']>,
  /** Which attribution failed: the whole one, or the context attribution after a contrastive result. */
  what: 'attribution' | 'context attribution' = 'attribution',
): string {
  const where = failure.rollout === null ? '' : ` (replay rollout ${failure.rollout})`
  // The message is the user's own error's: shown, not obeyed, and kept inside the indented block.
  const message = showControls(failure.message).replaceAll('\n', '\n    ')
  return `${what} failed: ${message}${where}`
}

/** The claim, as the test states it: "expected support to rarely call issue_refund: ≤ 5% at 95% confidence". */
export function claim(verdict: Verdict): string {
  const { predicate } = verdict
  // A dataset claim names its target, and its bound is on the mean over the cases.
  const agent =
    verdict.dataset === undefined ? verdict.agent : `${verdict.agent} ${datasetTarget(verdict.dataset)}`
  const mean =
    verdict.dataset === undefined ? '' : verdict.dataset.per === 'case' ? 'every case ' : 'mean over cases '
  const level = confidenceLevel(verdict.confidence)
  switch (verdict.gate) {
    case 'sequential': {
      const { phrase, direction } = CLAIMS[verdict.claim]
      return `expected ${agent} to ${phrase} ${predicate}: ${mean}${direction === 'atMost' ? '≤' : '≥'} ${boundText(verdict.bound)} at ${level} confidence`
    }
    case 'zero-tolerance': {
      const { phrase, direction } = CLAIMS[verdict.claim]
      return direction === 'atMost'
        ? `expected ${agent} to ${phrase} ${predicate}: 0 in ${plural(verdict.rollouts, 'rollout')}`
        : `expected ${agent} to ${phrase} ${predicate}: in all ${plural(verdict.rollouts, 'rollout')}`
    }
    case 'score': {
      const { threshold, range } = verdict.score
      const side = CLAIMS[verdict.claim].phrase
      return `expected ${agent} to score ${predicate} ${side} ${scoreNumber(threshold)} on average (scores in [${scoreNumber(range[0])}, ${scoreNumber(range[1])}]) at ${level} confidence`
    }
    case 'baseline': {
      const comparison = verdict.baseline
      const stored = comparison.stored
      const reference =
        stored === null ? '' : ` (${percent(stored.point)}, tolerance ${toleranceText(comparison)})`
      return `expected ${agent} to ${predicate} no ${comparison.better === 'lower' ? 'more' : 'less'} often than its baseline${reference} at ${level} confidence`
    }
    case 'comparison':
      return comparisonClaim(verdict)
  }
}

/** How much worse the rate may get, signed in the worse direction: "+2.0%" (lower is better), "-2.0%". */
export function toleranceText(comparison: BaselineComparison): string {
  return `${comparison.better === 'lower' ? '+' : '-'}${percent(comparison.tolerance)}`
}

/**
 * "observed 23/100 rollouts (23.0%, 95% Clopper–Pearson CI 15.2%–32.5%)  → fail". A sequential
 * gate's rate is read where its test stopped, so its point leans toward the verdict; the line says
 * so, and its interval is the anytime-valid confidence sequence, which holds at that stop. With no
 * rollout scored it says why: "observed: no rollout completed: cassette miss on step 0 "model#1"
 * → fail" (not 0/0).
 */
function observedLine(verdict: Verdict): string {
  if (verdict.gate === 'score') return observedScoreLine(verdict)
  const { observed } = verdict
  const missed = verdict.errors.examples.find((example) => example.error.name === 'CassetteMissError')
  if (observed.n === 0 && missed !== undefined) {
    const step = /\b(step \d+ "[^"\n]*")/.exec(missed.error.message)?.[1]
    const where =
      step === undefined ? `rollout ${missed.rollout}` : `${showControls(step)} of rollout ${missed.rollout}`
    return `observed: no rollout completed: cassette miss on ${where} (offline)  → ${verdict.kind}`
  }
  if (verdict.gate === 'sequential' && verdict.judgeCorrection !== undefined)
    return judgedObservedLine(verdict)
  const stopped = verdict.gate === 'sequential' || verdict.gate === 'comparison'
  const point = `${percent(observed.point)}${stopped ? ` ${SEQUENTIAL_POINT}` : ''}`
  // An artifact of an earlier version carries a fixed-sample interval read at the stop: shown, but
  // not as a CI at its level (it covered 85–90% at 95% after early stops).
  const interval =
    verdict.gate === 'sequential' && observed.method !== 'confidence-sequence'
      ? `${confidenceLevel(observed.confidence)} ${methodName(observed.method)} interval ${percent(observed.low)}–${percent(observed.high)}, descriptive only after a sequential stop`
      : rateIntervalText(observed)
  if (verdict.dataset !== undefined) {
    const ran = verdict.dataset.table.filter((row) => row.runs > 0).length
    const rate = observed.n === 0 ? 'no completed run' : `mean over cases ${point}, ${interval}`
    return `observed ${count(observed.successes)}/${plural(observed.n, 'run')} over ${count(ran)} of ${plural(verdict.dataset.cases, 'case')} (${rate})  → ${verdict.kind}${passesAnyway(verdict)}`
  }
  const rate = observed.n === 0 ? 'no completed rollout' : `${point}, ${interval}`
  return `observed ${count(observed.successes)}/${plural(observed.n, 'rollout')} (${rate})  → ${verdict.kind}${passesAnyway(verdict)}`
}

/**
 * "observed 12/80 rollouts judged yes; judge-corrected rate 9.1% at the sequential stop, 90%
 * judge-corrected (Rogan–Gladen) confidence sequence 2.0%–21.3%  → fail": the judge's count, then
 * the true rate the gate decided on.
 */
function judgedObservedLine(verdict: SequentialVerdict): string {
  const { observed } = verdict
  const rate =
    observed.n === 0
      ? 'no completed rollout'
      : `judge-corrected rate ${percent(observed.point)} ${SEQUENTIAL_POINT}, ${rateIntervalText(observed)}`
  return `observed ${count(observed.successes)}/${plural(observed.n, 'rollout')} judged yes; ${rate}  → ${verdict.kind}${passesAnyway(verdict)}`
}

/** After the outcome of an undecided sequential or score gate told to pass: why it passes. */
function passesAnyway(verdict: Verdict): string {
  return verdict.kind === 'inconclusive' &&
    (verdict.gate === 'sequential' || verdict.gate === 'score') &&
    verdict.onInconclusive === 'pass'
    ? " (passes: onInconclusive is 'pass')"
    : ''
}

/**
 * What the judge said and how its calibration entered the rate: its apparent rate with the
 * confidence sequence at its share of α, the calibration's counts with their exact intervals, and
 * why an undecided corrected gate cannot decide when more rollouts would not help.
 */
function judgeCorrectionLines(verdict: Verdict): string[] {
  if (verdict.gate !== 'sequential' || verdict.judgeCorrection === undefined) return []
  const { apparent, sensitivity, specificity, apparentBounds } = verdict.judgeCorrection
  const boxLevel = confidenceLevel(1 - 2 * JUDGE_BOX_TAIL * (1 - verdict.confidence))
  const accuracy = (name: string, record: typeof sensitivity) =>
    `${name} ${count(record.correct)}/${count(record.of)} (${boxLevel} Clopper–Pearson ${percent(record.low)}–${percent(record.high)})`
  const lines = [
    `judge-corrected (${verdict.judgeCorrection.method}): the judge said yes in ${percent(apparent.point)} of runs (${rateIntervalText(apparent)}); calibration: ${accuracy('sensitivity', sensitivity)}, ${accuracy('specificity', specificity)}`,
  ]
  if (apparentBounds === null) {
    lines.push(
      'the calibration cannot bound the true rate: its intervals reach a sensitivity and a specificity of 0; label more runs, or sharpen the rubric',
    )
  } else if (verdict.kind === 'inconclusive' && verdict.rolloutsToDecide === null && apparent.n > 0) {
    lines.push(
      `the judge's apparent rate lies between ${percent(apparentBounds.below)} and ${percent(apparentBounds.above)}, where the calibration cannot tell the true rate from ${boundText(verdict.bound)}: label more runs to narrow it`,
    )
  }
  return lines
}

/** How every rendering qualifies a sequential gate's point: it is read where the test stopped. */
export const SEQUENTIAL_POINT = 'at the sequential stop'

/**
 * "observed mean score 0.72 at the sequential stop over 40 rollouts (90% betting confidence sequence
 * 0.61–0.8); 28/40 scored ≥ 0.8  → fail". The mean is read where the test stopped, as a sequential
 * gate's rate is; the sequence is two-sided at 1 − 2α, each end the claim's one-sided bound, and
 * holds at that stop.
 */
function observedScoreLine(verdict: ScoreVerdict): string {
  const { observed } = verdict
  const { mean, threshold } = verdict.score
  const tail = passesAnyway(verdict)
  if (mean === null) return `observed no completed rollout  → ${verdict.kind}${tail}`
  const good = claimDirection(verdict) === 'atLeast' ? '≥' : '≤'
  return (
    `observed mean score ${scoreNumber(mean.point)} ${SEQUENTIAL_POINT} over ${plural(observed.n, 'rollout')} ` +
    `(${confidenceLevel(mean.confidence)} betting confidence sequence ${scoreNumber(mean.low)}–${scoreNumber(mean.high)}); ` +
    `${count(observed.successes)}/${count(observed.n)} scored ${good} ${scoreNumber(threshold)}  → ${verdict.kind}${tail}`
  )
}

/** How the decision was made (or why it was not); a baseline's standing has lines of its own. */
function decisionLines(verdict: Verdict, explanation: Explanation): string[] {
  if (verdict.gate === 'baseline') return []
  const used = plural(verdict.rolloutsUsed, 'rollout')
  switch (explanation.reason) {
    case 'error-outcome':
      return [`stopped after ${used}: an error outcome fails the gate (allowErrors is false)`]
    case 'no-completed-rollout':
      return verdict.stop === 'deadline'
        ? [
            `no completed rollout to decide on (${used} run): ${testTimeoutText(verdict)} was near, so sampling stopped; raise ${RAISE_TEST_TIMEOUT}`,
          ]
        : [`no completed rollout to decide on (${used} run)`]
    case 'per-case':
      return [perCaseDecisionText(explanation, verdict)]
    case 'decided':
      return [
        `decided after ${used}: ${confidenceLevel(explanation.level)} ${explanation.end} confidence bound ${percent(explanation.value)} ${explanation.relation} ${boundText(explanation.bound)} (${explanation.method}, anytime-valid)`,
      ]
    case 'undecided':
      return undecidedLines(
        explanation,
        used,
        testTimeoutText(verdict),
        verdict.gate === 'sequential' && verdict.judgeCorrection !== undefined,
        verdict.dataset,
      )
    case 'occurrence': {
      const first = explanation.rollout === null ? '' : `first in rollout ${explanation.rollout}; `
      return [`${first}stopped at the first occurrence (${used} run)`]
    }
    case 'none-in-n': {
      const budget =
        explanation.cutShort === 'budget'
          ? `the budget ran out after ${used}; `
          : explanation.cutShort === 'deadline'
            ? `${testTimeoutText(verdict)} was near after ${used} (raise ${RAISE_TEST_TIMEOUT}); `
            : ''
      const how = `(${confidenceLevel(explanation.level)} one-sided ${methodName(explanation.method)} bound, exact)`
      // Over a dataset the same bound holds for the mean over cases (see the zero-tolerance gate).
      const rate =
        verdict.dataset === undefined
          ? 'the rate'
          : verdict.dataset.per === 'case'
            ? "every case's rate (together, Bonferroni across the cases)"
            : 'the mean rate over cases'
      return CLAIMS[explanation.claim].direction === 'atMost'
        ? [
            `${budget}zero in ${count(explanation.n)}: ${rate} is at most ${percent(explanation.value)} ${how}`,
          ]
        : [
            `${budget}all of ${count(explanation.n)}: ${rate} is at least ${percent(explanation.value)} ${how}`,
          ]
    }
    case 'score-decided':
      return [
        `decided after ${used}: ${confidenceLevel(explanation.level)} ${explanation.end} confidence bound ${scoreNumber(explanation.value)} ${explanation.relation} ${scoreNumber(explanation.threshold)} (${explanation.method}, anytime-valid)`,
      ]
    case 'score-undecided': {
      const why = undecidedAfter(explanation.why, used, testTimeoutText(verdict))
      const raise = raiseFor(explanation.why)
      return [
        `${why}: ${confidenceLevel(explanation.level)} confidence bounds ${scoreNumber(explanation.low)}–${scoreNumber(explanation.high)} straddle ${scoreNumber(explanation.threshold)} (${explanation.method}, anytime-valid)`,
        `a mean closer to the threshold needs more rollouts to decide: ${raise}, move the threshold, or accept the risk with onInconclusive: 'pass'`,
      ]
    }
    case 'nothing-concluded':
    case 'baseline':
    case 'comparison':
      return []
  }
}

/** What stopped an undecided sequential gate (a rate's or a score's), as its decision line opens. */
function undecidedAfter(why: UndecidedWhy, used: string, testTimeout: string): string {
  if (why === 'budget') return `the budget ran out after ${used}`
  if (why === 'deadline') return `undecided after ${used}, when ${testTimeout} was near`
  return `undecided after ${used} (maxRollouts)`
}

/** What to raise for the rollouts an undecided sequential gate lacked. */
function raiseFor(why: UndecidedWhy): string {
  if (why === 'budget') return 'raise the budget'
  if (why === 'deadline') return `raise ${RAISE_TEST_TIMEOUT}`
  return 'raise maxRollouts'
}

type UndecidedWhy = Extract<Explanation, { reason: 'undecided' }>['why']

function undecidedLines(
  explanation: Extract<Explanation, { reason: 'undecided' }>,
  used: string,
  testTimeout: string,
  /** A judge-corrected gate says itself why more rollouts would not decide it. */
  judged: boolean,
  /** A dataset claim's account: what its rounds say about the rollouts it lacked. */
  dataset: DatasetReport | undefined,
): string[] {
  const bound = boundText(explanation.bound)
  const why = undecidedAfter(explanation.why, used, testTimeout)
  const lines = [
    `${why}: ${confidenceLevel(explanation.level)} confidence bounds ${percent(explanation.low)}–${percent(explanation.high)} straddle ${bound} (${explanation.method}, anytime-valid)`,
  ]
  if (dataset !== undefined) {
    if (explanation.why === 'max-rollouts' && explanation.maxRollouts < dataset.cases) {
      lines.push(
        `maxRollouts (${count(explanation.maxRollouts)}) is less than one round of the dataset's ${count(dataset.cases)} cases, so this is the partial round's result: raise maxRollouts to ${count(dataset.cases)} or more to run every case once, or accept the risk with onInconclusive: 'pass'`,
      )
    } else if (explanation.completed > 0) {
      lines.push(
        `a mean closer to ${bound} needs more rounds of the dataset to decide: ${raiseFor(explanation.why)}, move the bound, or accept the risk with onInconclusive: 'pass'`,
      )
    }
    return lines
  }
  if (explanation.rolloutsToDecide !== null) {
    const raise = raiseFor(explanation.why)
    lines.push(
      `about ${count(explanation.rolloutsToDecide)} rollouts in all would decide it if the rate stays near ${percent(explanation.observed)}: ` +
        `${raise}, or accept the risk with onInconclusive: 'pass'`,
    )
  } else if (explanation.completed > 0 && !judged) {
    lines.push(
      `the observed rate ${percent(explanation.observed)} is too close to ${bound} for any practical number of rollouts to decide: move the bound or change the agent`,
    )
  }
  if (explanation.why === 'deadline' && explanation.rolloutsToDecide === null) {
    lines.push(`to run more rollouts, raise ${RAISE_TEST_TIMEOUT}`)
  }
  return lines
}

/** The option a gate stopped by its test's timeout needs raised. */
const RAISE_TEST_TIMEOUT = "the test's timeout (test(name, { timeout }) or testTimeout in the config)"

/** "the test's timeout (5,000 ms)", or without the number when the verdict does not record it. */
function testTimeoutText(verdict: Verdict): string {
  const ms = verdict.testTimeout?.testTimeoutMs
  return ms === undefined ? "the test's timeout" : `the test's timeout (${count(ms)} ms)`
}

/**
 * Why rollouts timed out sooner than `timeoutMs`: the test had less time left. Shown only when an
 * error example is a timeout, since that is the error this cap caused.
 */
function cappedRolloutsLine(verdict: Verdict): string[] {
  const cap = verdict.testTimeout
  if (cap == null || cap.rolloutTimeoutMs <= 0) return []
  if (!verdict.errors.examples.some((example) => example.error.kind === 'timeout')) return []
  return [
    `rollouts were capped at ${count(cap.rolloutTimeoutMs)} ms, the time left in the test (its timeout is ${count(cap.testTimeoutMs)} ms): raise ${RAISE_TEST_TIMEOUT}, or make the agent faster`,
  ]
}

function baselineLines(comparison: BaselineComparison, seed: number): string[] {
  const stored = comparison.stored
  const storedText =
    stored === null
      ? ''
      : `${count(stored.successes)}/${plural(stored.n, 'rollout')} (${percent(stored.point)}, ${confidenceLevel(stored.confidence)} ${methodName(stored.method)} CI ${percent(stored.low)}–${percent(stored.high)})`
  switch (comparison.status) {
    case 'compared': {
      const lines = [`baseline: ${storedText}, seed ${comparison.storedSeed ?? '?'}, in ${comparison.file}`]
      const standing = baselineStandingText(comparison)
      if (standing !== null) lines.push(standing)
      if (comparison.finding === 'undecided') {
        const reseeded =
          comparison.storedSeed !== null && comparison.storedSeed !== seed
            ? ` (this run's seed ${seed} is not the stored seed ${comparison.storedSeed}, so it could not reproduce the stored run)`
            : ''
        lines.push(
          `this run cannot rule out a regression beyond the tolerance${reseeded}: raise \`rollouts\` or \`tolerance\` (see the power table of \`toMatchRateBaseline\` in the documentation), or accept the new rate with \`vitest -u\``,
        )
      }
      return lines
    }
    case 'created':
      return [`baseline: none yet for "${comparison.key}"; recorded this rate in ${comparison.file}`]
    case 'updated':
      return [
        `baseline: rewritten (update mode) in ${comparison.file}${stored === null ? '' : `; it was ${storedText}`}`,
      ]
    case 'missing':
      return [
        `baseline: no entry "${comparison.key}" in ${comparison.file}, and this run may not write one (snapshot update state 'none', as in CI)`,
        'record it locally with `vitest -u` (or `vitest run --update`) and commit the file',
      ]
    case 'mismatch':
      return [
        `baseline: the entry "${comparison.key}" in ${comparison.file} was recorded for ${storedForText(comparison)}, not for this claim; nothing was compared`,
        'give this assertion its own `name`, or rewrite the entry with `vitest -u`',
      ]
  }
}

function errorLines(verdict: Verdict): string[] {
  const { errors } = verdict
  if (errors.count === 0) return []
  const what = verdict.gate === 'score' ? 'mean' : 'rate'
  const lines =
    verdict.stop === 'error'
      ? [
          `${plural(errors.count, 'rollout')} ended in an error (pass allowErrors: true to leave errors out of the ${what} instead):`,
        ]
      : verdict.stop === 'deadline' && !verdict.allowErrors
        ? [
            `${plural(errors.count, 'rollout')} ended in an error, not scored (the test's timeout cut it short):`,
          ]
        : [
            `${plural(errors.count, 'rollout')} of ${count(verdict.rolloutsUsed)} ended in an error, left out of the ${what} (allowErrors):`,
          ]
  // Never cut: the part of an error message that says what went wrong can sit anywhere in it.
  for (const example of errors.examples) {
    const text = `rollout ${example.rollout}: ${example.error.kind}, ${example.error.name}: ${example.error.message}`
    lines.push(...wrapWords(showControls(text), ERROR_WIDTH, '    ').map((line) => `  ${line}`))
  }
  if (errors.count > errors.examples.length)
    lines.push(`  … and ${count(errors.count - errors.examples.length)} more`)
  lines.push(...cappedRolloutsLine(verdict))
  return lines
}

/** Width an error example wraps at, the indent of the message included. */
const ERROR_WIDTH = 108

/** The replay handle of the failing run, or the seed when there is none; never omitted on failure. */
function replayLines(verdict: Verdict): string[] {
  const { replay, seed } = verdict
  if (replay !== null) {
    // Over a dataset the same (seed, rollout) runs the same case, so the scenario replays it.
    const target = verdict.dataset === undefined ? 'agent' : 'agent.over(dataset)'
    return [
      `replay: { seed: ${replay.seed}, rollout: ${replay.rollout} }  ← record(${target}, { seed: ${replay.seed}, rollout: ${replay.rollout} }) returns this run`,
    ]
  }
  if (verdict.kind === 'pass') return []
  return [
    `seed: ${seed} (${SEED_SOURCES[verdict.seedSource]}); CAUSAL_REPLAY_SEED=${seed} or { seed: ${seed} } reruns it`,
  ]
}

/**
 * Where a compared rate stands, in one line with the stored rate, the difference, the bound the
 * gate tested and its method: "new 40.0% vs stored 23.0%: difference +17.0%, 95% upper bound
 * +28.4% (Newcombe, continuity-corrected), not within the +5.0% tolerance → a regression beyond it is not ruled out".
 * Null when nothing was compared.
 */
export function baselineStandingText(comparison: BaselineComparison): string | null {
  const { difference, stored, finding } = comparison
  if (difference === null || stored === null || finding === null) return null
  const rates = `new ${percent(difference.point + stored.point)} vs stored ${percent(stored.point)}: difference ${signedPercent(difference.point)}`
  if (finding === 'reproduced') {
    return `${rates}; the stored run reproduced exactly with seed ${comparison.storedSeed ?? '?'} (every rollout's outcome as stored) → unchanged`
  }
  // Each end of the stored interval is a one-sided bound at the gate's confidence.
  const level = confidenceLevel((1 + difference.confidence) / 2)
  const pairs = comparison.pairs ?? null
  const method =
    pairs === null
      ? methodName(difference.method)
      : `${methodName(difference.method)}, paired by rollout: ${count(pairs.worse)} worse, ${count(pairs.better)} better, ${count(pairs.same)} alike`
  const tolerance = toleranceText(comparison)
  const worseIsHigher = comparison.better === 'lower'
  const worseEnd = worseIsHigher ? difference.high : difference.low
  const betterEnd = worseIsHigher ? difference.low : difference.high
  const bound = (end: number, side: 'upper' | 'lower') =>
    `${level} ${side} bound ${signedPercent(end)} (${method})`
  const worseSide = worseIsHigher ? 'upper' : 'lower'
  const betterSide = worseIsHigher ? 'lower' : 'upper'
  switch (finding) {
    case 'within':
      return `${rates}, ${bound(worseEnd, worseSide)}, within the ${tolerance} tolerance`
    case 'undecided':
      return `${rates}, ${bound(worseEnd, worseSide)}, not within the ${tolerance} tolerance → a regression beyond it is not ruled out`
    case 'regressed':
      return `${rates}, ${bound(betterEnd, betterSide)}, beyond the ${tolerance} tolerance → regression`
  }
}

/** Whom a stored baseline entry belongs to: `support / "call issue_refund"`. */
export function storedForText(comparison: BaselineComparison): string {
  const owner = comparison.storedFor
  return owner === null ? 'nobody' : `${owner.agent} / "${owner.predicate}"`
}

/** Where a seed came from, in words. */
export const SEED_SOURCES: Record<Verdict['seedSource'], string> = {
  option: 'the seed option',
  env: 'CAUSAL_REPLAY_SEED',
  test: 'derived from the test name',
}

/** A bound as the test wrote it: 0.05 → "5%", 0.025 → "2.5%". */
export function boundText(value: number): string {
  return `${Number((value * 100).toFixed(4))}%`
}

/** A line that may be absent, as a list to spread. */
function nonNull(line: string | null): string[] {
  return line === null ? [] : [line]
}
