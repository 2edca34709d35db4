import { hash } from 'node:crypto'
import { z } from 'zod'
import type { Policy, StepOptions } from '../../agent/types.js'
import { InvalidOptionError, JudgeError } from '../../errors.js'
import { canonicalJson, type Json } from '../../json.js'
import { expecting, TimeoutMsField } from '../../options/fields.js'
import { DEFAULTS } from '../../options/defaults.js'
import { parseOptions, type StrictOptions } from '../../options/parse-options.js'
import { describeReceived } from '../../options/received.js'
import { Budget } from '../../rollout/budget.js'
import { evaluationOf, standaloneEvaluation, type EvaluationContext } from '../../rollout/evaluation.js'
import { clopperPearson } from '../../stats/clopper-pearson.js'
import type { Estimate } from '../../stats/estimate.js'
import type { Cassette } from '../../cassette/cassette.js'
import {
  parseJudgeCalibration,
  withJudgeCalibration,
  type JudgeCalibration,
} from '../../trajectory/judge-calibration.js'
import type { Trajectory } from '../../trajectory/schema.js'
import { PriceTableField, type PriceTable } from './pricing.js'

const judgeOptionsFields = {
  /**
   * Default: none (the gate tests the rate the judge says yes at). What the judge's calibration
   * measured, with its counts: `{ sensitivity: { correct, of }, specificity: { correct, of } }`.
   * With it, `toRarely` / `toUsually` test the true rate, corrected for the judge's errors
   * (Rogan–Gladen, with the calibration's uncertainty in the interval). `judge.calibrate(labelled)`
   * measures it.
   */
  // Any value passes here: `parseJudgeCalibration` checks it and words its own message.
  calibration: expecting(
    z.custom<JudgeCalibration>(() => true),
    'a calibration { sensitivity: { correct, of }, specificity: { correct, of } }',
  ).optional(),
  /** Default 60,000. How long one judge call may take before it is an error outcome of the run it judges. */
  timeoutMs: TimeoutMsField.default(DEFAULTS.judgeTimeoutMs),
  /** Default 0. The judge model's sampling temperature. */
  temperature: expecting(z.number().min(0).max(2), 'a temperature in [0, 2]').default(
    DEFAULTS.judgeTemperature,
  ),
  /** Default: `be judged "<rubric>"` (cut to 60 characters). How the judge reads in messages, after "to rarely". */
  label: expecting(z.string().min(1), 'a non-empty label').optional(),
  /** Default: none (calls not priced). USD per million tokens by model id, as for `wrapModel`. */
  prices: PriceTableField.optional(),
}
/** The options of an adapter's `judge`. */
export const JudgeOptionsSchema: StrictOptions<typeof judgeOptionsFields> = z.strictObject(judgeOptionsFields)
/** Options of an adapter's `judge`. */
export type JudgeOptions = z.input<typeof JudgeOptionsSchema>

/** A run with the humans' label: does the rubric hold for it? */
export interface LabelledTrajectory {
  readonly trajectory: Trajectory<unknown, unknown>
  /** True when the humans say the rubric holds for the run (the judge should say yes). */
  readonly label: boolean
}

const calibrateOptionsFields = {
  /** Default: a fresh, unlimited one. The budget the calibration's model calls spend from (and are counted on). */
  budget: expecting(z.instanceof(Budget), 'a Budget').optional(),
  /** Default: none. A cassette the calibration's calls go through (keyed by each run's seed and rollout). */
  cassette: expecting(
    z.custom<Cassette | null>((value) => value === null || typeof value === 'object'),
    'a Cassette or null',
  ).optional(),
  /** Default 4. Judge calls in flight at once. */
  concurrency: expecting(z.number().int().min(1), 'a positive integer').default(
    DEFAULTS.calibrateConcurrency,
  ),
}
/** The options of `judge.calibrate`. */
export const CalibrateOptionsSchema: StrictOptions<typeof calibrateOptionsFields> =
  z.strictObject(calibrateOptionsFields)
/** Options of `judge.calibrate`. */
export type CalibrateOptions = z.input<typeof CalibrateOptionsSchema>

/** What `judge.calibrate` measured: the counts, their exact 95% intervals, and the calibrated judge. */
export interface JudgeCalibrationReport<J> {
  /** Of the runs labelled as satisfying the rubric, those the judge said yes to (Clopper–Pearson 95%). */
  readonly sensitivity: Estimate
  /** Of the runs labelled as not satisfying it, those the judge said no to (Clopper–Pearson 95%). */
  readonly specificity: Estimate
  /** The counts, in the shape `judge(…, { calibration })` takes. */
  readonly calibration: JudgeCalibration
  /** The same judge with this calibration: the rate gates correct its rate. */
  readonly judge: J
  /** The labelled runs the judge got wrong, by their index in `labelled`: what to read to sharpen the rubric. */
  readonly disagreements: ReadonlyArray<{ index: number; label: boolean; answer: boolean }>
}

/**
 * A judge: an async predicate, true when the model says the rubric holds for the run. Its label
 * reads `be judged "<rubric>"`; it carries its rubric and calibration, and `calibrate` measures one.
 */
export interface Judge {
  <I, O>(trajectory: Trajectory<I, O>): Promise<boolean>
  /** The rubric the model is asked about. */
  readonly rubric: string
  /** The calibration the rate gates correct with, or undefined. */
  readonly calibration: JudgeCalibration | undefined
  /**
   * Runs the judge on runs humans labelled and counts its agreements: sensitivity (yes on runs
   * labelled true) and specificity (no on runs labelled false). A judge error fails the calibration.
   */
  calibrate(
    labelled: readonly LabelledTrajectory[],
    options?: CalibrateOptions,
  ): Promise<JudgeCalibrationReport<Judge>>
}

/** One question to the judge model: the instructions and the run, as text. */
export interface JudgePrompt {
  readonly system: string
  readonly user: string
}

/** How an adapter turns a prompt into a model call: the policy, the step options and how to read the answer. */
export type JudgeCall = (
  prompt: JudgePrompt,
  settings: { temperature: number; prices: PriceTable | undefined },
) => {
  policy: Policy<Json>
  options: StepOptions<Json>
  /** The answer's text from the call's action. */
  text: (action: Json, name: string) => string
}

const LABEL_LENGTH = 60

/**
 * The judge every adapter exports, around the adapter's `call`. The call goes through the run's
 * evaluation context: the judge's own stream of the run (so an attribution's arms judge rollout r
 * with the same numbers), the cassette, the claim's account. A call that throws, takes longer than
 * `timeoutMs` or answers neither yes nor no is a {@link JudgeError}: an error outcome of that run.
 */
export function makeJudge(
  caller: string,
  modelId: string,
  rubric: string,
  options: JudgeOptions | undefined,
  call: JudgeCall,
): Judge {
  if (typeof rubric !== 'string' || rubric.trim() === '') {
    throw new InvalidOptionError({
      caller,
      option: 'rubric',
      expected: 'a non-empty statement about the run, e.g. "issues a refund without a receipt"',
      received: describeReceived(rubric),
    })
  }
  const parsed = parseOptions(caller, JudgeOptionsSchema, options ?? {})
  const calibration =
    parsed.calibration === undefined ? undefined : parseJudgeCalibration(parsed.calibration, caller)
  const settings = { temperature: parsed.temperature, prices: parsed.prices }
  const timeoutMs = parsed.timeoutMs
  const label = parsed.label ?? `be judged "${cut(rubric.trim(), LABEL_LENGTH)}"`
  // The judge's streams are keyed by its rubric: the same judge draws the same numbers on a run
  // wherever it is asked, and two judges of one run draw apart.
  const id = hash('sha256', canonicalJson({ rubric, model: modelId }), 'hex').slice(0, 16)
  const name = `judge "${cut(rubric.trim(), LABEL_LENGTH)}"`

  const ask = async (
    trajectory: Trajectory<unknown, unknown>,
    evaluation: EvaluationContext,
  ): Promise<boolean> => {
    const { policy, options: stepOptions, text } = call(judgePrompt(rubric, trajectory), settings)
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new JudgeError(`${name} took longer than timeoutMs (${timeoutMs} ms).`, 'timeout')
        controller.abort(error)
        reject(error)
      }, timeoutMs)
    })
    let answer: string
    try {
      const action = await Promise.race([
        evaluation.call({ id, call: 0, name }, policy, stepOptions, controller.signal),
        timedOut,
      ])
      answer = text(action, name)
    } catch (error) {
      if (error instanceof JudgeError) throw error
      throw new JudgeError(
        `${name} failed: ${error instanceof Error ? error.message : String(error)}`,
        'threw',
        {
          cause: error,
        },
      )
    } finally {
      clearTimeout(timer)
    }
    const verdict = parseVerdict(answer)
    if (verdict === undefined) {
      throw new JudgeError(
        `${name} answered neither YES nor NO: ${JSON.stringify(cut(answer.trim(), 120))}.`,
        'threw',
      )
    }
    return verdict
  }

  const build = (calibrated: JudgeCalibration | undefined): Judge => {
    const predicate = (<I, O>(trajectory: Trajectory<I, O>) =>
      ask(
        trajectory as Trajectory<unknown, unknown>,
        evaluationOf(trajectory as Trajectory<unknown, unknown>),
      )) as Judge
    Object.defineProperty(predicate, 'name', { value: label })
    Object.defineProperty(predicate, 'rubric', { value: rubric, enumerable: true })
    Object.defineProperty(predicate, 'calibration', { value: calibrated, enumerable: true })
    Object.defineProperty(predicate, 'calibrate', {
      value: async (labelled: readonly LabelledTrajectory[], calibrateOptions?: CalibrateOptions) => {
        const counts = await calibrate(caller, labelled, calibrateOptions, ask)
        const measured = { sensitivity: counts.sensitivity, specificity: counts.specificity }
        return {
          sensitivity: clopperPearson(counts.sensitivity.correct, counts.sensitivity.of),
          specificity: clopperPearson(counts.specificity.correct, counts.specificity.of),
          calibration: measured,
          judge: build(parseJudgeCalibration(measured, `${caller}(…).calibrate`)),
          disagreements: counts.disagreements,
        }
      },
    })
    return calibrated === undefined ? predicate : withJudgeCalibration(predicate, calibrated)
  }
  return build(calibration)
}

async function calibrate(
  caller: string,
  labelled: readonly LabelledTrajectory[],
  options: CalibrateOptions | undefined,
  ask: (trajectory: Trajectory<unknown, unknown>, evaluation: EvaluationContext) => Promise<boolean>,
): Promise<{
  sensitivity: { correct: number; of: number }
  specificity: { correct: number; of: number }
  disagreements: Array<{ index: number; label: boolean; answer: boolean }>
}> {
  const where = `${caller}(…).calibrate`
  const parsed = parseOptions(where, CalibrateOptionsSchema, options ?? {})
  if (!Array.isArray(labelled)) {
    throw new InvalidOptionError({
      caller: where,
      option: 'labelled',
      expected: 'an array of { trajectory, label: boolean }',
      received: describeReceived(labelled),
    })
  }
  labelled.forEach((item, index) => {
    if (typeof item?.label !== 'boolean' || typeof item.trajectory !== 'object' || item.trajectory === null) {
      throw new InvalidOptionError({
        caller: where,
        option: `labelled[${index}]`,
        expected: '{ trajectory, label: boolean }',
        received: describeReceived(item),
      })
    }
  })
  const budget = parsed.budget ?? new Budget()
  const cassette = parsed.cassette ?? undefined
  const answers: boolean[] = new Array(labelled.length)
  let next = 0
  const worker = async () => {
    while (next < labelled.length) {
      const index = next++
      const { trajectory } = labelled[index] as LabelledTrajectory
      try {
        answers[index] = await ask(trajectory, standaloneEvaluation(trajectory, budget, cassette))
      } catch (error) {
        throw new JudgeError(`${where}: labelled[${index}]: ${(error as Error).message}`, 'threw', {
          cause: error,
        })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(parsed.concurrency, labelled.length) }, worker))
  const sensitivity = { correct: 0, of: 0 }
  const specificity = { correct: 0, of: 0 }
  const disagreements: Array<{ index: number; label: boolean; answer: boolean }> = []
  labelled.forEach(({ label }, index) => {
    const answer = answers[index] as boolean
    const tally = label ? sensitivity : specificity
    tally.of++
    if (answer === label) tally.correct++
    else disagreements.push({ index, label, answer })
  })
  for (const [field, tally] of [
    ['true', sensitivity],
    ['false', specificity],
  ] as const) {
    if (tally.of === 0) {
      throw new InvalidOptionError({
        caller: where,
        option: 'labelled',
        expected:
          'runs of both labels (sensitivity needs runs labelled true, specificity runs labelled false)',
        received: `no run labelled ${field}`,
      })
    }
  }
  return { sensitivity, specificity, disagreements }
}

/** Reads YES or NO from the first word of the answer (markdown and punctuation aside). */
export function parseVerdict(answer: string): boolean | undefined {
  const first = /[A-Za-z]+/.exec(answer)?.[0]?.toUpperCase()
  return first === 'YES' ? true : first === 'NO' ? false : undefined
}

const SYSTEM = [
  'You evaluate one run of an AI agent against a statement about it.',
  'Answer YES if the statement holds for the run, NO if it does not.',
  'Begin your answer with the single word YES or NO; you may explain after it.',
].join(' ')

/** The question: the rubric, then the run as text (input, each step and its tool calls, output). */
export function judgePrompt(rubric: string, trajectory: Trajectory<unknown, unknown>): JudgePrompt {
  const lines = [`Statement: ${rubric}`, '', 'The run:', `input: ${shortJson(trajectory.input)}`]
  for (const observation of trajectory.preamble)
    lines.push(`tool ${observation.tool}(${shortJson(observation.args)}) → ${shortJson(observation.result)}`)
  for (const step of trajectory.steps) {
    const summary = step.meta?.['summary']
    lines.push(
      `step ${step.index} ${step.name}: ${typeof summary === 'string' && summary !== '' ? summary : shortJson(step.action)}`,
    )
    for (const observation of step.observations) {
      lines.push(
        `  tool ${observation.tool}(${shortJson(observation.args)}) → ${shortJson(observation.result)}`,
      )
    }
  }
  lines.push(`output: ${shortJson(trajectory.output)}`)
  return { system: SYSTEM, user: lines.join('\n') }
}

/** A JSON value as one line, cut at 2,000 characters: a judge reads the run, not every byte of it. */
function shortJson(value: unknown): string {
  if (value === undefined) return '(none)'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return cut(text ?? String(value), 2000)
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`
}
