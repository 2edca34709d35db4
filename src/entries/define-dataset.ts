// The root's `defineDataset`, not an entry of its own: defined at the top layer, where the library is
// entered, because a relative path is read from the working directory, which the layers below
// never read.

import { defineDatasetIn, type DatasetOptions, type DatasetSource } from '../dataset/define-dataset.js'
import type { Dataset, DatasetRow } from '../dataset/schema.js'
import type { Json, JsonObject } from '../json.js'

/**
 * Defines a dataset: a name and its cases, each with an `id` (given, or the first 12 hex digits of
 * the SHA-256 of its content), optional `tags` and the agent's `input`. The cases are an array, or a
 * file read now: `.json` (an array of cases), `.jsonl` / `.ndjson` (a case a line) or `.csv` (a
 * header row, then a case a row, every value a string; a `tags` cell is split on commas), given as
 * a path (relative to the working directory) or a file URL (`new URL('./cases.jsonl', import.meta.url)`).
 * With the `input` option a row of any shape maps to the agent's input.
 *
 * `agent.over(dataset)` runs the agent over it, and a claim on that scenario is about the mean rate
 * over the cases. A case that does not fit throws an `InvalidDatasetError` naming the dataset, the
 * file, the case (position, id, line) and the field.
 *
 * @example
 * <!-- example:examples/docs/datasets.test.ts#define -->
 * ```ts
 * import { defineDataset } from 'vitest-causal-replay'
 *
 * type Ticket = {
 *   orderId: string
 *   message: string
 * }
 *
 * // A .jsonl file, a case a line: { "id", "tags", "input" }; also .json (an array) and .csv. A file's
 * // inputs are checked to be JSON, not typed: name their type.
 * const tickets = defineDataset<Ticket>('tickets', new URL('./tickets.jsonl', import.meta.url))
 * ```
 * <!-- /example:examples/docs/datasets.test.ts#define -->
 */
export function defineDataset<I extends Json = Json>(
  name: string,
  cases: DatasetSource<DatasetRow & { input: I }>,
): Dataset<I>
/** A dataset whose rows `options.input` maps to the agent's input (see the overload above). */
export function defineDataset<I = Json, R = JsonObject>(
  name: string,
  cases: DatasetSource<R>,
  options: DatasetOptions<R, I>,
): Dataset<I>
export function defineDataset(name: string, cases: unknown, options: unknown = {}): Dataset<unknown> {
  return defineDatasetIn(process.cwd(), name, cases, options)
}
