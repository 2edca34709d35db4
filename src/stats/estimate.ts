import { z } from 'zod'

/** Names of the interval methods an {@link Estimate} or effect can carry. */
export const IntervalMethodSchema = z.enum([
  'wilson',
  'clopper-pearson',
  'newcombe',
  'tango',
  'bootstrap',
  'clt',
  'exact',
  'confidence-sequence',
  'student-t',
  'tango-corrected',
  'newcombe-corrected',
  'rogan-gladen',
])
export type IntervalMethod = z.infer<typeof IntervalMethodSchema>

/** A proportion with its interval: `successes` of `n`, `point` = successes / n (NaN-free: 0 when n = 0). */
export const EstimateSchema = z.object({
  point: z.number(),
  low: z.number(),
  high: z.number(),
  successes: z.number().int().nonnegative(),
  n: z.number().int().nonnegative(),
  confidence: z.number().gt(0).lt(1),
  method: IntervalMethodSchema,
})
export type Estimate = z.infer<typeof EstimateSchema>

/** A point with an interval that is not a single proportion (a difference, a Shapley value, a mean score). */
export const IntervalSchema = z.object({
  point: z.number(),
  low: z.number(),
  high: z.number(),
  confidence: z.number().gt(0).lt(1),
  method: IntervalMethodSchema,
})
export type Interval = z.infer<typeof IntervalSchema>
