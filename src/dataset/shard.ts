import { createHash } from 'node:crypto'
import { InvalidOptionError } from '../errors.js'
import type { Dataset } from './schema.js'

/** One of `count` machines a dataset's cases are split across: shard `index` of `count`, from 1. */
export interface DatasetShard {
  readonly index: number
  readonly count: number
}

/**
 * The shard written `i/n` (as `CAUSAL_REPLAY_SHARD=2/4`, Vitest's `--shard` syntax): 1 ≤ i ≤ n.
 * `option` names where it was read in the error.
 */
export function parseShard(text: string, caller: string, option: string): DatasetShard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text)
  const index = Number(match?.[1])
  const count = Number(match?.[2])
  if (match === null || !(count >= 1) || !(index >= 1) || index > count || !Number.isSafeInteger(count)) {
    throw new InvalidOptionError({
      caller,
      option,
      expected: '"i/n" with 1 ≤ i ≤ n, e.g. "1/2"',
      received: JSON.stringify(text),
    })
  }
  return { index, count }
}

/**
 * The shard (from 1) that runs case `id` when the cases are split `count` ways: the SHA-256 of the
 * id, read as a number, modulo `count`. It depends on the id and `count` alone, never on the case's
 * position or the order of the dataset's file, so every machine of a matrix computes the same split
 * from its own copy of the dataset, and a case moved in the file stays on its shard.
 */
export function shardOfCase(id: string, count: number): number {
  const digest = createHash('sha256').update(id, 'utf8').digest()
  // 48 bits: exact in a double, and far more than any shard count needs to be near-uniform.
  return (digest.readUIntBE(0, 6) % count) + 1
}

/** The dataset restricted to the cases `shard` runs (same name and file; the cases keep their order). */
export function casesOfShard<I>(dataset: Dataset<I>, shard: DatasetShard): Dataset<I> {
  return {
    kind: 'dataset',
    name: dataset.name,
    file: dataset.file,
    cases: dataset.cases.filter(({ id }) => shardOfCase(id, shard.count) === shard.index),
  }
}
