import { z } from 'zod'
import { expecting } from '../options/fields.js'
import { JsonSchema } from '../trajectory/schema.js'
import type { Json } from '../json.js'

/**
 * One row of a dataset as written: a JSON object (a CSV row is an object of strings) with an
 * optional `id`, optional `tags` and, unless `defineDataset`'s `input` option maps the row, the
 * agent's `input`. Other fields are kept for the mapper and the content hash.
 */
export const DatasetRowSchema = z.looseObject({
  /** Default: the first 12 hex digits of SHA-256 over the row's canonical JSON. Unique in the dataset. */
  id: expecting(z.string().trim().min(1), 'a non-empty string').optional(),
  /** Default: none. Labels to group cases by (`billing`, `adversarial`). */
  tags: expecting(
    z.array(expecting(z.string().trim().min(1), 'a non-empty string')),
    'an array of non-empty strings',
  ).optional(),
  /** The agent's input (any JSON value); required unless `defineDataset`'s `input` option maps the row. */
  input: expecting(JsonSchema, 'a JSON value').optional(),
})
/** One row of a dataset as written (see {@link DatasetRowSchema}). */
export type DatasetRow = z.input<typeof DatasetRowSchema>

/** One case of a dataset, resolved: what a rollout of `agent.over(dataset)` runs. */
export const DatasetCaseSchema = z.object({
  /** Given in the row, or derived from its content (12 hex digits). */
  id: z.string().min(1),
  tags: z.array(z.string()),
  /** The agent's input: the row's `input`, or what `defineDataset`'s `input` option made of the row. */
  input: JsonSchema,
  /** The case's place among the dataset's cases, from 1. */
  position: z.number().int().positive(),
  /** The line of its file the case starts on; absent for cases given as an array. */
  line: z.number().int().positive().optional(),
})
/** One case of a dataset, with its input typed `I`. */
export type DatasetCase<I = Json> = Omit<z.infer<typeof DatasetCaseSchema>, 'input'> & { readonly input: I }

/**
 * A dataset: a name and its cases, made by `defineDataset`. `agent.over(dataset)` runs the agent
 * over it, and a claim about that scenario is about the mean rate over its cases.
 */
export interface Dataset<I = Json> {
  readonly kind: 'dataset'
  /** Shown in messages and reports. */
  readonly name: string
  /** The file the cases were read from, as given; undefined for cases given as an array. */
  readonly file: string | undefined
  /** The cases, in the order given. */
  readonly cases: readonly DatasetCase<I>[]
}

/** True for a value made by `defineDataset`. */
export function isDataset(value: unknown): value is Dataset<unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'dataset'
}
