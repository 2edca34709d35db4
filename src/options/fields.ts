import { z } from 'zod'
import { DEFAULTS } from './defaults.js'

/**
 * What a field accepts, in the words that follow "`option` must be …". Attached once per field
 * schema; `parseOptions` finds it again at the path of a failing value (through `.optional()`,
 * `.default()` and the like), so a message never depends on zod's own wording.
 */
export const expectations = z.registry<{
  expected: string
  /** How a refused value is shown, when the usual description would print a secret (a URL's password). */
  describeReceived?: (value: unknown) => string
}>()

/**
 * `schema`, with the words that say what it accepts (see {@link expectations}), and, for a field
 * whose values may hold a secret, how to show a refused value.
 */
export function expecting<Schema extends z.ZodType>(
  schema: Schema,
  expected: string,
  describeReceived?: (value: unknown) => string,
): Schema {
  expectations.add(schema, describeReceived === undefined ? { expected } : { expected, describeReceived })
  return schema
}

/** A confidence level. At or below 0.5 a two-sided claim says nothing, and 1 is never reached. */
export const ConfidenceField = expecting(
  z.number().gt(0.5).lt(1),
  `a confidence in (0.5, 1), e.g. ${DEFAULTS.confidence}`,
)

/** A count of at least one: rollouts, concurrency, steps, permutations. */
export const PositiveIntegerField = expecting(z.number().int().min(1), 'a positive integer')

/** A count or index that may be zero: a rollout index, a number of rollouts to skip. */
export const NonNegativeIntegerField = expecting(z.number().int().min(0), 'a non-negative integer')

/** A seed: any safe integer (it is hashed into streams, so its size does not matter). */
export const SeedField = expecting(z.number().int(), 'a safe integer, e.g. 42')

/**
 * A time limit in milliseconds. Infinity is allowed and means no limit, which zod's `z.number()`
 * rejects: hence the hand-written check.
 */
export const TimeoutMsField = expecting(
  z.custom<number>((value) => typeof value === 'number' && value > 0),
  'a positive number of milliseconds',
)

/** A rate strictly between 0 and 1: a share of rollouts. */
export const RateField = expecting(z.number().gt(0).lt(1), 'a rate in (0, 1), e.g. 0.05')

/** A switch. */
export const BooleanField = expecting(z.boolean(), 'true or false')

/** A path (a report directory): empty would silently mean the current directory. */
export const NonEmptyPathField = expecting(z.string().min(1), 'a non-empty path')

/** A cancellation signal; checked by shape, so a signal from another realm (a polyfill) passes. */
export const AbortSignalField = expecting(
  z.custom<AbortSignal>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { aborted?: unknown }).aborted === 'boolean' &&
      typeof (value as { addEventListener?: unknown }).addEventListener === 'function',
  ),
  'an AbortSignal',
)

/**
 * A callback of type `F`; `expected` describes its signature (`a function (trajectory) => boolean`).
 * Only `typeof` is checked: a function's parameters cannot be checked before it is called.
 */
export function functionField<F>(expected = 'a function'): z.ZodType<F, F> {
  return expecting(
    z.custom<F>((value) => typeof value === 'function'),
    expected,
  )
}

/** One of a few strings, worded `'live' or 'recorded'` in messages. */
export function oneOf<const Values extends readonly [string, ...string[]]>(values: Values) {
  const quoted = values.map((value) => `'${value}'`)
  const listed =
    quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`
  return expecting(z.enum(values), listed as string)
}
