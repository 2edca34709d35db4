import { z } from 'zod'
import { InvalidOptionError } from '../errors.js'
import { expecting } from '../options/fields.js'
import { parseOptions } from '../options/parse-options.js'

/** How often a judge was right on one class of human-labelled runs: `correct` of `of`. */
export interface JudgeAccuracy {
  /** Runs of the class the judge labelled as the humans did. */
  readonly correct: number
  /** Runs of the class in the calibration set (at least 1). */
  readonly of: number
}

/**
 * What a judge's calibration measured, with its counts (the counts carry the uncertainty the
 * corrected gate pays for):
 * - `sensitivity`: of the runs humans labelled as satisfying the rubric, how many the judge did;
 * - `specificity`: of the runs humans labelled as not satisfying it, how many the judge rejected.
 *
 * `{ sensitivity: { correct: 47, of: 50 }, specificity: { correct: 95, of: 100 } }`.
 */
export interface JudgeCalibration {
  readonly sensitivity: JudgeAccuracy
  readonly specificity: JudgeAccuracy
}

const AccuracySchema = z.strictObject({
  correct: expecting(z.number().int().min(0), 'a non-negative integer count of runs'),
  of: expecting(z.number().int().min(1), 'a positive integer count of runs'),
})

/** The schema of a {@link JudgeCalibration}. */
export const JudgeCalibrationSchema = z.strictObject({
  sensitivity: AccuracySchema,
  specificity: AccuracySchema,
})

/**
 * Checks a calibration given by hand (`judge(model, rubric, { calibration })`): an error names the
 * field (`calibration.sensitivity.correct`). A calibration whose sensitivity and specificity add up
 * to at most 1 at their point estimates says the judge is no better than chance, and is refused:
 * no correction can recover a rate from it.
 */
export function parseJudgeCalibration(value: unknown, caller: string): JudgeCalibration {
  const parsed = parseOptions(caller, z.strictObject({ calibration: JudgeCalibrationSchema }), {
    calibration: value,
  }).calibration
  const { sensitivity, specificity } = parsed
  for (const [field, accuracy] of [
    ['sensitivity', sensitivity],
    ['specificity', specificity],
  ] as const) {
    if (accuracy.correct > accuracy.of) {
      throw new InvalidOptionError({
        caller,
        option: `calibration.${field}.correct`,
        expected: `at most \`of\` (${accuracy.of})`,
        received: String(accuracy.correct),
      })
    }
  }
  if (sensitivity.correct / sensitivity.of + specificity.correct / specificity.of <= 1) {
    throw new InvalidOptionError({
      caller,
      option: 'calibration',
      expected: 'a judge better than chance (sensitivity + specificity > 1)',
      received: `sensitivity ${sensitivity.correct}/${sensitivity.of}, specificity ${specificity.correct}/${specificity.of}`,
      hint: 'Check the labels, or sharpen the rubric.',
    })
  }
  return parsed
}

// Which predicates carry a calibration: a WeakMap, as predicate labels ride on function names, so
// that a judge stays a plain function the gates call like any predicate.
const calibrations = new WeakMap<object, JudgeCalibration>()

/** Marks `predicate` as a judge with `calibration`; returns it. */
export function withJudgeCalibration<F extends object>(predicate: F, calibration: JudgeCalibration): F {
  calibrations.set(predicate, calibration)
  return predicate
}

/**
 * The calibration of a judge predicate, or undefined for any other predicate (and for a judge
 * that was given none). The rate gate corrects the rate of a predicate that has one.
 */
export function judgeCalibrationOf(predicate: object): JudgeCalibration | undefined {
  return calibrations.get(predicate)
}

/**
 * The calibration of `not(judge)`: the negated judge says yes where the judge says no, so its
 * sensitivity is the judge's specificity and the reverse.
 */
export function negatedCalibration(calibration: JudgeCalibration): JudgeCalibration {
  return { sensitivity: calibration.specificity, specificity: calibration.sensitivity }
}
